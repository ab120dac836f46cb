// The one guard for outbound HTTP fetches of user-given addresses (file URLs now; website import and
// OpenAPI sources later), against server-side request forgery (docs/decisions.md, "Outbound addresses"):
// - http and https only, at most `maxRedirects` redirects, each hop checked like the first;
// - the address actually connected to must be globally routable unicast (`isPublicAddress`): host names
//   are resolved by our own `lookup`, which hands the socket only addresses that passed the check, so a
//   DNS answer cannot change between the check and the connection; IP literals are checked before
//   connecting;
// - one deadline for the whole exchange (redirects and body included) and a cap on the body size.
// GETs (fetchGuarded) go through node:http on a connection of their own; POSTs to receivers
// (postGuarded, webhook deliveries) through undici on kept-alive connections (createConnectionPool),
// each new connection made to the address checked for its request.
// `allowPrivate` lifts the address check (tests and development against local servers).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { EventEmitter } from 'node:events';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { buildConnector, Pool } from 'undici';

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

// Only globally routable unicast addresses may be fetched. ipaddr.js classifies ranges (its `range()` is
// 'unicast' only outside every special-purpose block: private, carrier-grade NAT, loopback, link-local,
// documentation, benchmarking, multicast, reserved, unique-local, site-local, 6to4, Teredo, …). Around it:
// - every spelling is first read as the URL parser, and so the connection, reads it: decimal, octal and
//   hex IPv4 (`2130706433`, `0x7f.1`, `017700000001`) and IPv6 with a dotted tail (`::127.0.0.1`, which
//   ipaddr.js alone would take for IPv4-mapped while the system connects to `::7f00:1`);
// - IPv4-mapped (`::ffff:a.b.c.d`) and NAT64 well-known-prefix (`64:ff9b::a.b.c.d`) addresses reach the IPv4
//   address they embed, so that address decides (on an IPv6-only network with DNS64 every IPv4-only host
//   resolves into 64:ff9b::/96);
// - any other IPv6 address must also lie in 2000::/3, the global unicast block: this refuses
//   IPv4-compatible (`::a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`) and unallocated space. 6to4 and
//   Teredo lie in it and are refused by their range whatever IPv4 address they embed.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  // Zone ids (`fe80::1%eth0`), host names and anything else but an address spelling are not addresses here.
  if (!/^[0-9a-fx.:]+$/i.test(address)) return undefined;
  let host: string;
  try {
    host = new URL(`http://${address.includes(':') ? `[${address}]` : address}/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
  return isIP(host) === 0 ? undefined : ipaddr.parse(host);
}

/** True for a globally routable unicast address, however it is spelled. */
export function isPublicAddress(address: string): boolean {
  let ip = parseAddress(address);
  if (!ip) return false;
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    else if (v6.match(NAT64_WELL_KNOWN)) ip = ipaddr.fromByteArray(v6.toByteArray().slice(12));
    else if (!v6.match(GLOBAL_UNICAST_V6)) return false;
  }
  return ip.range() === 'unicast';
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
      // No connection reuse: each request resolves and checks the address again.
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

/**
 * Kept-alive connections for repeated POSTs to the same receivers (webhook deliveries): an undici `Pool`
 * per origin and address a request was checked for (the host name is still resolved and checked at
 * every request; a connection is made, and reused, only to the address that check allowed). Each pool
 * holds at most `connectionsPerOrigin` connections; its idle ones close after `idleMs`; at most
 * `maxOrigins` pools are kept, the least recently used closed first. TLS verifies the host name, not
 * the address. Owned by its user, destroyed with it.
 */
export type ConnectionPool = { poolFor(url: URL, address: LookupAddress): Pool; destroy(): void };

export function createConnectionPool(options: { maxOrigins?: number; connectionsPerOrigin?: number; idleMs?: number } = {}): ConnectionPool {
  const { maxOrigins = 256, connectionsPerOrigin = 64, idleMs = 30_000 } = options;
  const pools = new Map<string, Pool>();
  const close = (pool: Pool) => void pool.destroy().catch(() => {});
  return {
    poolFor(url, address) {
      const key = `${url.origin}@${address.address}`;
      let pool = pools.get(key);
      if (pool) {
        // Most recently used last: the first is the one to drop.
        pools.delete(key);
      } else {
        // A new connection resolves the host name to the checked address only (an IP literal is not resolved).
        const connect = buildConnector({ lookup: pinnedLookup(address) } as buildConnector.BuildOptions);
        pool = new Pool(url.origin, { connections: connectionsPerOrigin, pipelining: 1, connect, keepAliveTimeout: idleMs, keepAliveMaxTimeout: idleMs });
        if (pools.size >= maxOrigins) {
          const [oldest, dropped] = pools.entries().next().value!;
          pools.delete(oldest);
          close(dropped);
        }
      }
      pools.set(key, pool);
      return pool;
    },
    destroy() {
      for (const pool of pools.values()) close(pool);
      pools.clear();
    },
  };
}

/** A `lookup` that answers `address` whatever it is asked (the address already checked for this request). */
function pinnedLookup(address: LookupAddress): LookupFunction {
  return (_hostname, options, callback) =>
    (options as { all?: boolean }).all
      ? (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [address])
      : callback(null, address.address, address.family);
}

/** The first address of `hostname` the rule allows (the system's resolution), else FORBIDDEN_ADDRESS. */
function checkedAddress(hostname: string, allowed: (address: string) => boolean): Promise<LookupAddress> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family) return allowed(host) ? Promise.resolve({ address: host, family }) : Promise.reject(new OutboundError('FORBIDDEN_ADDRESS', `${host} is an address that may not be fetched`));
  return new Promise((resolve, reject) => {
    guardedLookup(allowed)(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve((addresses as unknown as LookupAddress[])[0]!)));
  });
}

export type PostResponse = { status: number; headers: IncomingHttpHeaders; /** At most the policy's `maxBytes` of the body. */ body: Buffer };

/**
 * A deadline undici's `request` listens to (it takes an emitter of `abort` as its signal): per request,
 * an AbortSignal and its listeners cost about as much CPU as the rest of the exchange on a kept-alive
 * connection (docs/decisions.md, "Webhook delivery at 500 events per second").
 */
class Deadline extends EventEmitter {
  aborted = false;
  private readonly timer: NodeJS.Timeout;
  constructor(ms: number) {
    super();
    this.timer = setTimeout(() => {
      this.aborted = true;
      this.emit('abort');
    }, ms);
  }
  clear(): void {
    clearTimeout(this.timer);
  }
}

/** Reads at most `maxBytes` of the body, then closes the connection (the rest is never read). */
function readPrefix(body: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) {
        body.destroy();
        resolve(Buffer.concat(parts).subarray(0, maxBytes));
      }
    });
    body.on('end', () => resolve(Buffer.concat(parts)));
    body.on('error', (error) => reject(size < maxBytes ? new OutboundError('NETWORK', `the connection closed before the end of the response: ${error.message}`) : error));
  });
}

/**
 * POSTs `body` to `input` under `policy` (webhook deliveries): the address rule as for fetches (the
 * host name resolved and checked at every request, a connection made only to the address checked), no
 * redirect followed (a 3xx is an answer like any other), one deadline for the exchange, and at most
 * `maxBytes` of the answer read. Through `pool`'s kept-alive connections when given, else a pool of
 * its own closed afterwards. Answers whatever status came; a failure without an answer is an
 * OutboundError.
 */
export async function postGuarded(input: string, body: string, headers: Record<string, string>, policy: OutboundPolicy, pool?: ConnectionPool): Promise<PostResponse> {
  const allowed = addressRule(policy);
  const deadline = new Deadline(policy.timeoutMs);
  const connections = pool ?? createConnectionPool({ connectionsPerOrigin: 1 });
  try {
    const url = parseUrl(input);
    const address = await checkedAddress(url.hostname, allowed);
    if (deadline.aborted) throw new OutboundError('TIMEOUT', `no complete answer within ${policy.timeoutMs} ms`);
    const answer = await connections.poolFor(url, address).request({
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      signal: deadline,
      headers: { 'user-agent': 'content-workspace', accept: '*/*', 'accept-encoding': 'identity', ...headers },
      body,
    });
    const prefix = await readPrefix(answer.body, policy.maxBytes);
    return { status: answer.statusCode, headers: answer.headers as IncomingHttpHeaders, body: prefix };
  } catch (error) {
    if (deadline.aborted) throw new OutboundError('TIMEOUT', `no complete answer within ${policy.timeoutMs} ms`);
    if (error instanceof OutboundError) throw error;
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof OutboundError) throw cause;
    throw new OutboundError('NETWORK', `the request failed: ${(error as Error).message}`);
  } finally {
    deadline.clear();
    if (!pool) connections.destroy();
  }
}
