import type { SpaceRow } from '../../access/standing.repository.js';
import { permissions } from '../permissions-objects.js';
import type { Role } from '../../access/roles.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';

export type ApiSpace = Schemas['Space'];

/**
 * The space as a caller with effective role `role` sees it. `published` is its address in a published
 * site, when it is in one (looked up below the areas: packages/server/src/publication/space-addresses.ts).
 */
export function toApiSpace(space: SpaceRow, role: Role | null, urls: Urls, published?: string): ApiSpace {
  const isPublic = space.visibility === 'public' || space.visibility === 'unlisted';
  return {
    object: 'space',
    id: space.id,
    title: space.title,
    emoji: space.emoji,
    visibility: space.visibility,
    createdAt: space.createdAt.toISOString(),
    updatedAt: space.updatedAt.toISOString(),
    ...(space.deletedAt ? { deletedAt: space.deletedAt.toISOString() } : {}),
    editMode: space.editMode,
    organization: space.organizationId,
    ...(space.parentCollectionId ? { parent: space.parentCollectionId } : {}),
    revision: space.headRevisionId,
    defaultLevel: space.defaultLevel,
    comments: space.commentsCount,
    changeRequests: space.changeRequestsCount,
    changeRequestsOpen: space.changeRequestsOpenCount,
    changeRequestsDraft: space.changeRequestsDraftCount,
    urls: {
      location: urls.api(`/v1/spaces/${space.id}`),
      app: urls.app(`/s/${space.id}`),
      ...(published ? { published } : {}),
      ...(isPublic ? { public: urls.app(`/public/s/${space.id}`) } : {}),
    },
    permissions: permissions().space(space, role),
  };
}
