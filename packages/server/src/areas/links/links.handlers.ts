// Links of a space's head or of a change request, one page's links, and a file's backlinks. The lists
// come from a revision's content (not rows), so they page in memory with the list helper's cursors.
import { memoryPage, type ListKey, type PageRequest } from '../../db/pagination.js';
import type { LinkItem, LinkStats } from '../../content/links/report.js';
import type { CursorCodec } from '../../db/cursor.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiBacklink, toApiLink } from './links.mapper.js';
import { changeRequestContext, changeRequestLinkReport, fileBacklinks, headContext, headLinkReport, withStatus, type Backlink, type RevisionContext } from './links.service.js';

function linkPage(cursors: CursorCodec, list: ListKey, items: LinkItem[], stats: LinkStats, request: PageRequest) {
  const page = memoryPage(items, {
    keys: [
      { column: 'order', direction: 'asc', value: (item) => item.order },
      { column: 'key', direction: 'asc', value: (item) => item.key },
    ],
    request,
    list,
    cursors,
  });
  return { ...page, items: page.items.map(toApiLink), stats };
}

function backlinkPage(cursors: CursorCodec, list: ListKey, context: RevisionContext, fileId: string, backlinks: Backlink[], request: PageRequest) {
  const page = memoryPage(backlinks, {
    keys: [
      { column: 'order', direction: 'asc', value: (backlink) => backlink.order },
      { column: 'page', direction: 'asc', value: (backlink) => backlink.page },
    ],
    request,
    list,
    cursors,
  });
  const where = { organizationId: context.space.organizationId, spaceId: context.space.id, revisionId: context.revisionId, fileId };
  return { ...page, items: page.items.map((backlink) => toApiBacklink(backlink, where)) };
}

export const linksHandlers = {
  async listSpaceLinks({ access: { space }, query, app }) {
    const report = await headLinkReport(app, space);
    return { status: 200, body: linkPage(app.cursors, { operation: 'listSpaceLinks', within: space.id, filters: [query.status] }, withStatus(report.items, query.status), report.stats, query) };
  },

  async listSpacePageLinks({ access: { space }, params, query, app }) {
    const report = await headLinkReport(app, space, params.pageId);
    const list = { operation: 'listSpacePageLinks', within: `${space.id}/${params.pageId}`, filters: [query.status] };
    return { status: 200, body: linkPage(app.cursors, list, withStatus(report.items, query.status), report.stats, query) };
  },

  async listSpaceFileBacklinks({ access: { space }, params, query, app }) {
    const context = await headContext(app, space);
    const backlinks = await fileBacklinks(app, context, params.fileId);
    return { status: 200, body: backlinkPage(app.cursors, { operation: 'listSpaceFileBacklinks', within: `${space.id}/${params.fileId}` }, context, params.fileId, backlinks, query) };
  },

  async listChangeRequestLinks({ access: { space, changeRequest }, query, app }) {
    const report = await changeRequestLinkReport(app, space, changeRequest);
    const list = { operation: 'listChangeRequestLinks', within: changeRequest.id, filters: [query.status] };
    return { status: 200, body: linkPage(app.cursors, list, withStatus(report.items, query.status), report.stats, query) };
  },

  async listChangeRequestPageLinks({ access: { space, changeRequest }, params, query, app }) {
    const report = await changeRequestLinkReport(app, space, changeRequest, params.pageId);
    const list = { operation: 'listChangeRequestPageLinks', within: `${changeRequest.id}/${params.pageId}`, filters: [query.status] };
    return { status: 200, body: linkPage(app.cursors, list, withStatus(report.items, query.status), report.stats, query) };
  },

  async listChangeRequestFileBacklinks({ access: { space, changeRequest }, params, query, app }) {
    const context = await changeRequestContext(app, space, changeRequest);
    const backlinks = await fileBacklinks(app, context, params.fileId);
    const list = { operation: 'listChangeRequestFileBacklinks', within: `${changeRequest.id}/${params.fileId}` };
    return { status: 200, body: backlinkPage(app.cursors, list, context, params.fileId, backlinks, query) };
  },
} satisfies AreaHandlers;
