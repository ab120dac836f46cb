// Renders every failure as `{error: {code, message, issues?}}`: our HttpErrors, the validator's
// errors, body-parser errors, and anything unexpected (500, details only in the log).
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isDatabaseUnavailable } from '../db/errors.js';
import { HttpError, serviceUnavailable, type ErrorIssue } from '../errors.js';
import { hasPendingBody } from './access-gate.js';

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
 * The constraints a concurrent request can legitimately break even though this one was checked (a
 * member removed between the check and the insert, a parent collection deleted meanwhile), each with
 * the conflict it means. The areas name them (their descriptors' `conflicts`): any other constraint
 * violation is a bug, logged and answered 500.
 */
export type KnownConflicts = Readonly<Record<string, string>>;

function fromDatabaseRace(error: { code?: unknown; constraint?: unknown }, conflicts: KnownConflicts): HttpError | undefined {
  switch (error?.code) {
    case '23503':
    case '23505': {
      const message = typeof error.constraint === 'string' ? conflicts[error.constraint] : undefined;
      return message === undefined ? undefined : new HttpError(409, `${message}; retry`);
    }
    // Serialization failures and deadlocks: the database itself says a concurrent change won.
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

/** Renders every failure; `conflicts` are the constraint violations that mean a race (see KnownConflicts). */
export const createErrorMiddleware = (conflicts: KnownConflicts): ErrorRequestHandler => (error, req, res, _next) => {
  const known = error instanceof HttpError ? error : (fromFramework(error as FrameworkError) ?? fromDatabaseRace(error, conflicts) ?? fromDatabaseOutage(error));
  if (known && !(error instanceof HttpError) && known.status === 409) req.log?.warn({ err: error }, 'database race answered 409');
  // The outage itself is logged once, when it starts and when it ends (db/availability.ts): each request it fails, only at debug.
  if (known && !(error instanceof HttpError) && known.status === 503) req.log?.debug({ err: error }, 'database unavailable: answered 503');
  // Refused before its body was read (a 401, 404, 413 or 429 on an upload): close rather than read it.
  if (req.body === undefined && hasPendingBody(req) && !res.headersSent) res.setHeader('Connection', 'close');
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
