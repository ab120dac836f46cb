// The typed surface of the client, derived from the contract's `paths` (types only come from
// @content-workspace/contract) and openapi-fetch's request and response types.
import type { components, paths } from '@content-workspace/contract';
import type { FetchOptions, FetchResponse, Middleware, ParseAs } from 'openapi-fetch';

/** The HTTP methods a client offers, lowercase as in the contract's path items. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch';

/** The API paths that have an operation for `Method`, e.g. `PathsWithMethod<'post'>`. */
export type PathsWithMethod<Method extends HttpMethod> = {
  [Path in keyof paths]: paths[Path] extends { [M in Method]: object } ? Path : never;
}[keyof paths];

/** A schema of the API by name, e.g. `Schema<'Organization'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** How a call reads the answer's body: `'json'` (the default), `'text'`, `'blob'`, `'arrayBuffer'` or `'stream'`. */
export type { ParseAs };

/** Options of a single call, next to `params` and `body`; they override the client's. */
export type CallOptions = {
  /** Cancels the call, including its retries and the waits between them. */
  signal?: AbortSignal;
  /** Time limit of each attempt, in milliseconds, until the body is read; `0` for none. */
  timeoutMs?: number;
  /** Retries of this call. */
  maxRetries?: number;
  /**
   * The `Idempotency-Key` of a write (POST, PUT, PATCH, DELETE). By default each call gets a new random
   * key, which its retries reuse, so the server runs the call once however often it is sent. Pass your
   * own (1–255 visible ASCII characters) to make a call safe to repeat beyond this client's retries,
   * e.g. from a queue worker that may run twice: the server answers a key it has seen (for 24 hours,
   * per token) with the first answer.
   */
  idempotencyKey?: string;
};

/** The keys of `T` that are not optional. */
type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

type Media = `${string}/${string}`;

/**
 * The second argument of a call of the path-based client: `params` (`path`, `query`), `body`, the
 * {@link CallOptions}, and openapi-fetch's request options (`headers`, `parseAs`, …).
 *
 * It is exact: a key that the operation does not have, at any depth (`{ body: { titel } }`), is
 * a type error, so a misspelt name never reaches the server.
 */
export type CallInit<Path extends keyof paths, Method extends HttpMethod, As extends ParseAs = 'json'> = Omit<
  FetchOptions<paths[Path][Method]>,
  'parseAs' | 'signal'
> &
  CallOptions & {
    /** How to read the answer's body (default `'json'`); `data` is typed accordingly. */
    parseAs?: As;
  };

// The init argument is required only when it has required keys (path parameters, a body).
// Distributed over `Path`: when the path is not one of the API's, TypeScript falls back to the
// union of every path, some of which take no init, so the error it reports is the readable one
// about the path ("not assignable to parameter of type PathsWithMethod<'get'>") rather than a
// count of arguments.
type InitArgs<Path extends keyof paths, Method extends HttpMethod, As extends ParseAs> = Path extends unknown
  ? RequiredKeysOf<FetchOptions<paths[Path][Method]>> extends never
    ? [init?: CallInit<Path, Method, As>]
    : [init: CallInit<Path, Method, As>]
  : never;

/**
 * What a call of a non-throwing client resolves to: `{ data, response }` on success, or
 * `{ error, response }` with the API's error body on a non-2xx answer. `data` is read as `As` says.
 */
export type CallResult<Path extends keyof paths, Method extends keyof paths[Path], As extends ParseAs = 'json'> = FetchResponse<
  paths[Path][Method] & Record<string | number, unknown>,
  { parseAs: As },
  Media
>;

/**
 * What a call of a throwing client resolves to: always `{ data, response }`. `data` is `undefined`
 * for answers without a body (204, 205).
 */
export type SuccessResult<Path extends keyof paths, Method extends keyof paths[Path], As extends ParseAs = 'json'> = OnlySuccess<
  CallResult<Path, Method, As>
>;

// Keeps the success member of the result union; openapi-fetch types a missing body as `never`,
// which would make `data` unusable, so it becomes `undefined` (what the call really returns).
type OnlySuccess<Result> = Result extends { data: infer Data }
  ? { data: [Data] extends [never] ? undefined : Data; error?: never; response: Response }
  : never;

/** The result of a call of the operation at `Path` and `Method`, by the kind of client. */
export type ResultOf<
  Path extends keyof paths,
  Method extends keyof paths[Path],
  As extends ParseAs,
  Throwing extends boolean,
> = Throwing extends true ? SuccessResult<Path, Method, As> : CallResult<Path, Method, As>;

/**
 * What every call returns: a promise of its result, whose `withResponse()` resolves to the same
 * result with the answer's request id (`X-Request-Id`, to quote to the server's operators) beside
 * `data` and the raw `response`.
 */
export type CallPromise<Result> = Promise<Result> & {
  /** The result with the answer's `requestId` (`X-Request-Id`), next to `data` and `response`. */
  withResponse(): Promise<Result & { requestId: string | undefined }>;
};

/**
 * One HTTP method of a client: `(path, { params, body, ...CallOptions })`. The path, its
 * parameters, the body and the result are all typed by the contract.
 */
export type ClientMethod<Method extends HttpMethod, Throwing extends boolean> = <
  Path extends PathsWithMethod<Method>,
  As extends ParseAs = 'json',
>(
  path: Path,
  ...init: InitArgs<Path, Method, As>
) => CallPromise<ResultOf<Path, Method, As, Throwing>>;

/** The methods shared by both kinds of client. */
export interface ClientBase<Throwing extends boolean> {
  /** Calls a GET operation. */
  GET: ClientMethod<'get', Throwing>;
  /** Calls a PUT operation. */
  PUT: ClientMethod<'put', Throwing>;
  /** Calls a POST operation (retried with the same `Idempotency-Key`, so the server runs it once). */
  POST: ClientMethod<'post', Throwing>;
  /** Calls a PATCH operation (retried with the same `Idempotency-Key`, so the server runs it once). */
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
