import { rankToRole, requireRestorableSpace, requireSpace, requireViewer } from '../auth/access.js';
import { requireOrganizationContent } from '../auth/organization-access.js';
import { visibilityProfile, visibleSpacesQuery } from '../db/repositories/listing.repository.js';
import { keysetPage } from '../db/pagination.js';
import { siblingOrder } from '../db/sibling-order.js';
import { conflict } from '../http/errors.js';
import type { AreaHandlers } from '../http/handler.js';
import { toApiSpace } from '../mappers/space.mapper.js';
import { requireTargetParent, resolveMoveTarget } from '../services/placement.service.js';
import { duplicateSpace } from '../services/duplicate.service.js';
import { createSpace, deleteSpace, moveSpace, patchSpace, restoreSpace } from '../services/spaces.service.js';
import { transferSpace } from '../services/transfer.service.js';

export const spaceHandlers = {
  async getSpaceById({ caller, params, app }) {
    // `shareKey` only completes `urls.published` of spaces in share-link sites; it grants no access.
    const { space, role } = await requireSpace(app.db, caller, params.spaceId, 'read');
    return { status: 200, body: toApiSpace(space, role, app.urls) };
  },

  async updateSpaceById({ caller, params, body, app }) {
    const { space, role } = await requireSpace(app.db, caller, params.spaceId, 'admin');
    const updated = await patchSpace(app.db, space, body);
    return { status: 200, body: toApiSpace(updated, role, app.urls) };
  },

  async deleteSpaceById({ caller, params, app }) {
    const { space } = await requireSpace(app.db, caller, params.spaceId, 'admin');
    await deleteSpace(app.db, space);
    return { status: 205 };
  },

  async restoreSpace({ caller, params, app }) {
    const { space, role } = await requireRestorableSpace(app.db, caller, params.spaceId, 'admin');
    if (!space.deletedAt) throw conflict('The space is not deleted');
    const restored = await restoreSpace(app.db, space);
    return { status: 200, body: toApiSpace(restored, role, app.urls) };
  },

  async moveSpace({ caller, params, body, app }) {
    const { space, role, organizationRole } = await requireSpace(app.db, caller, params.spaceId, 'admin');
    const parentId = await resolveMoveTarget(app.db, caller, space, organizationRole, body.parent);
    const moved = await moveSpace(app.db, space, parentId, body.position);
    return { status: 200, body: toApiSpace(moved, role, app.urls) };
  },

  async transferSpace({ caller, params, body, app }) {
    const { space } = await requireSpace(app.db, caller, params.spaceId, 'admin');
    await transferSpace(app.db, caller, space, body);
    const after = await requireSpace(app.db, caller, space.id, 'read');
    return { status: 200, body: toApiSpace(after.space, after.role, app.urls) };
  },

  async duplicateSpace({ caller, params, app }) {
    const { space, organizationRole } = await requireSpace(app.db, caller, params.spaceId, 'read');
    await requireTargetParent(app.db, caller, space.organizationId, space.parentCollectionId, organizationRole);
    const copy = await duplicateSpace(app.db, space, caller.user.id);
    return { status: 201, body: toApiSpace(copy, 'admin', app.urls) };
  },

  async listSpacesInOrganization({ caller, params, query, app }) {
    const viewer = await requireViewer(app.db, caller, params.organizationId);
    const page = await keysetPage(app.db, visibleSpacesQuery(app.db, viewer), {
      keys: siblingOrder('sp'),
      request: query,
      queryKey: `listSpacesInOrganization:${viewer.organizationId}:${visibilityProfile(viewer)}`,
      cursors: app.cursors,
      countCache: { cache: app.counts, version: viewer.listingVersion },
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiSpace(row, rankToRole(row.accessRank), app.urls)) } };
  },

  async createSpace({ caller, params, body, app }) {
    const access = await requireOrganizationContent(app.db, caller, params.organizationId);
    const parentId = body.parent ?? null;
    await requireTargetParent(app.db, caller, access.organization.id, parentId, access.role);
    const space = await createSpace(app.db, { organizationId: access.organization.id, creatorId: caller.user.id, parentId, body });
    return { status: 201, body: toApiSpace(space, 'admin', app.urls) };
  },
} satisfies AreaHandlers;
