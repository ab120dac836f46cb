/** True when `error` is PostgreSQL's unique violation (optionally of the named constraint). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string } | undefined;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

/** True when `error` is PostgreSQL's foreign-key violation of the named constraint. */
export function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string } | undefined;
  return e?.code === '23503' && e.constraint === constraint;
}

// SQLSTATEs that mean "the server is going away or not there yet", not "this statement is wrong":
// class 08 connection exceptions, 57P01 admin_shutdown (pg_terminate_backend, a fast shutdown, the postmaster died), 57P02
// crash_shutdown, 57P03 cannot_connect_now (starting up, in recovery), 53300 too_many_connections.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
// Socket errors of the connection itself.
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// What pg and pg-pool throw, without a code, for a connection that broke, timed out or was ended.
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Cannot use a pool after calling end on the pool)/;

/**
 * True when `error` says the database cannot be reached or dropped the connection (restarting, killed,
 * network gone), as opposed to a failure of the statement itself. The one place that knows these
 * errors: the HTTP layer answers them with 503 and `Retry-After`, background work retries later.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const e = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code) || UNAVAILABLE_ERRNOS.has(e.code))) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  // Node reports a failed connect to several addresses as an AggregateError; wrappers keep a cause.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return e.cause !== undefined && isDatabaseUnavailable(e.cause, depth + 1);
}
