import { learnWordsOf } from '../../content/search/index.repository.js';
import { searchIndexBackfillWorker } from '../../content/search/backfill.js';
import { defineArea } from '../area.js';
import { searchHandlers } from './search.handlers.js';

// A copied space has the same head content: its rows are the original's, not tokenised again.
const HEAD_ROWS = { transfer: 'moves', duplicate: { copied: { why: 'The copy has the same head content: its rows are the original’s, not tokenised again' } } } as const;

/**
 * Search: the sections of every space's head (kept in step with head moves by the content engine,
 * content/search/search-index.ts), the words each organization's content holds, and which tree each
 * space's rows reflect. Rows go with their space by cascade (purge) and their organization (words).
 */
export const searchArea = defineArea({
  name: 'search',
  handlers: searchHandlers,
  tables: {
    searchSections: HEAD_ROWS, searchTitles: HEAD_ROWS, searchIndexHeads: HEAD_ROWS,
    searchWords: { stays: 'The words of all an organization’s content (typo suggestions): the target learns the moved content’s (a transfer step)' },
  },
  steps: {
    transfer: [async (trx, s) => learnWordsOf(trx, { organizationId: s.from, spaceIds: s.spaceIds }, { organizationId: s.to })],
  },
  jobs: (context) => [searchIndexBackfillWorker(context.db, context.caches, context.parsing)],
});
