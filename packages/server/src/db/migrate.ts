// The database's migrations: run by the server as it starts, by the CLI, and by the tests' template.
// Kept apart from server.ts, so the tests' global setup, `db:types` and the benches migrate without
// loading the whole server (the CLI takes it through server.ts, for the area registry).
import { Kysely, Migrator, PostgresDialect, type MigrationResultSet } from 'kysely';
import type { Logger } from '../logger.js';
import { DatabaseAvailability } from './availability.js';
import { createPool } from './database.js';
import { migrations } from './migrations/index.js';
import { databaseAddress, ensureReachable } from './unreachable.js';

/** Runs every pending migration; throws (naming the failed one) when one fails. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against whatever schema the database has so far
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  // Unordered: migrations from branches merged in any order still run (each exactly once).
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    // No migration ran (the lock or the bookkeeping tables failed): say so rather than name none.
    const what = failed ? `Migration ${failed} failed` : 'Could not start the migrations';
    throw new Error(`${what}: ${String(result.error)}`, { cause: result.error });
  }
  return result;
}

/** Migrates the database at `url` to the latest migration, logging each one run. */
export async function migrate(url: string, log: Logger): Promise<void> {
  // A database away at this point fails the start (or the command) with its own sentence: no outage warning too.
  const pool = createPool(url, 1, log, new DatabaseAvailability(log.child({}, { level: 'silent' }), databaseAddress(url)));
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  try {
    // The first connection of a start: a database that cannot be used is named here, not as a failed migration.
    await ensureReachable(pool, url);
    const result = await migrateToLatest(db);
    for (const r of result.results ?? []) log.info({ migration: r.migrationName }, 'migrated');
  } finally {
    await db.destroy();
  }
}
