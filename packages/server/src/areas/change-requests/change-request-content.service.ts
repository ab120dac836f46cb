// Edits of a change request's content: the batch engine on the request's own head (its revisions are
// ordinary revisions of the space, on the request's line).
import type { AppContext } from '../../context.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { findChangeRequestById, type ChangeRequestRow } from './change-requests.repository.js';
import type { ContentChange } from '../../content/apply-changes.js';
import { changeRequestHeadPointer } from './change-request-head.js';
import { prepareFiles } from '../../content/file-inputs.js';
import { changeBodies, parseMarkdownBodies } from '../../content/markdown-check.js';
import { type BatchOptions, type ContentEvents, type InternalBatch, writeBatch } from '../content/index.js';
import type { ContentWriter, HeadRevisions, Trx } from '../../content/revision-writer.js';
import { recordEvents, type NewEvent } from '../events/index.js';
import { toApiChangeRequest } from './change-request.mapper.js';

export type AppliedChangeRequestChanges = { changeRequest: ChangeRequestRow; revisionId: string; refs: Record<string, string> };

/**
 * Applies a batch to the change request's head as one `edits` revision; the writer becomes a
 * contributor, and `change-request.updated` is recorded in its transaction.
 */
export async function applyChangeRequestChanges(
  app: ContentWriter & Pick<AppContext, 'config' | 'parsing' | 'urls'>,
  space: SpaceRow,
  changeRequestId: string,
  userId: string,
  changes: ContentChange[],
  events: ContentEvents,
): Promise<AppliedChangeRequestChanges> {
  const parsed = await parseMarkdownBodies(app.parsing, changeBodies(changes));
  const files = await prepareFiles(changes, app.config);
  return applyChangeRequestBatch(app, space, changeRequestId, userId, () => ({ changes, files }), events, { parsed });
}

/** `change-request.updated` (and `also`'s events), recorded in the transaction that moved the request's head. */
export function recordingChangeRequestUpdates(app: Pick<AppContext, 'urls'>, space: SpaceRow, changeRequestId: string, events: ContentEvents) {
  return async (trx: Trx, revisions: HeadRevisions) => {
    const changeRequest = (await findChangeRequestById(trx, space.organizationId, space.id, changeRequestId))!;
    const updated: NewEvent = { type: 'change-request.updated', organizationId: space.organizationId, spaceId: space.id, actor: events.actor, data: { object: toApiChangeRequest(changeRequest, app.urls) } };
    await recordEvents(trx, [updated, ...(events.also?.(revisions.to) ?? [])]);
  };
}

/** Applies an internal batch (see InternalBatch) to the change request's head; the writer becomes a contributor. */
export async function applyChangeRequestBatch(
  app: ContentWriter & Pick<AppContext, 'parsing' | 'urls'>,
  space: SpaceRow,
  changeRequestId: string,
  userId: string,
  batch: InternalBatch,
  events: ContentEvents,
  options: BatchOptions = {},
): Promise<AppliedChangeRequestChanges> {
  const pointer = changeRequestHeadPointer(
    { organizationId: space.organizationId, spaceId: space.id, id: changeRequestId },
    userId,
    recordingChangeRequestUpdates(app, space, changeRequestId, events),
  );
  const written = await writeBatch(app, pointer, userId, batch, options);
  const changeRequest = (await findChangeRequestById(app.db, space.organizationId, space.id, changeRequestId))!;
  return { changeRequest, revisionId: written.revisionId, refs: written.draft.refs };
}
