import { rankToRole, requireDeletedSpace, requireSpace } from '../auth/access.js';
import { requireOrganizationMember } from '../auth/organization-access.js';
import { spacesWithAccess } from '../db/repositories/access.repository.js';
import { keysetPage } from '../db/pagination.js';
import { siblingOrder } from '../db/sibling-order.js';
import type { AreaHandlers } from '../http/handler.js';
import { toApiSpace } from '../mappers/space.mapper.js';
import { requireTargetParent } from '../services/placement.service.js';
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
    const { space, role } = await requireDeletedSpace(app.db, caller, params.spaceId, 'admin');
    const restored = await restoreSpace(app.db, space);
    return { status: 200, body: toApiSpace(restored, role, app.urls) };
  },

  async moveSpace({ caller, params, body, app }) {
    const { space, role, organizationRole } = await requireSpace(app.db, caller, params.spaceId, 'admin');
    const parentId = body.parent === undefined ? space.parentCollectionId : body.parent;
    if (parentId !== space.parentCollectionId) {
      await requireTargetParent(app.db, caller, space.organizationId, parentId, organizationRole);
    }
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
    const access = await requireOrganizationMember(app.db, caller, params.organizationId);
    const visible = app.db
      .selectFrom(spacesWithAccess(access.organization.id, caller.user.id).as('s'))
      .selectAll('s')
      .where('s.accessRank', '>', 0);
    const page = await keysetPage(app.db, visible, {
      keys: siblingOrder('s'),
      request: query,
      queryKey: `listSpacesInOrganization:${access.organization.id}:${caller.user.id}`,
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiSpace(row, rankToRole(row.accessRank), app.urls)) } };
  },

  async createSpace({ caller, params, body, app }) {
    const access = await requireOrganizationMember(app.db, caller, params.organizationId);
    const parentId = body.parent ?? null;
    await requireTargetParent(app.db, caller, access.organization.id, parentId, access.role);
    const space = await createSpace(app.db, { organizationId: access.organization.id, creatorId: caller.user.id, parentId, body });
    return { status: 201, body: toApiSpace(space, 'admin', app.urls) };
  },
} satisfies AreaHandlers;
