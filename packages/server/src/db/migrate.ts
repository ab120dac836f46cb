import { Migrator, type Kysely, type MigrationResultSet } from 'kysely';
import { migrations } from './migrations/index.js';

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
