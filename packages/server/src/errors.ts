// The closed set of API errors. Handlers throw these; the error middleware renders them as
// `{error: {code, message, issues?}}`.

export type ErrorIssue = { path: string; message: string };

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: ErrorIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, issues?: ErrorIssue[]) => new HttpError(400, message, issues);

/** A 400 naming one invalid input, for checks the schema cannot express. */
export const invalidField = (path: string, message: string) => new HttpError(400, `${path}: ${message}`, [{ path, message }]);

export const unauthorized = (message = 'Missing or invalid bearer token') =>
  new HttpError(401, message, undefined, { 'WWW-Authenticate': 'Bearer' });

export const forbidden = (message = 'Your role does not allow this') => new HttpError(403, message);

/** 404 for what is absent or hidden from the caller: both read the same, so existence never leaks. */
export const notFound = (what: string) => new HttpError(404, `${what} not found`);

export const conflict = (message: string) => new HttpError(409, message);

/** 410: the resource existed but is no longer available (an expired download address). */
export const gone = (message: string) => new HttpError(410, message);

export const preconditionFailed = (message: string) => new HttpError(412, message);

/** 422: the request was well-formed, but what it points at could not be used (an import source, a PDF too large). */
export const unprocessable = (message: string) => new HttpError(422, message);

export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, 'Too many requests', undefined, { 'Retry-After': String(retryAfterSeconds) });

/** 503: nothing was done; the client may retry after `Retry-After` (the database is away, the server is stopping). */
export const serviceUnavailable = (message: string, retryAfterSeconds: number) =>
  new HttpError(503, message, undefined, { 'Retry-After': String(retryAfterSeconds) });
