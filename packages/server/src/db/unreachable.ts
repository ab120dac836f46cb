// A database the server or the CLI cannot use at start-up: one sentence naming its address (never the
// password) and what went wrong, instead of a driver's error and a stack.
import type pg from 'pg';
import { StartFailure } from '../start-failure.js';

/** `host:port/database` of a connection URL: what an operator compares with their setup. */
export function databaseAddress(url: string): string {
  try {
    const parsed = new URL(url);
    // A `host` parameter (a Unix socket folder, `?host=/run/postgresql`) overrides the URL's host.
    const host = parsed.searchParams.get('host') || parsed.hostname || 'localhost';
    const database = decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username) || 'postgres';
    return `${host}:${parsed.port || '5432'}/${database}`;
  } catch {
    return '(an unparsable DATABASE_URL)';
  }
}

type ConnectError = Error & { code?: string; errors?: unknown[] };

/** What went wrong, in words: socket errors by their code, PostgreSQL's refusals by its own message. */
export function unreachableReason(cause: unknown): string {
  const error = cause as ConnectError;
  // Node reports a host that resolves to several addresses as an AggregateError of the attempts.
  const first = (error.errors?.[0] as ConnectError | undefined) ?? error;
  switch (first.code ?? error.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is PostgreSQL running and listening on that address?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `the host cannot be reached (${first.code ?? error.code})`;
    case 'ECONNRESET':
      return 'the connection was reset (a PostgreSQL port? TLS required?)';
    case '28P01':
    case '28000':
    case '3D000':
    case '57P03':
    case '53300':
      return error.message; // PostgreSQL's own words: password, pg_hba.conf, database missing, starting up, full
  }
  if (/timeout/i.test(error.message)) return 'no answer within 10 seconds (a firewall, or the wrong host or port?)';
  if (/client password must be a string/.test(error.message)) return 'the server asks for a password and DATABASE_URL has none';
  return error.message;
}

export class DatabaseUnreachableError extends StartFailure {
  constructor(
    readonly address: string,
    cause: unknown,
  ) {
    super(
      `Cannot connect to the database at ${address}: ${unreachableReason(cause)}. Check DATABASE_URL and that the database accepts connections from this host.`,
      { database: address },
      { cause },
    );
    this.name = 'DatabaseUnreachableError';
  }
}

/** Opens (and returns to the pool) one connection, so a database that cannot be used fails with a DatabaseUnreachableError. */
export async function ensureReachable(pool: pg.Pool, url: string): Promise<void> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw new DatabaseUnreachableError(databaseAddress(url), error);
  }
  client.release();
}
