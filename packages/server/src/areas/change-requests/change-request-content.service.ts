// Edits of a change request's content: the batch engine on the request's own head (its revisions are
// ordinary revisions of the space, on the request's line).
import type { AppContext } from '../../context.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { findChangeRequestById, type ChangeRequestRow } from './change-requests.repository.js';
import type { ContentChange } from '../../content/apply-changes.js';
import { changeRequestHeadPointer } from './change-request-head.js';
import type { ContentWriter } from '../../content/revision-writer.js';
import { prepareFiles } from '../../content/file-inputs.js';
import { assertMarkdownParsable, changeBodies } from '../../content/markdown-check.js';
import { writeBatch, type InternalBatch } from '../content/space-content.service.js';

export type AppliedChangeRequestChanges = { changeRequest: ChangeRequestRow; revisionId: string; refs: Record<string, string> };

/** Applies a batch to the change request's head as one `edits` revision; the writer becomes a contributor. */
export async function applyChangeRequestChanges(
  app: ContentWriter & Pick<AppContext, 'config'>,
  space: SpaceRow,
  changeRequestId: string,
  userId: string,
  changes: ContentChange[],
): Promise<AppliedChangeRequestChanges> {
  await assertMarkdownParsable(changeBodies(changes));
  const files = await prepareFiles(changes, app.config);
  return applyChangeRequestBatch(app, space, changeRequestId, userId, () => ({ changes, files }));
}

/** Applies an internal batch (see InternalBatch) to the change request's head; the writer becomes a contributor. */
export async function applyChangeRequestBatch(
  app: ContentWriter,
  space: SpaceRow,
  changeRequestId: string,
  userId: string,
  batch: InternalBatch,
): Promise<AppliedChangeRequestChanges> {
  const pointer = changeRequestHeadPointer({ organizationId: space.organizationId, spaceId: space.id, id: changeRequestId }, userId);
  const written = await writeBatch(app, pointer, userId, batch);
  const changeRequest = (await findChangeRequestById(app.db, space.organizationId, space.id, changeRequestId))!;
  return { changeRequest, revisionId: written.revisionId, refs: written.draft.refs };
}
