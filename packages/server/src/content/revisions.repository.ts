import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../db/database.js';
import type { RevisionsTable } from '../db/schema.js';

export type RevisionRow = Selectable<RevisionsTable>;

export async function insertRevision(db: Executor, values: Insertable<RevisionsTable>): Promise<void> {
  await db.insertInto('revisions').values(values).execute();
}

/** A revision of the space (any line: primary or change request). */
export async function findSpaceRevision(db: Executor, organizationId: string, spaceId: string, revisionId: string): Promise<RevisionRow | undefined> {
  return db
    .selectFrom('revisions')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', '=', revisionId)
    .where('spaceId', '=', spaceId)
    .executeTakeFirst();
}
