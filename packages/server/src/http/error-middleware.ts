// Renders every failure as `{error: {code, message, issues?}}`: our HttpErrors, the validator's
// errors, body-parser errors, and anything unexpected (500, details only in the log).
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isDatabaseUnavailable } from '../db/errors.js';
import { HttpError, serviceUnavailable, type ErrorIssue } from '../errors.js';

type ValidatorIssue = { path?: string; message?: string; errorCode?: string };
type FrameworkError = Error & { status?: number; statusCode?: number; type?: string; errors?: ValidatorIssue[]; expose?: boolean };

const GENERIC: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or invalid bearer token',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request body too large',
  415: 'Unsupported media type',
};

/** `.body.title` (validator) → `/body/title`. */
function issuePath(path: string | undefined): string {
  if (!path) return '/';
  const slashed = path.startsWith('/') ? path : `/${path.replace(/^\./, '').replace(/\./g, '/').replace(/\[(\d+)\]/g, '/$1')}`;
  // The validator says `params` for path parameters; the spec (and our callers) say `path`. A property
  // name with U+0000 (refused by the input rules) is shown escaped, as the input rules show it.
  return slashed.replace(/^\/params\//, '/path/').replaceAll('\u0000', '\\u0000');
}

function fromFramework(error: FrameworkError): HttpError | undefined {
  const status = error.status ?? error.statusCode;
  if (!status || status < 400 || status >= 500) return undefined;
  if (error.type === 'entity.parse.failed') return new HttpError(400, 'The body is not valid JSON');
  if (error.type === 'entity.too.large') return new HttpError(413, GENERIC[413]!);
  if (status === 401) {
    const message = error.errors?.[0]?.message ?? error.message;
    return new HttpError(401, /header required/i.test(message) ? 'Missing bearer token' : message, undefined, { 'WWW-Authenticate': 'Bearer' });
  }
  if (status !== 400) return new HttpError(status, GENERIC[status] ?? 'Request refused');
  const issues: ErrorIssue[] = (error.errors ?? []).map((issue) => ({ path: issuePath(issue.path), message: issue.message ?? 'is invalid' }));
  const message = issues.length ? issues.map((issue) => `${issue.path} ${issue.message}`).join('; ') : GENERIC[400]!;
  return new HttpError(400, message, issues.length ? issues : undefined);
}

/**
 * Database errors that concurrent requests can cause even when each request was checked (a member
 * removed between the check and the insert, two creators racing on a unique name, a serialization
 * failure): a 409 the client can retry, never a 500.
 */
function fromDatabaseRace(error: { code?: unknown }): HttpError | undefined {
  switch (error?.code) {
    case '23503':
      return new HttpError(409, 'Something this request refers to changed or was removed meanwhile; retry');
    case '23505':
      return new HttpError(409, 'This conflicts with an item created meanwhile; retry');
    case '40001':
    case '40P01':
      return new HttpError(409, 'A concurrent change got there first; retry');
    default:
      return undefined;
  }
}

/** How long a client should wait before retrying while the database is away (an embedded restart takes ~1 s). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * A database that cannot be reached or dropped the connection (restart, failover, network): a 503 the
 * client can retry, never a 500. A transaction cut before its COMMIT was rolled back; one cut while
 * committing may have landed (the driver cannot know), which is why clients retry only idempotent calls.
 */
function fromDatabaseOutage(error: unknown): HttpError | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  return serviceUnavailable('The database is unavailable; retry shortly', DATABASE_RETRY_AFTER_SECONDS);
}

export const errorMiddleware: ErrorRequestHandler = (error, req, res, _next) => {
  const known = error instanceof HttpError ? error : (fromFramework(error as FrameworkError) ?? fromDatabaseRace(error) ?? fromDatabaseOutage(error));
  if (known && !(error instanceof HttpError) && known.status === 409) req.log?.warn({ err: error }, 'database race answered 409');
  if (known && !(error instanceof HttpError) && known.status === 503) req.log?.warn({ err: error }, 'database unavailable: answered 503');
  if (res.headersSent) {
    req.log?.error({ err: error }, 'error after the response started');
    res.end();
    return;
  }
  if (!known) {
    req.log?.error({ err: error }, 'unexpected error');
    res.status(500).json({ error: { code: 500, message: 'Internal server error' } });
    return;
  }
  if (known.headers) res.set(known.headers);
  res.status(known.status).json({
    error: { code: known.status, message: known.message, ...(known.issues ? { issues: known.issues } : {}) },
  });
};

export const notFoundMiddleware: RequestHandler = (req, _res, next) => {
  next(new HttpError(404, `No route ${req.method} ${req.path}`));
};
