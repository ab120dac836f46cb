// Change requests: list, create, read, subject and status, merge, update.
import { filteredChangeRequestsQuery } from './change-requests.repository.js';
import { keysetPage, newestFirst } from '../../db/pagination.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiChangeRequest, toApiConflict } from './change-request.mapper.js';
import { createChangeRequest, patchChangeRequest } from './change-requests.service.js';
import { mergeChangeRequest, recordingMerges, updateChangeRequest, type MergeOutcome } from './change-request-merge.js';
import { actorOf } from '../events/index.js';

const mergeBody = (done: MergeOutcome) => ({ revision: done.revisionId, result: done.result, conflicts: done.conflicts.map(toApiConflict) });

export const changeRequestHandlers = {
  async listChangeRequests({ access: { space }, query, app }) {
    const status = query.status ?? 'open';
    const rows = filteredChangeRequestsQuery(app.db, space.organizationId, space.id, { status, contributor: query.contributor });
    const page = await keysetPage(app.db, rows, {
      keys: newestFirst('cr'),
      request: query,
      list: { operation: 'listChangeRequests', within: space.id, filters: [status, query.contributor] },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiChangeRequest(row, app.urls)) } };
  },

  async createChangeRequest({ caller, access: { space }, body, app }) {
    const created = await createChangeRequest(app.db, space, caller.user.id, body ?? {}, { actor: actorOf(caller, app.urls), urls: app.urls });
    return { status: 201, body: toApiChangeRequest(created, app.urls) };
  },

  async getChangeRequestById({ access: { changeRequest }, app }) {
    return { status: 200, body: toApiChangeRequest(changeRequest, app.urls) };
  },

  async updateChangeRequestById({ caller, access: { space, changeRequest }, body, app }) {
    const updated = await patchChangeRequest(app.db, space, changeRequest.id, body, { actor: actorOf(caller, app.urls), urls: app.urls });
    return { status: 200, body: toApiChangeRequest(updated, app.urls) };
  },

  async mergeChangeRequest({ caller, access: { space, changeRequest }, app }) {
    const recorder = recordingMerges({ actor: actorOf(caller, app.urls), urls: app.urls }, changeRequest.id, space);
    return { status: 200, body: mergeBody(await mergeChangeRequest(app, space, changeRequest.id, caller.user.id, app.parsing, recorder)) };
  },

  async updateChangeRequestFromSpace({ caller, access: { space, changeRequest }, app }) {
    const recorder = recordingMerges({ actor: actorOf(caller, app.urls), urls: app.urls }, changeRequest.id, space);
    return { status: 200, body: mergeBody(await updateChangeRequest(app, space, changeRequest.id, caller.user.id, app.parsing, recorder)) };
  },
} satisfies AreaHandlers;
