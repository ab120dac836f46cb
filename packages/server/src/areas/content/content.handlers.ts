// Space content: the head revision, its pages and files, past revisions, and direct edits.
// `metadata` and `computed` are accepted and change nothing yet: no content is synchronised with git
// and none is computed (docs/decisions.md, Content store).
import type { SpaceRow } from '../../access/standing.repository.js';
import { findHeadFile, findHeadPageIdByPath, headFilesQuery, type HeadFileRow } from '../../content/head-index.repository.js';
import { keysetPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers, HandlerInput } from '../../http/handler.js';
import { toApiFile, toApiPage, toApiPages, toApiRevision, type ContentContext } from './content.mapper.js';
import { toApiSpace } from '../spaces/index.js';
import type { FileEntry } from '../../content/model.js';
import { applySpaceChanges, loadHeadPages, loadRevisionContent, readPageBody } from './space-content.service.js';
import { publishedSpaceAddress } from '../../publication/space-addresses.js';
import { actorOf } from '../events/index.js';

type App = HandlerInput<'getSpaceContent'>['app'];

function contentContext(app: App, space: SpaceRow): ContentContext {
  return { urls: app.urls, spaceId: space.id, fileKey: app.keys.fileSignature };
}

function fileFromHeadRow(row: Omit<HeadFileRow, 'blobHash'> & { blobHash: Buffer }): FileEntry {
  return {
    id: row.fileId,
    name: row.name,
    contentType: row.contentType,
    size: row.size,
    ...(row.width !== null && row.height !== null ? { dimensions: { width: row.width, height: row.height } } : {}),
    blobHash: row.blobHash.toString('hex'),
  };
}

/** A head page with its subtree and its own body. */
async function headPage(app: App, space: SpaceRow, pageId: string | undefined, format: 'markdown' | 'document') {
  const tree = await loadHeadPages(app, space);
  const entry = pageId === undefined ? undefined : tree.pages.get(pageId);
  if (!entry) throw notFound('Page');
  const body = await readPageBody(app, space.organizationId, entry, format);
  return toApiPage(tree, entry.id, contentContext(app, space), body);
}

export const contentHandlers = {
  async getSpaceContent({ access: { space }, app }) {
    const content = await loadRevisionContent(app, space, space.headRevisionId);
    return { status: 200, body: toApiRevision(content.revision, content.state, content.reusableBodies, contentContext(app, space)) };
  },

  async applySpaceContentChanges({ caller, access: { space, role }, body, app }) {
    const applied = await applySpaceChanges(app, space, caller.user.id, body.changes, { actor: actorOf(caller, app.urls) });
    const published = await publishedSpaceAddress(app.db, app.urls, applied.space);
    return { status: 200, body: { space: toApiSpace(applied.space, role, app.urls, published), revision: applied.revisionId, refs: applied.refs } };
  },

  async listSpacePages({ access: { space }, app }) {
    const tree = await loadHeadPages(app, space);
    return { status: 200, body: { pages: toApiPages(tree, contentContext(app, space)) } };
  },

  async getSpacePageById({ access: { space }, params, query, app }) {
    return { status: 200, body: await headPage(app, space, params.pageId, query.format ?? 'markdown') };
  },

  async getSpacePageByPath({ access: { space }, params, query, app }) {
    const pageId = await findHeadPageIdByPath(app.db, space.organizationId, space.id, params.pagePath);
    return { status: 200, body: await headPage(app, space, pageId, query.format ?? 'markdown') };
  },

  async listSpaceFiles({ access: { space }, query, app }) {
    const page = await keysetPage(app.db, headFilesQuery(app.db, space.organizationId, space.id), {
      keys: [
        { column: 'spaceHeadFiles.name', direction: 'asc', value: (row) => row.name },
        { column: 'spaceHeadFiles.fileId', direction: 'asc', value: (row) => row.fileId },
      ],
      request: query,
      list: { operation: 'listSpaceFiles', within: space.id },
      cursors: app.cursors,
    });
    const ctx = contentContext(app, space);
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiFile(fileFromHeadRow(row), ctx)) } };
  },

  async getSpaceFileById({ access: { space }, params, app }) {
    const row = await findHeadFile(app.db, space.organizationId, space.id, params.fileId);
    if (!row) throw notFound('File');
    return { status: 200, body: toApiFile(fileFromHeadRow(row), contentContext(app, space)) };
  },

  async getSpaceRevisionById({ access: { space }, params, app }) {
    const content = await loadRevisionContent(app, space, params.revisionId);
    return { status: 200, body: toApiRevision(content.revision, content.state, content.reusableBodies, contentContext(app, space)) };
  },
} satisfies AreaHandlers;
