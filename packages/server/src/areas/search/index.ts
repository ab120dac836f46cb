import { copySearchRows } from '../../content/search/index.repository.js';
import { searchIndexBackfillWorker } from '../../content/search/backfill.js';
import { defineArea } from '../area.js';
import { searchHandlers } from './search.handlers.js';

/**
 * Search: the sections of every space's head (kept in step with head moves by the content engine,
 * content/search/search-index.ts), the words each organization's content holds, and which tree each
 * space's rows reflect. Rows go with their space by cascade (purge) and their organization (words).
 */
export const searchArea = defineArea({
  name: 'search',
  handlers: searchHandlers,
  tables: ['search_sections', 'search_titles', 'search_index_heads', 'search_words'],
  transfer: [async (trx, s) => copySearchRows(trx, { organizationId: s.from, spaceIds: s.spaceIds }, { organizationId: s.to })],
  purge: 'none',
  // The copy has the same head content: its rows are the original's, not re-tokenised.
  duplicate: [
    async (trx, { organizationId, sourceSpaceId, copySpaceId }) =>
      copySearchRows(trx, { organizationId, spaceIds: [sourceSpaceId] }, { organizationId, spaceId: copySpaceId }),
  ],
  jobs: (context) => [searchIndexBackfillWorker(context.db, context.caches)],
});
