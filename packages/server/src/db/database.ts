import { CamelCasePlugin, Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Logger } from '../logger.js';
import type { DB } from './schema.js';

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

export function createPool(connectionString: string, max: number, log: Logger): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, types, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 });
  // An idle client losing its connection emits here; without a listener it would crash the process.
  pool.on('error', (error) => log.error({ err: error }, 'idle database client error'));
  return pool;
}

export function createDatabase(pool: pg.Pool): Database {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
}
