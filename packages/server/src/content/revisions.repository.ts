import type { Insertable, Selectable } from 'kysely';
import type { Caches } from '../caches.js';
import type { Executor } from '../db/database.js';
import type { RevisionsTable } from '../db/schema.js';
import { sql } from 'kysely';

export type RevisionRow = Selectable<RevisionsTable>;

export async function insertRevision(db: Executor, values: Insertable<RevisionsTable>): Promise<void> {
  await db.insertInto('revisions').values(values).execute();
}

/**
 * A revision of the space (any line: primary or change request). Rows read outside a transaction
 * (committed) are kept in the `revisions` cache (caches.ts) by organization, space and id: a revision is
 * never updated, and deleted only with its space (a purge, or a transfer's originals, whose copies in
 * the new organization are the same row), so a space page read takes no query for its head revision.
 */
export async function findSpaceRevision(db: Executor, caches: Pick<Caches, 'revisions'>, organizationId: string, spaceId: string, revisionId: string): Promise<RevisionRow | undefined> {
  const committedRevisions = caches.revisions;
  const key = `${organizationId}:${spaceId}:${revisionId}`;
  const cached = db.isTransaction ? undefined : committedRevisions.get(key);
  if (cached) return cached;
  const revision = await db
    .selectFrom('revisions')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', '=', revisionId)
    .where('spaceId', '=', spaceId)
    .executeTakeFirst();
  if (revision && !db.isTransaction) committedRevisions.set(key, revision);
  return revision;
}

/** The space's head revision and its roots, with the space's edit mode (live spaces only). */
export async function readSpaceHead(trx: Executor, organizationId: string, spaceId: string) {
  return trx
    .selectFrom('spaces as s')
    .innerJoin('revisions as r', (join) => join.onRef('r.organizationId', '=', 's.organizationId').onRef('r.id', '=', 's.headRevisionId'))
    .select(['s.headRevisionId', 's.editMode', 'r.pagesRoot', 'r.filesRoot', 'r.reusableRoot'])
    .where('s.organizationId', '=', organizationId)
    .where('s.id', '=', spaceId)
    .where('s.deletedAt', 'is', null)
    .executeTakeFirst();
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
