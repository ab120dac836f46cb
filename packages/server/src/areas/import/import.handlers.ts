// Content import into a space or a change request (docs/decisions.md, Content import).
import { conflict } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { isEditable } from '../change-requests/change-requests.service.js';
import { importContent } from './import.service.js';
import { actorOf } from '../events/index.js';

export const importHandlers = {
  async importSpaceContent({ caller, access: { space }, body, app }) {
    return { status: 201, body: await importContent(app, { space }, caller.user.id, actorOf(caller, app.urls), body) };
  },

  async importChangeRequestContent({ caller, access: { space, changeRequest }, body, app }) {
    // Checked before anything is fetched; the write checks again (the status may change meanwhile).
    if (!isEditable(changeRequest.status)) throw conflict(`The change request is ${changeRequest.status}: its content cannot be changed`);
    return { status: 201, body: await importContent(app, { space, changeRequestId: changeRequest.id }, caller.user.id, actorOf(caller, app.urls), body) };
  },
} satisfies AreaHandlers;
