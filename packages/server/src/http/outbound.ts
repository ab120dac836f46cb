// The one guard for outbound HTTP fetches of user-given addresses (file URLs now; website import and
// OpenAPI sources later), against server-side request forgery (DESIGN.md §7):
// - http and https only, at most `maxRedirects` redirects, each hop checked like the first;
// - the address actually connected to must be public: host names are resolved by our own `lookup`,
//   which hands the socket only addresses that passed the check, so a DNS answer cannot change between
//   the check and the connection; IP literals are checked before connecting;
// - one deadline for the whole exchange (redirects and body included) and a cap on the body size.
// `allowPrivate` lifts the address check (tests and development against local servers).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export type OutboundPolicy = {
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  /** Overrides the address rule (tests). */
  isAllowedAddress?: (address: string) => boolean;
};

export type OutboundErrorCode = 'BAD_URL' | 'FORBIDDEN_ADDRESS' | 'TIMEOUT' | 'TOO_LARGE' | 'TOO_MANY_REDIRECTS' | 'HTTP_STATUS' | 'NETWORK';

export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export type OutboundResponse = { url: string; status: number; headers: IncomingHttpHeaders; body: Buffer };

export const DEFAULT_MAX_REDIRECTS = 5;

// Not public: "this network", private, carrier-grade NAT, loopback, link-local (cloud metadata),
// documentation, benchmarking, multicast, reserved; IPv6 equivalents, and IPv6 forms that embed an IPv4
// address (mapped, NAT64, 6to4, Teredo), refused whole rather than decoded.
// Two lists: a BlockList also checks IPv4 addresses against IPv6 rules (as IPv4-mapped), so the
// IPv6 rule refusing mapped addresses would refuse every IPv4 address.
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC_V4.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32],
  ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC_V6.addSubnet(network, prefix, 'ipv6');

/** True for a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !NOT_PUBLIC_V4.check(address, 'ipv4') : !NOT_PUBLIC_V6.check(address, 'ipv6');
}

function addressRule(policy: OutboundPolicy): (address: string) => boolean {
  return policy.isAllowedAddress ?? (policy.allowPrivate ? () => true : isPublicAddress);
}

/** A `lookup` for sockets that resolves like the system does and keeps only allowed addresses. */
function guardedLookup(allowed: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = addresses.filter((entry) => allowed(entry.address));
      if (usable.length === 0) {
        return callback(new OutboundError('FORBIDDEN_ADDRESS', `${hostname} resolves to an address that may not be fetched`), '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

function parseUrl(input: string, base?: string): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new OutboundError('BAD_URL', `"${input}" is not a valid address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('BAD_URL', `only http and https addresses can be fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new OutboundError('BAD_URL', 'addresses with credentials cannot be fetched');
  return url;
}

type Hop = { response: IncomingMessage; request: http.ClientRequest };

function requestOnce(url: URL, allowed: (address: string) => boolean, signal: AbortSignal): Promise<Hop> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !allowed(host)) return Promise.reject(new OutboundError('FORBIDDEN_ADDRESS', `${host} is an address that may not be fetched`));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: 'GET',
      agent: false,
      lookup: guardedLookup(allowed),
      signal,
      headers: { 'user-agent': 'content-workspace', accept: '*/*', 'accept-encoding': 'identity' },
    });
    request.on('response', (response) => resolve({ response, request }));
    request.on('error', reject);
    request.end();
  });
}

function readBody(hop: Hop, maxBytes: number): Promise<Buffer> {
  const declared = Number(hop.response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    hop.request.destroy();
    return Promise.reject(new OutboundError('TOO_LARGE', `the response is larger than ${maxBytes} bytes`));
  }
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    hop.response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        hop.request.destroy();
        reject(new OutboundError('TOO_LARGE', `the response is larger than ${maxBytes} bytes`));
        return;
      }
      parts.push(chunk);
    });
    hop.response.on('end', () => resolve(Buffer.concat(parts)));
    hop.response.on('error', reject);
    hop.response.on('close', () => {
      if (!hop.response.complete) reject(new OutboundError('NETWORK', 'the connection closed before the end of the response'));
    });
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `input` under `policy`; answers the final 2xx response with its body. Every failure is an
 * OutboundError whose code says what went wrong.
 */
export async function fetchGuarded(input: string, policy: OutboundPolicy): Promise<OutboundResponse> {
  const allowed = addressRule(policy);
  const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), policy.timeoutMs);
  try {
    let url = parseUrl(input);
    for (let redirects = 0; ; redirects++) {
      const hop = await requestOnce(url, allowed, controller.signal);
      const { statusCode = 0, headers } = hop.response;
      if (REDIRECTS.has(statusCode) && headers.location) {
        hop.request.destroy();
        if (redirects >= maxRedirects) throw new OutboundError('TOO_MANY_REDIRECTS', `more than ${maxRedirects} redirects`);
        url = parseUrl(headers.location, url.toString());
        continue;
      }
      if (statusCode < 200 || statusCode > 299) {
        hop.request.destroy();
        throw new OutboundError('HTTP_STATUS', `the server answered ${statusCode}`, statusCode);
      }
      const body = await readBody(hop, policy.maxBytes);
      return { url: url.toString(), status: statusCode, headers, body };
    }
  } catch (error) {
    if (controller.signal.aborted) throw new OutboundError('TIMEOUT', `no complete answer within ${policy.timeoutMs} ms`);
    if (error instanceof OutboundError) throw error;
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof OutboundError) throw cause;
    throw new OutboundError('NETWORK', `the fetch failed: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
