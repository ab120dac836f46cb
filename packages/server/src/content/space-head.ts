// The space's primary head as a head pointer for the revision writer: `spaces.head_revision_id`, moved
// by compare-and-swap, with the materialised head index and the search index updated in the same
// transaction — and whatever the writer's caller records of the move (its event), in it too.
import type { SpaceRow } from '../access/standing.repository.js';
import { forbidden, notFound } from '../errors.js';
import { moveSearchIndex } from './search/search-index.js';
import { moveHeadIndex } from './head-index.js';
import { readSpaceHead, swapSpaceHead } from './revisions.repository.js';
import type { PageDiff } from './diff.js';
import type { ContentState } from './model.js';
import type { HeadPointer, HeadRevisions, Trx } from './revision-writer.js';

/** A move of the space's head, with the pages that differ (from the head index's diff). */
export type SpaceHeadMove = HeadRevisions & { before: ContentState; after: ContentState; pages: readonly PageDiff[] };

/** Runs in the transaction of each move of the space's head (areas record their event). */
export type SpaceHeadListener = (trx: Trx, move: SpaceHeadMove) => Promise<void>;

const hexOrNull = (hash: Buffer | null) => (hash ? hash.toString('hex') : null);

export function spaceHeadPointer(space: { organizationId: string; id: string }, onMove?: SpaceHeadListener): HeadPointer<SpaceRow> {
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
    async afterMove(trx, before, after, parsing, revisions) {
      const pages = await moveHeadIndex(trx, organizationId, spaceId, before, after);
      await moveSearchIndex(trx, parsing.pool, organizationId, spaceId, before.pages, after.pages);
      await onMove?.(trx, { ...revisions, before, after, pages });
    },
  };
}
