// Content import into a space or a change request (docs/decisions.md, Content import).
import type { Response } from 'express';
import { conflict } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { isEditable } from '../change-requests/index.js';
import { importContent, type ImportRequestState } from './import.service.js';
import { actorOf } from '../events/index.js';

/**
 * The request's state for the import: aborted when the connection closes before the answer is sent
 * (the client left, or the server's socket timeout cut it), so nothing is committed for nobody.
 */
function requestState(res: Response): ImportRequestState {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return { startedAt: Date.now(), clientGone: controller.signal };
}

export const importHandlers = {
  async importSpaceContent({ caller, access: { space }, body, app, res }) {
    return { status: 201, body: await importContent(app, { space }, caller.user.id, actorOf(caller, app.urls), body, requestState(res)) };
  },

  async importChangeRequestContent({ caller, access: { space, changeRequest }, body, app, res }) {
    // Checked before anything is fetched; the write checks again (the status may change meanwhile).
    if (!isEditable(changeRequest.status)) throw conflict(`The change request is ${changeRequest.status}: its content cannot be changed`);
    return { status: 201, body: await importContent(app, { space, changeRequestId: changeRequest.id }, caller.user.id, actorOf(caller, app.urls), body, requestState(res)) };
  },
} satisfies AreaHandlers;
