// The typed surface of the client, derived from the contract's `paths` (types only come from
// @content-workspace/contract) and openapi-fetch's request and response types.
import type { components, paths } from '@content-workspace/contract';
import type { FetchResponse, MaybeOptionalInit, Middleware } from 'openapi-fetch';

/** The HTTP methods a client offers, lowercase as in the contract's path items. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch';

/** The API paths that have an operation for `Method`, e.g. `PathsWithMethod<'post'>`. */
export type PathsWithMethod<Method extends HttpMethod> = {
  [Path in keyof paths]: paths[Path] extends { [M in Method]: object } ? Path : never;
}[keyof paths];

/** A schema of the API by name, e.g. `Schema<'Organization'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** Options of a single call, next to `params` and `body`; they override the client's. */
export type CallOptions = {
  /** Cancels the call, including its retries and the waits between them. */
  signal?: AbortSignal;
  /** Time limit of each attempt, in milliseconds, until the body is read; `0` for none. */
  timeoutMs?: number;
  /** Retries of this call (idempotent methods only). */
  maxRetries?: number;
};

/** The keys of `T` that are not optional. */
type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

// As in openapi-fetch: the init argument is required only when it has required keys (path
// parameters, a body), and arbitrary extra keys are allowed through to middleware.
type InitParam<Init> = RequiredKeysOf<Init> extends never
  ? [init?: Init & CallOptions & { [key: string]: unknown }]
  : [init: Init & CallOptions & { [key: string]: unknown }];

type Media = `${string}/${string}`;

/**
 * What a call of a non-throwing client resolves to: `{ data, response }` on success, or
 * `{ error, response }` with the API's error body on a non-2xx answer.
 */
export type CallResult<Path extends keyof paths, Method extends keyof paths[Path], Init> = FetchResponse<
  paths[Path][Method] & Record<string | number, unknown>,
  Init,
  Media
>;

/**
 * What a call of a throwing client resolves to: always `{ data, response }`. `data` is `undefined`
 * for answers without a body (204, 205).
 */
export type SuccessResult<Path extends keyof paths, Method extends keyof paths[Path], Init> = OnlySuccess<
  CallResult<Path, Method, Init>
>;

// Keeps the success member of the result union; openapi-fetch types a missing body as `never`,
// which would make `data` unusable, so it becomes `undefined` (what the call really returns).
type OnlySuccess<Result> = Result extends { data: infer Data }
  ? { data: [Data] extends [never] ? undefined : Data; error?: never; response: Response }
  : never;

/**
 * One HTTP method of a client: `(path, { params, body, ...CallOptions })`. The path, its
 * parameters, the body and the result are all typed by the contract.
 */
export type ClientMethod<Method extends HttpMethod, Throwing extends boolean> = <
  Path extends PathsWithMethod<Method>,
  Init extends MaybeOptionalInit<paths[Path], Method>,
>(
  path: Path,
  ...init: InitParam<Init>
) => Promise<Throwing extends true ? SuccessResult<Path, Method, Init> : CallResult<Path, Method, Init>>;

/** The methods shared by both kinds of client. */
export interface ClientBase<Throwing extends boolean> {
  /** Calls a GET operation. */
  GET: ClientMethod<'get', Throwing>;
  /** Calls a PUT operation. */
  PUT: ClientMethod<'put', Throwing>;
  /** Calls a POST operation (never retried: it is not idempotent). */
  POST: ClientMethod<'post', Throwing>;
  /** Calls a PATCH operation (never retried: it is not idempotent). */
  PATCH: ClientMethod<'patch', Throwing>;
  /** Calls a DELETE operation. */
  DELETE: ClientMethod<'delete', Throwing>;
  /** Calls a HEAD operation. */
  HEAD: ClientMethod<'head', Throwing>;
  /** Calls an OPTIONS operation. */
  OPTIONS: ClientMethod<'options', Throwing>;
  /** Adds openapi-fetch middleware (`onRequest`, `onResponse`, `onError`), run on every attempt. */
  use(...middleware: Middleware[]): void;
  /** Removes middleware added by {@link ClientBase.use}. */
  eject(...middleware: Middleware[]): void;
}

/**
 * A client whose calls resolve to `{ data, error, response }`: `error` is the API's error body on
 * a non-2xx answer. A failed connection or a timeout still rejects ({@link ConnectionError}).
 */
export interface ContentWorkspaceClient extends ClientBase<false> {}

/**
 * A client whose calls resolve to `{ data, response }` and reject with an {@link ApiError}
 * subclass on a non-2xx answer (`createClient({ ..., throwOnError: true })`).
 */
export interface ThrowingClient extends ClientBase<true> {}
