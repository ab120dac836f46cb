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

// 429: rate limited, nothing was done. 503: the server is draining or not ready. Other statuses are
// answers that the same request would get again.
const RETRYABLE_STATUSES = new Set([429, 503]);

/** Whether a failed call of this method may be sent again. */
export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/** Whether an answer with this status is worth retrying (for an idempotent method). */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
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
