import type { components } from '@content-workspace/contract';
import { parseRetryAfter } from './retry.js';

/** The body of every non-2xx answer of the API: `{ error: { code, message, issues? } }`. */
export type ErrorBody = components['schemas']['Error'];

/** One invalid input of a 400 answer: where it is (`/body/title`, `/query/limit`) and what is wrong. */
export type ErrorIssue = components['schemas']['ErrorIssue'];

/** The base class of every error the SDK throws, so one `instanceof` check catches them all. */
export class ContentWorkspaceError extends Error {
  override name = 'ContentWorkspaceError';
}

/**
 * The API answered with a non-2xx status. Thrown by a client created with `throwOnError: true`,
 * by {@link paginate}, and made from a `{ error, response }` result by {@link createApiError}.
 *
 * `message` says which call failed, how, and the request id to quote:
 * `GET /v1/spaces/s1: 404 Not Found: Space not found (request req_…)`; the API's own message alone is
 * `body.error.message`. The subclasses ({@link NotFoundError}, …) narrow `status`.
 */
export class ApiError extends ContentWorkspaceError {
  override name = 'ApiError';
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The invalid inputs of a 400 answer; empty for every other error. */
  readonly issues: readonly ErrorIssue[];
  /** The answer's `X-Request-Id`: quote it when asking the server's operators about this call. */
  readonly requestId: string | undefined;
  /** The answer; its body has already been read into {@link ApiError.body}. */
  readonly response: Response;
  /**
   * The parsed body: an {@link ErrorBody} when the API answered, or whatever a proxy in between
   * sent (text that is not JSON stays a string).
   */
  readonly body: unknown;

  /** The HTTP method of the call, e.g. `'GET'` (undefined when made without its request). */
  readonly method: string | undefined;
  /** The path the call was sent to, with its parameters filled in, e.g. `/v1/spaces/s1`. */
  readonly path: string;

  /** Prefer {@link createApiError}, which picks the subclass that matches the status. */
  constructor(response: Response, body: unknown, request?: { method: string }) {
    const error = isErrorBody(body) ? body.error : undefined;
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const path = response.url ? new URL(response.url).pathname : '';
    const status = `${response.status} ${response.statusText}`.trim();
    const call = [request?.method, path].filter(Boolean).join(' ');
    super(
      `${call ? `${call}: ` : ''}${status}${error ? `: ${error.message}` : ''}${requestId ? ` (request ${requestId})` : ''}`,
    );
    this.status = response.status;
    this.issues = error?.issues ?? [];
    this.requestId = requestId;
    this.response = response;
    this.body = body;
    this.method = request?.method;
    this.path = path;
  }
}

/** 400: invalid input; {@link ApiError.issues} lists each problem. Nothing was changed. */
export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
  declare readonly status: 400;
}

/** 401: the token is missing, invalid or expired. */
export class UnauthorizedError extends ApiError {
  override name = 'UnauthorizedError';
  declare readonly status: 401;
}

/** 403: the caller can see the resource, but their role does not allow this. */
export class ForbiddenError extends ApiError {
  override name = 'ForbiddenError';
  declare readonly status: 403;
}

/** 404: absent, or not visible to the caller (the API never reveals which). */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  declare readonly status: 404;
}

/** 409: the request conflicts with the current state (a slug taken, a status move the rules forbid…). */
export class ConflictError extends ApiError {
  override name = 'ConflictError';
  declare readonly status: 409;
}

/** 412: a structurally impossible move or transfer (a collection into its own descendant…). */
export class PreconditionFailedError extends ApiError {
  override name = 'PreconditionFailedError';
  declare readonly status: 412;
}

/** 429: rate limited. Idempotent calls were already retried before this was thrown. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  declare readonly status: 429;
  /** How long the server asked to wait (`Retry-After`), in milliseconds, when it said. */
  readonly retryAfterMs: number | undefined;

  /** Prefer {@link createApiError}. */
  constructor(response: Response, body: unknown, request?: { method: string }) {
    super(response, body, request);
    this.retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  }
}

/**
 * No answer came: the connection failed (refused, reset, DNS…). `cause` holds the error of `fetch`.
 * Idempotent calls were already retried before this was thrown.
 */
export class ConnectionError extends ContentWorkspaceError {
  override name = 'ConnectionError';
}

/** No complete answer came within the client's `timeoutMs` (per attempt). */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
  /** The time limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;

  /** @param timeoutMs the time limit that was exceeded */
  constructor(timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

const errorClasses: Record<number, typeof ApiError> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  412: PreconditionFailedError,
  429: RateLimitError,
};

/**
 * Makes the {@link ApiError} (of the subclass matching the status) for an error answer: use it to
 * turn the `{ error, response }` of a non-throwing client into an exception.
 *
 * @param response the non-2xx answer
 * @param body its parsed body (the result's `error`)
 * @param request the call's method, for the message
 */
export function createApiError(response: Response, body: unknown, request?: { method: string }): ApiError {
  const ErrorClass = errorClasses[response.status] ?? ApiError;
  return new ErrorClass(response, body, request);
}

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = body.error;
  return typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string';
}
