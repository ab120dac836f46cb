// A change request's head as a head pointer for the revision writer: `change_requests.revision_id`,
// moved by compare-and-swap. Writing needs a live, unlocked space and a `draft` or `open` request;
// whoever writes becomes one of the request's contributors, in the same transaction.
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
      const row = await trx
        .selectFrom('changeRequests as cr')
        .innerJoin('spaces as s', (join) => join.onRef('s.organizationId', '=', 'cr.organizationId').onRef('s.id', '=', 'cr.spaceId'))
        .innerJoin('revisions as r', (join) => join.onRef('r.organizationId', '=', 'cr.organizationId').onRef('r.id', '=', 'cr.revisionId'))
        .select(['cr.revisionId', 'cr.status', 's.editMode', 'r.pagesRoot', 'r.filesRoot', 'r.reusableRoot'])
        .where('cr.organizationId', '=', organizationId)
        .where('cr.id', '=', id)
        .where('cr.spaceId', '=', spaceId)
        .where('s.deletedAt', 'is', null)
        .executeTakeFirst();
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
    async afterMove(trx, _before, _after, _parsing, revisions) {
      await addContributor(trx, organizationId, id, writerId);
      await onMove?.(trx, revisions);
    },
  };
}
