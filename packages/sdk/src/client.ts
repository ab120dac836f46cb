import type { paths } from '@content-workspace/contract';
import openapiFetch from 'openapi-fetch';
import { ConnectionError, ContentWorkspaceError, TimeoutError, createApiError } from './errors.js';
import { isIdempotent, isRetryable, newIdempotencyKey, retryDelay, sleep, takesIdempotencyKey, type RetryPolicy } from './retry.js';
import type { CallPromise, ContentWorkspaceClient, ThrowingClient } from './types.js';
import { VERSION } from './version.js';

/** Options of {@link createClient}. */
export type ClientOptions = {
  /**
   * The server's address, without `/v1`: e.g. `https://content.example.com`. Default: the
   * `CONTENT_WORKSPACE_URL` environment variable where there is a `process.env` (Node, Bun, Deno).
   */
  baseUrl?: string;
  /**
   * A personal API token (`cw_…`), sent as `Authorization: Bearer …`. Default: the
   * `CONTENT_WORKSPACE_TOKEN` environment variable where there is a `process.env`; without either,
   * calls are anonymous.
   */
  token?: string;
  /** The `fetch` to send requests with (default: the global one, looked up at each call). */
  fetch?: (request: Request) => Promise<Response>;
  /** Time limit of each attempt, in milliseconds, until the body is read; `0` for none. Default 60 000. */
  timeoutMs?: number;
  /**
   * Retries of a call after a failed connection, a timeout, a 408, a 429, a 5xx, or a 409 saying that
   * the first attempt is still running. Every call may be retried: writes (POST, PUT, PATCH, DELETE)
   * carry an `Idempotency-Key`, the same for all their attempts, so the server runs them once. Default 2.
   */
  maxRetries?: number;
  /** The first backoff delay in milliseconds; it doubles at each retry, with jitter. Default 500. */
  retryDelayMs?: number;
  /** The longest wait before a retry in milliseconds, also capping the server's `Retry-After`. Default 30 000. */
  maxRetryDelayMs?: number;
  /** Appended to the `User-Agent` header after `content-workspace-sdk/<version>`, e.g. `my-app/1.2.0`. */
  userAgent?: string;
  /** Reject with an {@link ApiError} on non-2xx answers instead of resolving to `{ error }`. Default false. */
  throwOnError?: boolean;
};

// openapi-fetch's CommonJS build sets `exports.default`, and our CommonJS bundle loads it the way
// Node does (the default import is then the whole exports object): take `.default` when present.
const createFetchClient =
  (openapiFetch as unknown as { default?: typeof openapiFetch }).default ?? openapiFetch;

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULTS: RetryPolicy = { maxRetries: 2, retryDelayMs: 500, maxRetryDelayMs: 30_000 };
const METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** A call's result as openapi-fetch makes it, before its types are narrowed by path. */
type RawResult = { data?: unknown; error?: unknown; response: Response };
type RawRequest = (method: string, path: string, init: Record<string, unknown>) => Promise<RawResult>;
type RawInit = Record<string, unknown> & {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  idempotencyKey?: string;
  fetch?: ClientOptions['fetch'];
  headers?: unknown;
  params?: { header?: Record<string, unknown> } & Record<string, unknown>;
};

const KEY_HEADER = 'Idempotency-Key';

/** A header's value among the call's `headers` (a Headers, pairs or a record), whatever its case. */
function headerValue(headers: unknown, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const entries = Array.isArray(headers) ? (headers as [string, unknown][]) : Object.entries(headers as Record<string, unknown>);
  const found = entries.find(([key, value]) => key.toLowerCase() === name.toLowerCase() && value != null);
  return found ? String(found[1]) : undefined;
}

/**
 * The call's init with its `Idempotency-Key` (a write's): the caller's (`idempotencyKey`, or the
 * header given in `headers` or `params.header`), else a new one. Built once per call, so every
 * attempt sends the same key.
 */
function withIdempotencyKey(method: string, init: RawInit): RawInit {
  const { idempotencyKey, ...rest } = init;
  if (!takesIdempotencyKey(method)) return rest;
  if (idempotencyKey === undefined && (headerValue(rest.headers, KEY_HEADER) ?? headerValue(rest.params?.header, KEY_HEADER)) !== undefined) return rest;
  return { ...rest, params: { ...rest.params, header: { ...rest.params?.header, [KEY_HEADER]: idempotencyKey ?? newIdempotencyKey() } } };
}

/**
 * Creates a client for the Content Workspace API. Every operation of the contract is a typed call:
 * `client.GET('/v1/orgs/{organizationId}', { params: { path: { organizationId } } })`.
 *
 * By default a call resolves to `{ data, error, response }`; with `throwOnError: true` it resolves
 * to `{ data, response }` and rejects with an {@link ApiError} on a non-2xx answer.
 */
