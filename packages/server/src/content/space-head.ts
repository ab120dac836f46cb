// The space's primary head as a head pointer for the revision writer: `spaces.head_revision_id`, moved
// by compare-and-swap, with the materialised head index updated in the same transaction.
import { sql } from 'kysely';
import type { SpaceRow } from '../access/standing.repository.js';
import { forbidden, notFound } from '../errors.js';
import { moveHeadIndex } from './head-index.js';
import type { HeadPointer } from './revision-writer.js';

const hexOrNull = (hash: Buffer | null) => (hash ? hash.toString('hex') : null);

export function spaceHeadPointer(space: { organizationId: string; id: string }): HeadPointer<SpaceRow> {
  const { organizationId, id: spaceId } = space;
  return {
    organizationId,
    spaceId,
    changeRequestId: null,
    async read(trx) {
      // Re-read inside the transaction: the space may have been deleted or locked since access was checked.
      const { rows } = await sql<{ headRevisionId: string; editMode: string; pagesRoot: Buffer | null; filesRoot: Buffer | null; reusableRoot: Buffer | null }>`
        SELECT s.head_revision_id, s.edit_mode, r.pages_root, r.files_root, r.reusable_root
        FROM spaces s JOIN revisions r ON r.organization_id = s.organization_id AND r.id = s.head_revision_id
        WHERE s.organization_id = ${organizationId} AND s.id = ${spaceId} AND s.deleted_at IS NULL`.execute(trx);
      const row = rows[0];
      if (!row) throw notFound('Space');
      if (row.editMode === 'locked') throw forbidden('The space is locked: its content cannot be changed');
      return {
        revisionId: row.headRevisionId,
        roots: { pages: hexOrNull(row.pagesRoot), files: hexOrNull(row.filesRoot), reusables: hexOrNull(row.reusableRoot) },
      };
    },
    async swap(trx, from, to) {
      const row = await trx
        .updateTable('spaces')
        .set({ headRevisionId: to, updatedAt: sql<Date>`now()` })
        .where('organizationId', '=', organizationId)
        .where('id', '=', spaceId)
        .where('headRevisionId', '=', from)
        .where('deletedAt', 'is', null)
        .returningAll()
        .executeTakeFirst();
      return row as SpaceRow | undefined;
    },
    async afterMove(trx, before, after) {
      await moveHeadIndex(trx, organizationId, spaceId, before, after);
    },
  };
}
