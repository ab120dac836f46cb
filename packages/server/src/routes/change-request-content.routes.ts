// A change request's content: its head revision, pages and files (its trees, loaded by root hash and
// cached: change-request heads are not materialised), and batches of edits on it.
import { requireSpace } from '../auth/access.js';
import type { Caller } from '../auth/authenticate.js';
import type { SpaceRow } from '../db/repositories/access.repository.js';
import type { ChangeRequestRow } from '../db/repositories/change-requests.repository.js';
import { memoryPage } from '../db/pagination.js';
import { conflict, forbidden, notFound } from '../http/errors.js';
import type { AreaHandlers, HandlerInput } from '../http/handler.js';
import { changeRequestAppPath, toApiChangeRequest } from '../mappers/change-request.mapper.js';
import { byName, toApiFile, toApiPage, toApiPages, toApiRevision, type ContentContext } from '../mappers/content.mapper.js';
import { isEditable, requireChangeRequest } from '../services/change-requests.service.js';
import { applyChangeRequestChanges } from '../services/content/change-request-content.service.js';
import { loadRevisionContent, loadRevisionState, readPageBody } from '../services/content/space-content.service.js';

type App = HandlerInput<'getChangeRequestContent'>['app'];
type Target = { space: SpaceRow; changeRequest: ChangeRequestRow; ctx: ContentContext };

/** The change request the path names, readable by the caller, and how its content is addressed. */
async function readTarget(app: App, caller: Caller, params: { spaceId: string; changeRequestId: string }): Promise<Target> {
  const { space } = await requireSpace(app.db, caller, params.spaceId, 'read');
  const changeRequest = await requireChangeRequest(app.db, space, params.changeRequestId);
  const ctx = { urls: app.urls, spaceId: space.id, fileKey: app.keys.fileSignature, pagesAppPath: changeRequestAppPath(space.id, changeRequest.id) };
  return { space, changeRequest, ctx };
}

export const changeRequestContentHandlers = {
  async getChangeRequestContent({ caller, params, app }) {
    const { space, changeRequest, ctx } = await readTarget(app, caller, params);
    const content = await loadRevisionContent(app.db, space, changeRequest.revisionId);
    return { status: 200, body: toApiRevision(content.revision, content.state, content.reusableBodies, ctx) };
  },

  async applyChangeRequestContentChanges({ caller, params, body, app }) {
    const { space } = await requireSpace(app.db, caller, params.spaceId, 'edit');
    if (space.editMode === 'locked') throw forbidden('The space is locked: its content cannot be changed');
    const changeRequest = await requireChangeRequest(app.db, space, params.changeRequestId);
    if (!isEditable(changeRequest.status)) throw conflict(`The change request is ${changeRequest.status}: its content cannot be changed`);
    const applied = await applyChangeRequestChanges(app, space, changeRequest.id, caller.user.id, body.changes);
    return { status: 200, body: { changeRequest: toApiChangeRequest(applied.changeRequest, app.urls), revision: applied.revisionId, refs: applied.refs } };
  },

  async listChangeRequestPages({ caller, params, app }) {
    const { space, changeRequest, ctx } = await readTarget(app, caller, params);
    const state = await loadRevisionState(app.db, space, changeRequest.revisionId);
    return { status: 200, body: { pages: toApiPages(state.pages, ctx) } };
  },

  async getChangeRequestPageById({ caller, params, query, app }) {
    const { space, changeRequest, ctx } = await readTarget(app, caller, params);
    const { pages } = await loadRevisionState(app.db, space, changeRequest.revisionId);
    const entry = pages.pages.get(params.pageId);
    if (!entry) throw notFound('Page');
    const body = await readPageBody(app.db, space.organizationId, entry, query.format ?? 'markdown');
    return { status: 200, body: toApiPage(pages, entry.id, ctx, body) };
  },

  async listChangeRequestFiles({ caller, params, query, app }) {
    const { space, changeRequest, ctx } = await readTarget(app, caller, params);
    const { files } = await loadRevisionState(app.db, space, changeRequest.revisionId);
    const page = memoryPage([...files.items.values()].sort(byName), {
      keys: [
        { column: 'name', direction: 'asc', value: (file) => file.name },
        { column: 'id', direction: 'asc', value: (file) => file.id },
      ],
      request: query,
      // Like the space's file list, the cursor continues on the current head rather than one revision.
      queryKey: `listChangeRequestFiles:${changeRequest.id}`,
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((file) => toApiFile(file, ctx)) } };
  },

  async getChangeRequestFileById({ caller, params, app }) {
    const { space, changeRequest, ctx } = await readTarget(app, caller, params);
    const { files } = await loadRevisionState(app.db, space, changeRequest.revisionId);
    const file = files.items.get(params.fileId);
    if (!file) throw notFound('File');
    return { status: 200, body: toApiFile(file, ctx) };
  },
} satisfies AreaHandlers;
