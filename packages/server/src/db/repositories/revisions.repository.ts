import type { Executor } from '../database.js';
import type { RevisionsTable } from '../schema.js';
import type { Insertable } from 'kysely';

export async function insertRevision(db: Executor, values: Insertable<RevisionsTable>): Promise<void> {
  await db.insertInto('revisions').values(values).execute();
}
