// The space's primary head as a head pointer for the revision writer: `spaces.head_revision_id`, moved
// by compare-and-swap, with the materialised head index and the search index updated in the same transaction.
import type { SpaceRow } from '../access/standing.repository.js';
import { forbidden, notFound } from '../errors.js';
import { moveSearchIndex } from './search/search-index.js';
import { moveHeadIndex } from './head-index.js';
import { readSpaceHead, swapSpaceHead } from './revisions.repository.js';
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
      const row = await readSpaceHead(trx, organizationId, spaceId);
      if (!row) throw notFound('Space');
      if (row.editMode === 'locked') throw forbidden('The space is locked: its content cannot be changed');
      return {
        revisionId: row.headRevisionId,
        roots: { pages: hexOrNull(row.pagesRoot), files: hexOrNull(row.filesRoot), reusables: hexOrNull(row.reusableRoot) },
      };
    },
    async swap(trx, from, to) {
      const row = await swapSpaceHead(trx, organizationId, spaceId, from, to);
      return row as SpaceRow | undefined;
    },
    async afterMove(trx, before, after, parsing) {
      await moveHeadIndex(trx, organizationId, spaceId, before, after);
      await moveSearchIndex(trx, parsing.pool, organizationId, spaceId, before.pages, after.pages);
    },
  };
}
