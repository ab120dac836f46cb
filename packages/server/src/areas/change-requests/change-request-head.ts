// A change request's head as a head pointer for the revision writer: `change_requests.revision_id`,
// moved by compare-and-swap. Writing needs a live, unlocked space and a `draft` or `open` request;
// whoever writes becomes one of the request's contributors, in the same transaction.
import { sql } from 'kysely';
import { addContributor, swapChangeRequestHead } from './change-requests.repository.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { HeadPointer, HeadRevisions, Trx } from '../../content/revision-writer.js';

const hexOrNull = (hash: Buffer | null) => (hash ? hash.toString('hex') : null);

/** `onMove` runs in the transaction of each move of the request's head (its event is recorded there). */
export function changeRequestHeadPointer(
  changeRequest: { organizationId: string; spaceId: string; id: string },
  writerId: string,
  onMove?: (trx: Trx, revisions: HeadRevisions) => Promise<void>,
): HeadPointer<true> {
  const { organizationId, spaceId, id } = changeRequest;
  return {
    organizationId,
    spaceId,
    changeRequestId: id,
    async read(trx) {
      // Re-read inside the transaction: the space may have been locked, or the request merged, since.
      const { rows } = await sql<{ revisionId: string; status: string; editMode: string; pagesRoot: Buffer | null; filesRoot: Buffer | null; reusableRoot: Buffer | null }>`
        SELECT cr.revision_id, cr.status, s.edit_mode, r.pages_root, r.files_root, r.reusable_root
        FROM change_requests cr
        JOIN spaces s ON s.organization_id = cr.organization_id AND s.id = cr.space_id
        JOIN revisions r ON r.organization_id = cr.organization_id AND r.id = cr.revision_id
        WHERE cr.organization_id = ${organizationId} AND cr.id = ${id} AND cr.space_id = ${spaceId} AND s.deleted_at IS NULL`.execute(trx);
      const row = rows[0];
      if (!row) throw notFound('Change request');
      if (row.editMode === 'locked') throw forbidden('The space is locked: its content cannot be changed');
      if (row.status !== 'draft' && row.status !== 'open') throw conflict(`The change request is ${row.status}: its content cannot be changed`);
      return {
        revisionId: row.revisionId,
        roots: { pages: hexOrNull(row.pagesRoot), files: hexOrNull(row.filesRoot), reusables: hexOrNull(row.reusableRoot) },
      };
    },
    async swap(trx, from, to) {
      return (await swapChangeRequestHead(trx, organizationId, id, from, to)) ? true : undefined;
    },
    async afterMove(trx, _before, _after, revisions) {
      await addContributor(trx, organizationId, id, writerId);
      await onMove?.(trx, revisions);
    },
  };
}
