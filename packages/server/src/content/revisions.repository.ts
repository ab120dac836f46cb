import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../db/database.js';
import type { RevisionsTable } from '../db/schema.js';
import { sql } from 'kysely';

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

/** The space's head revision and its roots, with the space's edit mode (live spaces only). */
export async function readSpaceHead(trx: Executor, organizationId: string, spaceId: string) {
  const { rows } = await sql<{ headRevisionId: string; editMode: string; pagesRoot: Buffer | null; filesRoot: Buffer | null; reusableRoot: Buffer | null }>`
    SELECT s.head_revision_id, s.edit_mode, r.pages_root, r.files_root, r.reusable_root
    FROM spaces s JOIN revisions r ON r.organization_id = s.organization_id AND r.id = s.head_revision_id
    WHERE s.organization_id = ${organizationId} AND s.id = ${spaceId} AND s.deleted_at IS NULL`.execute(trx);
  return rows[0];
}

/** Moves the space's head from `from` to `to` (compare-and-swap); the updated space, or undefined when it moved meanwhile. */
export async function swapSpaceHead(trx: Executor, organizationId: string, spaceId: string, from: string, to: string) {
  return trx
    .updateTable('spaces')
    .set({ headRevisionId: to, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', spaceId)
    .where('headRevisionId', '=', from)
    .where('deletedAt', 'is', null)
    .returningAll()
    .executeTakeFirst();
}
