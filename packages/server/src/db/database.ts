import { createHash } from 'node:crypto';
import { CamelCasePlugin, Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { DatabaseAvailability } from './availability.js';
import type { DB } from './schema.js';
import { newShapeSettings, type ShapeSettings } from './query-shapes.js';
import { databaseAddress } from './unreachable.js';

export type Database = Kysely<DB>;
/** Either the database or an open transaction: repositories accept both. */
export type Executor = Kysely<DB> | Transaction<DB>;

// bigint (int8) as number: our counts and sequences stay far below 2^53.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * Marks a query to run as a named prepared statement: PostgreSQL then parses it once per connection
 * and, after a few executions, reuses a generic plan. For hot queries whose planning costs more than
 * their execution (the access resolver's recursive CTEs plan in ~2 ms and run in ~0.3 ms). Put it in
 * the query text: sql`${PREPARED} WITH …`.
 */
export const PREPARED_MARKER = '/* @prepared */';
export const PREPARED = sql.raw(PREPARED_MARKER);

const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `cw_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A pg client that runs marked queries as named prepared statements (see PREPARED). A statement
 * prepared before a migration changed a table it reads fails with "cached plan must not change result
 * type" (a rolling deploy): the query is then retried unprepared, and this connection stops preparing.
 */
class PreparingClient extends pg.Client {
  private preparing = true;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's query() has a dozen overloads; this override forwards them all
  override query(config: unknown, values?: unknown, callback?: unknown): any {
    const plainQuery = () => (super.query as (...args: unknown[]) => unknown)(config, values, callback);
    if (!this.preparing || callback !== undefined || typeof config !== 'string' || !config.includes(PREPARED_MARKER) || !Array.isArray(values)) {
      return plainQuery();
    }
    return (super.query({ name: statementName(config), text: config, values } as never) as Promise<unknown>).catch((error: Error) => {
      if (!/cached plan must not change result type/.test(error.message)) throw error;
      this.preparing = false;
      return plainQuery();
    });
  }
}

/**
 * A pool whose connections report to `availability` (one given to every pool of a server, so an outage
 * is logged once): each connection made ends an outage, each failed or broken one for a reason that
 * means the database is away starts one or counts in it.
 */
export function createPool(connectionString: string, max: number, log: Logger, availability = new DatabaseAvailability(log, databaseAddress(connectionString))): pg.Pool {
  /* eslint-disable @typescript-eslint/no-explicit-any -- pg's connect() has a callback form (pg-pool's) and a promise form */
  class ReportingClient extends PreparingClient {
    override connect(callback?: (error: any, client?: any) => void): any {
      const attemptedAt = Date.now();
      const report = (error: Error | null | undefined) => {
        if (!error) availability.succeeded(attemptedAt);
        else availability.failed(error, 'pool', attemptedAt);
      };
      if (callback) return super.connect(((error: Error | null, ...rest: unknown[]) => (report(error), callback(error, ...rest))) as (error: Error) => void);
      return super.connect().then(
        (client) => (report(undefined), client),
        (error: Error) => {
          report(error);
          throw error;
        },
      );
    }
  }
  /* eslint-enable @typescript-eslint/no-explicit-any */
  const pool = new pg.Pool({
    connectionString,
    max,
    types,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    Client: ReportingClient as typeof pg.Client,
  });
  // A client whose connection breaks (the server restarted, pg_terminate_backend, the network) emits
  // `error`; an `error` event without a listener kills the process. pg-pool listens only while a client
  // is idle: a client checked out (inside a transaction, between two statements) needs its own. Its
  // pending and later queries fail with the connection error, which the HTTP layer answers with 503,
  // and the pool discards it on release (it is no longer queryable).
  pool.on('connect', (client) => {
    const connectedAt = Date.now();
    client.on('error', (error) => {
      if (!availability.failed(error, 'pool', connectedAt)) log.warn({ err: error }, 'database connection lost');
    });
  });
  // Idle clients' errors also reach the pool: already reported by the client's listener above.
  pool.on('error', () => {});
  return pool;
}

/**
 * `db_pool_connections{pool,state="in_use"|"idle"}` and `db_pool_waiting{pool}` (queries waiting for a
 * connection: the pool is too small, or the database slow), read from `pool` at each scrape.
 */
export function registerPoolMetrics(metrics: Metrics, name: string, pool: pg.Pool): void {
  metrics.gauge({
    name: 'db_pool_connections',
    help: 'Database connections of this instance by pool and state (in_use, idle)',
    labelNames: ['pool', 'state'],
    collect() {
      this.set({ pool: name, state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ pool: name, state: 'idle' }, pool.idleCount);
    },
  });
  metrics.gauge({
    name: 'db_pool_waiting',
    help: 'Queries of this instance waiting for a database connection, by pool',
    labelNames: ['pool'],
    collect() {
      this.set({ pool: name }, pool.waitingCount);
    },
  });
  metrics.gauge({
    name: 'db_pool_max_connections',
    help: 'The most connections each pool of this instance opens (DB_POOL_SIZE for requests)',
    labelNames: ['pool'],
    collect() {
      this.set({ pool: name }, pool.options.max);
    },
  });
}

/**
 * Runs `work` in a transaction: a new one on the database, or the caller's when `db` already is one —
 * so a service taking an Executor can be composed into a larger transaction by its caller.
 */
export function inTransaction<T>(db: Executor, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<DB>) : db.transaction().execute(work);
}

/** Kysely's test for the values whose keys it camel-cases too (jsonb objects): plain objects only. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Object.prototype.toString.call(value) !== '[object Object]') return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

/**
 * Kysely's CamelCasePlugin with a cheaper row mapping (hot lists map thousands of columns a second):
 * the same keys and values, but one loop over the row instead of a `reduce` that tests every value
 * (dates and strings included) for nested objects. Keys are camel-cased by the plugin's own (memoized)
 * mapper, and nested plain objects and arrays of them are mapped as the plugin maps them.
 */
class RowMappingCamelCasePlugin extends CamelCasePlugin {
  constructor(
    /** The database's queries compiled once per shape (db/query-shapes.ts): they hold for these plugins. */
    readonly shapeSettings: ShapeSettings,
  ) {
    super();
  }

  protected override mapRow(row: Record<string, unknown>): Record<string, unknown> {
    const mapped: Record<string, unknown> = {};
    for (const key in row) {
      let value = row[key];
      if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
        if (Array.isArray(value)) value = value.map((item) => (isPlainObject(item) ? this.mapRow(item) : item));
        else if (isPlainObject(value)) value = this.mapRow(value);
      }
      mapped[this.camelCase(key)] = value;
    }
    return mapped;
  }
}

/** `verifyQueryShapes`: check every query compiled once per shape against its ordinary compilation (tests). */
export function createDatabase(pool: pg.Pool, options: { verifyQueryShapes?: boolean } = {}): Database {
  const plugin = new RowMappingCamelCasePlugin(newShapeSettings(options.verifyQueryShapes ?? false));
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [plugin] });
}
