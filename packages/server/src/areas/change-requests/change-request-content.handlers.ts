// A change request's content: its head revision, pages and files (its trees, loaded by root hash and
// cached: change-request heads are not materialised), and batches of edits on it.
import type { ChangeRequestAccess } from '../../access/scopes.js';
import { memoryPage } from '../../db/pagination.js';
import { conflict, notFound } from '../../errors.js';
import type { AreaHandlers, HandlerInput } from '../../http/handler.js';
import { changeRequestAppPath, toApiChangeRequest } from './change-request.mapper.js';
import { byName, type ContentContext, loadRevisionContent, loadRevisionState, readPageBody, toApiFile, toApiPage, toApiPages, toApiRevision } from '../content/index.js';
import { isEditable } from './change-requests.service.js';
import { applyChangeRequestChanges } from './change-request-content.service.js';
import { actorOf } from '../events/index.js';

type App = HandlerInput<'getChangeRequestContent'>['app'];

/** How the change request's content is addressed in responses. */
function contentContext(app: App, { space, changeRequest }: ChangeRequestAccess): ContentContext {
  return { urls: app.urls, spaceId: space.id, fileKey: app.keys.fileSignature, pagesAppPath: changeRequestAppPath(space.id, changeRequest.id) };
}

export const changeRequestContentHandlers = {
  async getChangeRequestContent({ access, app }) {
    const content = await loadRevisionContent(app, access.space, access.changeRequest.revisionId);
    return { status: 200, body: toApiRevision(content.revision, content.state, content.reusableBodies, contentContext(app, access)) };
  },

  async applyChangeRequestContentChanges({ caller, access: { space, changeRequest }, body, app }) {
    if (!isEditable(changeRequest.status)) throw conflict(`The change request is ${changeRequest.status}: its content cannot be changed`);
    const applied = await applyChangeRequestChanges(app, space, changeRequest.id, caller.user.id, body.changes, { actor: actorOf(caller, app.urls) });
    return { status: 200, body: { changeRequest: toApiChangeRequest(applied.changeRequest, app.urls), revision: applied.revisionId, refs: applied.refs } };
  },

  async listChangeRequestPages({ access, app }) {
    const state = await loadRevisionState(app, access.space, access.changeRequest.revisionId);
    return { status: 200, body: { pages: toApiPages(state.pages, contentContext(app, access)) } };
  },

  async getChangeRequestPageById({ access, params, query, app }) {
    const { pages } = await loadRevisionState(app, access.space, access.changeRequest.revisionId);
    const entry = pages.pages.get(params.pageId);
    if (!entry) throw notFound('Page');
    const body = await readPageBody(app, access.space.organizationId, entry, query.format ?? 'markdown');
    return { status: 200, body: toApiPage(pages, entry.id, contentContext(app, access), body) };
  },

  async listChangeRequestFiles({ access, query, app }) {
    const { files } = await loadRevisionState(app, access.space, access.changeRequest.revisionId);
    const page = memoryPage([...files.items.values()].sort(byName), {
      keys: [
        { column: 'name', direction: 'asc', value: (file) => file.name },
        { column: 'id', direction: 'asc', value: (file) => file.id },
      ],
      request: query,
      // Like the space's file list, the cursor continues on the current head rather than one revision.
      list: { operation: 'listChangeRequestFiles', within: access.changeRequest.id },
      cursors: app.cursors,
    });
    const ctx = contentContext(app, access);
    return { status: 200, body: { ...page, items: page.items.map((file) => toApiFile(file, ctx)) } };
  },

  async getChangeRequestFileById({ access, params, app }) {
    const { files } = await loadRevisionState(app, access.space, access.changeRequest.revisionId);
    const file = files.items.get(params.fileId);
    if (!file) throw notFound('File');
    return { status: 200, body: toApiFile(file, contentContext(app, access)) };
  },
} satisfies AreaHandlers;
