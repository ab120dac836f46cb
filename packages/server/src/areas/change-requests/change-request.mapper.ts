// Change requests as the API shows them.
import type { ChangeRequestRow } from './change-requests.repository.js';
import type { MergeConflict } from '../../content/merge3-tree.js';
import type { Schemas } from '../../schemas.js';
import { toApiUser } from '../users/index.js';
import type { Urls } from '../../urls.js';

export type ApiChangeRequest = Schemas['ChangeRequest'];

/** The app's address of a change request (its pages live below it). */
export const changeRequestAppPath = (spaceId: string, id: string) => `/s/${spaceId}/~/changes/${id}`;

export function toApiChangeRequest(row: ChangeRequestRow, urls: Urls): ApiChangeRequest {
  return {
    object: 'change-request',
    id: row.id,
    number: row.number,
    status: row.status,
    subject: row.subject,
    ...(row.createdBy && row.creatorEmail !== null && row.creatorDisplayName !== null
      ? { createdBy: toApiUser({ id: row.createdBy, email: row.creatorEmail, displayName: row.creatorDisplayName, photoUrl: row.creatorPhotoUrl }, urls) }
      : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    revision: row.revisionId,
    revisionInitial: row.revisionInitialId,
    ...(row.revisionMergedAncestorId ? { revisionMergedAncestor: row.revisionMergedAncestorId } : {}),
    ...(row.revisionMergedId ? { revisionMerged: row.revisionMergedId } : {}),
    comments: row.commentsCount,
    outdated: row.outdated,
    urls: {
      location: urls.api(`/v1/spaces/${row.spaceId}/change-requests/${row.id}`),
      app: urls.app(changeRequestAppPath(row.spaceId, row.id)),
    },
  };
}

export function toApiConflict(conflict: MergeConflict): Schemas['RevisionConflict'] {
  return {
    kind: conflict.kind,
    ...(conflict.pageId !== undefined ? { page: conflict.pageId } : {}),
    ...(conflict.fileId !== undefined ? { file: conflict.fileId } : {}),
    ...(conflict.reusableContentId !== undefined ? { reusableContent: conflict.reusableContentId } : {}),
    ...(conflict.field !== undefined ? { field: conflict.field } : {}),
    base: conflict.base ?? null,
    ours: conflict.ours ?? null,
    theirs: conflict.theirs ?? null,
    resolution: conflict.resolution,
  };
}