export function createClient(options: ClientOptions & { throwOnError: true }): ThrowingClient;
export function createClient(options?: ClientOptions & { throwOnError?: false }): ContentWorkspaceClient;
export function createClient(options: ClientOptions): ContentWorkspaceClient | ThrowingClient;
export function createClient(options: ClientOptions = {}): ContentWorkspaceClient | ThrowingClient {
  const userAgent = `content-workspace-sdk/${VERSION}${options.userAgent ? ` ${options.userAgent}` : ''}`;
  const baseUrl = options.baseUrl ?? fromEnvironment('CONTENT_WORKSPACE_URL');
  if (!baseUrl) throw new ContentWorkspaceError('No server address: pass `baseUrl` or set CONTENT_WORKSPACE_URL');
  const token = 'token' in options ? options.token : fromEnvironment('CONTENT_WORKSPACE_TOKEN');
  const base = createFetchClient<paths>({
    baseUrl,
    headers: {
      'User-Agent': userAgent,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
  });
  const request = base.request as unknown as RawRequest;
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    retryDelayMs: options.retryDelayMs ?? DEFAULTS.retryDelayMs,
    maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
  };

  async function call(method: string, path: string, init: RawInit = {}): Promise<RawResult> {
    const { signal, timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxRetries = policy.maxRetries, fetch, ...rest } = withIdempotencyKey(method, init);
    // Idempotent by nature, or made so by the key: every method the client offers is one or the other.
    const retries = isIdempotent(method) || takesIdempotencyKey(method) ? maxRetries : 0;
    for (let attempt = 0; ; attempt++) {
      const mayRetry = attempt < retries;
      let result: RawResult | undefined;
      try {
        result = await withTimeout(signal, timeoutMs, async (attemptSignal) => {
          const transport = connectionFetch(fetch ?? options.fetch);
          try {
            return await request(method, path, { ...rest, fetch: transport.fetch, signal: attemptSignal });
          } catch (error) {
            throw transport.readFailure(error, attemptSignal);
          }
        });
      } catch (error) {
        if (!(mayRetry && error instanceof ConnectionError)) throw error;
      }
      if (result && !(mayRetry && isRetryable(result.response))) {
        if (options.throwOnError && !result.response.ok) throw createApiError(result.response, result.error, { method });
        return result;
      }
      await sleep(retryDelay(attempt, result?.response, policy), signal);
    }
  }

  const client: Record<string, unknown> = { use: base.use, eject: base.eject };
  for (const method of METHODS) client[method] = (path: string, init?: RawInit) => withResponse(call(method, path, init));
  return client as unknown as ContentWorkspaceClient | ThrowingClient;
}

/**
 * An environment variable, where the runtime has a `process.env` (Node, Bun, Deno's Node
 * compatibility); browsers and edge runtimes have none, and there the options are the only source.
 */
function fromEnvironment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.[name] || undefined;
}

/** Gives a call's promise its {@link CallPromise.withResponse}. */
function withResponse<R extends { response: Response }>(promise: Promise<R>): CallPromise<R> {
  return Object.assign(promise, {
    withResponse: () => promise.then((result) => ({ ...result, requestId: result.response.headers.get('x-request-id') ?? undefined })),
  });
}

/**
 * Runs one attempt under its own signal, aborted by the caller's signal or after `timeoutMs`.
 * The timer spans the whole attempt, body included, because openapi-fetch reads the body before
 * `run` resolves.
 */
async function withTimeout<T>(
  signal: AbortSignal | undefined,
  timeoutMs: number,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut: TimeoutError | undefined;
  const timer =
    timeoutMs > 0
      ? setTimeout(() => controller.abort((timedOut = new TimeoutError(timeoutMs))), timeoutMs)
      : undefined;
  try {
    return await run(controller.signal);
  } catch (error) {
    // However fetch or the body reader reports an abort, a timeout is reported as ours.
    throw timedOut ?? error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The `fetch` of one attempt: a request that got no answer rejects with a {@link ConnectionError};
 * an abort (the caller's, or a timeout) is passed through as fetch reports it.
 *
 * `readFailure` does the same for an answer whose body could not be read: openapi-fetch reads the
 * body before it resolves, so a connection reset mid-answer surfaces from the call itself. Once the
 * answer's headers are in, fetch reports such a failure as a TypeError (`terminated` with the
 * socket's ECONNRESET as cause in Node, `network error` in browsers). Other errors pass through
 * (invalid JSON is a SyntaxError); only a TypeError thrown by an `onResponse` middleware would be
 * taken for a broken connection too.
 */
function connectionFetch(custom: ClientOptions['fetch']) {
  let answered: Request | undefined;
  return {
    async fetch(request: Request): Promise<Response> {
      let response: Response;
      try {
        response = await (custom ?? globalThis.fetch)(request);
      } catch (error) {
        if (request.signal.aborted) throw error;
        throw new ConnectionError(`${request.method} ${request.url} failed: ${describe(error)}`, { cause: error });
      }
      answered = request;
      return response;
    },
    readFailure(error: unknown, signal: AbortSignal): unknown {
      if (!answered || signal.aborted || !(error instanceof TypeError)) return error;
      return new ConnectionError(`${answered.method} ${answered.url} failed while reading the answer: ${describe(error)}`, { cause: error });
    },
  };
}

// Node's fetch rejects with a bare "fetch failed" and hides the useful part (ECONNREFUSED…) in `cause`.
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  const detail = cause instanceof Error ? ((cause as Error & { code?: string }).code ?? cause.message) : undefined;
  return detail ? `${error.message} (${detail})` : error.message;
}
