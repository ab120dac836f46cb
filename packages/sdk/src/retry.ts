// When and how long to wait before trying a call again.

/** How the client retries; every field is filled from `createClient`'s options or their defaults. */
export type RetryPolicy = {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The first backoff delay; each further retry doubles it. */
  retryDelayMs: number;
  /** The longest wait before a retry, whether computed or asked for by `Retry-After`. */
  maxRetryDelayMs: number;
};

// Repeating these cannot change the outcome (RFC 9110 §9.2.2), so a retry after a lost answer is safe.
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

// The API's writes: each is sent with an `Idempotency-Key`, which makes retrying them safe too (the
// server answers a repeated key with the first answer instead of running the call again).
const KEYED_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a failed call of this method may be sent again without a key. */
export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/** Whether a call of this method is sent with an `Idempotency-Key`. */
export function takesIdempotencyKey(method: string): boolean {
  return KEYED_METHODS.has(method.toUpperCase());
}

/**
 * Whether an answer is worth retrying: a timeout (408), rate limited (429), a server failure or
 * unavailability (5xx), or the server saying that the first call with this `Idempotency-Key` is still
 * running (409 with `Idempotency-Key-Status: in-progress`; a 409 without it is a conflict with the
 * state, which the same call would get again). Nothing is kept of an error, so the retry runs anew.
 */
export function isRetryable(response: Response): boolean {
  const status = response.status;
  if (status === 408 || status === 429 || status >= 500) return true;
  return status === 409 && response.headers.get('idempotency-key-status') === 'in-progress';
}

/**
 * A new `Idempotency-Key`: a random UUID. `crypto.randomUUID` exists in every runtime the SDK supports
 * but in browser pages served without TLS, where the key is made from `getRandomValues` instead.
 */
export function newIdempotencyKey(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The wait before retry number `attempt + 1`: the server's `Retry-After` when the answer has one,
 * else exponential backoff with jitter; never more than `maxRetryDelayMs`.
 *
 * Half of the backoff is fixed and half random ("equal jitter"): clients that failed together
 * spread out, and each retry still waits at least half the nominal delay.
 */
export function retryDelay(
  attempt: number,
  response: Response | undefined,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const asked = response ? parseRetryAfter(response.headers.get('retry-after')) : undefined;
  const backoff = policy.retryDelayMs * 2 ** attempt * (0.5 + random() / 2);
  return Math.min(asked ?? backoff, policy.maxRetryDelayMs);
}

/**
 * Reads a `Retry-After` header (a delay in seconds, or an HTTP date) as milliseconds from now;
 * `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its month and zone ("Wed, 21 Oct 2015 07:28:00 GMT"); without letters,
  // Date.parse would read things like "0.5" as a date in 2000.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
