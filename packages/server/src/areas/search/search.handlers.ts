// Space and organization search. Results page by offset inside the project's signed cursor
// (db/cursor.ts), which also keeps the pass that found the first window (exact or fuzzy) for the next ones.
import { memberViewer } from '../../access/items.js';
import { searchPages, searchSpaces, type SearchMode } from '../../content/search/search.js';
import { DEFAULT_LIMIT } from '../../db/pagination.js';
import type { CursorCodec } from '../../db/cursor.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiSearchPage, toApiSearchSpace } from './search.mapper.js';
import { readableSpacesOf } from './search-scope.js';

type Window = { offset: number; limit: number; mode: SearchMode | undefined };

function windowOf(cursors: CursorCodec, queryKey: string, query: { page?: string; limit?: number }): Window {
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!query.page) return { offset: 0, limit, mode: undefined };
  const { keys, offset } = cursors.decode(queryKey, query.page);
  return { offset, limit, mode: keys[0] === 'fuzzy' ? 'fuzzy' : 'exact' };
}

function nextOf(cursors: CursorCodec, queryKey: string, window: Window, mode: SearchMode, total: number) {
  const offset = window.offset + window.limit;
  return offset < total ? { next: { page: cursors.encode(queryKey, [mode], offset) } } : {};
}

export const searchHandlers = {
  async searchSpaceContent({ access: { space }, query, app }) {
    const queryKey = JSON.stringify(['searchSpaceContent', space.id, [query.query]]);
    const window = windowOf(app.cursors, queryKey, query);
    const scope = { kind: 'spaces' as const, spaces: [{ organizationId: space.organizationId, spaceId: space.id }] };
    const found = await searchPages(app.db, scope, query.query, window, window.mode);
    return {
      status: 200,
      body: {
        items: found.pages.map((page) => toApiSearchPage(page, app.urls)),
        count: found.total,
        ...nextOf(app.cursors, queryKey, window, found.mode, found.total),
      },
    };
  },

  async searchOrganizationContent({ caller, access: { organization }, query, app }) {
    // A member (the declaration checked it): their viewer decides which spaces the query covers.
    const viewer = (await memberViewer(app, organization.id, caller.user.id))!;
    const queryKey = JSON.stringify(['searchOrganizationContent', organization.id, [query.query]]);
    const window = windowOf(app.cursors, queryKey, query);
    const found = await searchSpaces(app.db, readableSpacesOf(viewer), query.query, window, window.mode);
    return {
      status: 200,
      body: {
        items: found.spaces.map((space) => toApiSearchSpace(space, app.urls)),
        count: found.total,
        ...nextOf(app.cursors, queryKey, window, found.mode, found.total),
      },
    };
  },
} satisfies AreaHandlers;
