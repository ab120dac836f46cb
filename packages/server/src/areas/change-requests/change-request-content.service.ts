// Edits of a change request's content: the batch engine on the request's own head (its revisions are
// ordinary revisions of the space, on the request's line).
import type { AppContext } from '../../context.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { findChangeRequestById, type ChangeRequestRow } from './change-requests.repository.js';
import { newId } from '../../ids.js';
import { applyChanges, type ContentChange } from '../../content/apply-changes.js';
import { changeRequestHeadPointer } from './change-request-head.js';
import { prepareFiles } from '../../content/file-inputs.js';
import { writeRevision } from '../../content/revision-writer.js';

export type AppliedChangeRequestChanges = { changeRequest: ChangeRequestRow; revisionId: string; refs: Record<string, string> };

/** Applies a batch to the change request's head as one `edits` revision; the writer becomes a contributor. */
export async function applyChangeRequestChanges(
  app: Pick<AppContext, 'db' | 'config'>,
  space: SpaceRow,
  changeRequestId: string,
  userId: string,
  changes: ContentChange[],
): Promise<AppliedChangeRequestChanges> {
  const files = await prepareFiles(changes, app.config);
  const written = await writeRevision(
    app.db,
    changeRequestHeadPointer({ organizationId: space.organizationId, spaceId: space.id, id: changeRequestId }, userId),
    (base, now) => applyChanges(base, changes, { now: now.toISOString(), files, newId: () => newId() }),
    { type: 'edits', createdBy: userId },
  );
  const changeRequest = (await findChangeRequestById(app.db, space.organizationId, space.id, changeRequestId))!;
  return { changeRequest, revisionId: written.revisionId, refs: written.draft.refs };
}
