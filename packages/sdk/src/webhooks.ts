// Verifying webhook deliveries as the Standard Webhooks specification signs them
// (https://www.standardwebhooks.com): `webhook-signature` holds `v1,<base64 HMAC-SHA256>` of
// `<webhook-id>.<webhook-timestamp>.<body>` keyed by the secret's bytes (`whsec_<base64>`), one per
// secret the server signs with (two while a rotated secret's grace period lasts). Web Crypto only, so
// it runs wherever the SDK does (Node.js, browsers, Deno, Bun, workers).
import type { components } from '@content-workspace/contract';
import { ContentWorkspaceError } from './errors.js';

/** An event a webhook delivers: a union on `type`, so checking `event.type` narrows `event.data`. */
export type WebhookEvent = components['schemas']['Event'];

/** The type of a {@link WebhookEvent}, such as `space.content-updated`. */
export type WebhookEventType = WebhookEvent['type'];

/** Delivery headers, as `node:http` (`request.headers`), Express or the Fetch API (`Headers`) give them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Why a delivery was refused: a missing header, a timestamp out of tolerance, no matching signature, a body that is not an event. */
export type WebhookVerificationFailure = 'headers' | 'timestamp' | 'signature' | 'payload';

/** A delivery that did not verify: it must not be trusted (answer it with a 4xx). */
export class WebhookVerificationError extends ContentWorkspaceError {
  override name = 'WebhookVerificationError';
  /** What failed. */
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Options of {@link webhooks}' functions. */
export type WebhookVerifyOptions = {
  /** How far the delivery's timestamp may be from now, in seconds (default 300: five minutes). */
  toleranceSeconds?: number;
  /** The time to check the timestamp against (default: now). */
  now?: Date;
};

const SECRET_PREFIX = 'whsec_';
const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function hmacKey(secret: string) {
  const bytes = base64Bytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (!bytes || bytes.length === 0) throw new TypeError('The webhook secret must be whsec_ followed by base64');
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

/**
 * Checks the delivery's signature and timestamp and returns its event. `payload` is the body exactly
 * as received (the raw text or bytes, not a re-serialized object); `secret` is the webhook's signing
 * secret (`whsec_…`), or several (say, the previous and the new one while rotating). Throws a
 * {@link WebhookVerificationError} when the headers are missing, the timestamp is more than five
 * minutes away, no signature matches, or the body is not JSON.
 *
 * @example
 * const event = await webhooks.verify(body, request.headers, process.env.WEBHOOK_SECRET!);
 * if (event.type === 'space.content-updated') console.log(event.data.pages.edited);
 */
async function verify(payload: string | Uint8Array, headers: WebhookHeaders, secret: string | readonly string[], options: WebhookVerifyOptions = {}): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('headers', 'The webhook-id, webhook-timestamp and webhook-signature headers are required');
  const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
  const now = (options.now ?? new Date()).getTime() / 1000;
  const tolerance = options.toleranceSeconds ?? 300;
  if (Number.isNaN(seconds) || Math.abs(now - seconds) > tolerance) {
    throw new WebhookVerificationError('timestamp', `The webhook timestamp is more than ${tolerance} seconds away from now`);
  }
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  const signed = encoder.encode(`${id}.${timestamp}.${body}`);
  const offered = signatures
    .split(' ')
    .map((entry) => entry.split(','))
    .flatMap(([version, signature]) => (version === 'v1' && signature ? [base64Bytes(signature)] : []))
    .filter((bytes): bytes is Uint8Array<ArrayBuffer> => bytes !== undefined);
  for (const candidate of typeof secret === 'string' ? [secret] : secret) {
    const key = await hmacKey(candidate);
    // crypto.subtle.verify compares in constant time.
    for (const signature of offered) {
      if (await crypto.subtle.verify('HMAC', key, signature, signed)) return parse(body);
    }
  }
  throw new WebhookVerificationError('signature', 'No webhook signature matches the secret');
}

function parse(body: string): WebhookEvent {
  try {
    const event = JSON.parse(body) as WebhookEvent;
    if (typeof event === 'object' && event !== null && typeof event.type === 'string') return event;
  } catch {
    // refused below
  }
  throw new WebhookVerificationError('payload', 'The webhook body is not an event');
}

/**
 * {@link webhooks.verify} for a Fetch API `Request` (Deno, Bun, Cloudflare Workers, Next.js route
 * handlers): reads its body and headers, then verifies them.
 */
async function unwrap(request: Request, secret: string | readonly string[], options: WebhookVerifyOptions = {}): Promise<WebhookEvent> {
  return verify(await request.text(), request.headers, secret, options);
}

/** Verifying webhook deliveries (Standard Webhooks signatures) and reading their typed events. */
export const webhooks = { verify, unwrap };
