import { rankToRole, requireCollection } from '../auth/access.js';
import { requireOrganizationContent } from '../auth/organization-access.js';
import { collectionsWithAccess, spacesWithAccess } from '../db/repositories/access.repository.js';
import { keysetPage } from '../db/pagination.js';
import { positionOrder, siblingOrder } from '../db/sibling-order.js';
import type { AreaHandlers } from '../http/handler.js';
import { toApiCollection } from '../mappers/collection.mapper.js';
import { toApiSpace } from '../mappers/space.mapper.js';
import { createCollection, deleteCollectionTree, moveCollection, patchCollection } from '../services/collections.service.js';
import { requireTargetParent } from '../services/placement.service.js';
import { transferCollection } from '../services/transfer.service.js';

export const collectionHandlers = {
  async getCollectionById({ caller, params, app }) {
    const { collection, role } = await requireCollection(app.db, caller, params.collectionId, 'read');
    return { status: 200, body: toApiCollection(collection, role, app.urls) };
  },

  async updateCollectionById({ caller, params, body, app }) {
    const { collection, role } = await requireCollection(app.db, caller, params.collectionId, 'admin');
    const updated = await patchCollection(app.db, collection, body);
    return { status: 200, body: toApiCollection(updated, role, app.urls) };
  },

  async deleteCollectionById({ caller, params, app }) {
    const { collection } = await requireCollection(app.db, caller, params.collectionId, 'admin');
    await deleteCollectionTree(app.db, collection);
    return { status: 205 };
  },

  async listSpacesInCollection({ caller, params, query, app }) {
    const { collection } = await requireCollection(app.db, caller, params.collectionId, 'read');
    const visible = app.db
      .selectFrom(spacesWithAccess(collection.organizationId, caller.user.id).as('s'))
      .selectAll('s')
      .where('s.parentCollectionId', '=', collection.id)
      .where('s.accessRank', '>', 0);
    const page = await keysetPage(app.db, visible, {
      keys: positionOrder('s'),
      request: query,
      queryKey: `listSpacesInCollection:${collection.id}:${caller.user.id}`,
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiSpace(row, rankToRole(row.accessRank), app.urls)) } };
  },

  async moveCollection({ caller, params, body, app }) {
    const { collection, role, organizationRole } = await requireCollection(app.db, caller, params.collectionId, 'admin');
    const parentId = body.parent === undefined ? collection.parentCollectionId : body.parent;
    if (parentId !== collection.parentCollectionId) {
      await requireTargetParent(app.db, caller, collection.organizationId, parentId, organizationRole);
    }
    const moved = await moveCollection(app.db, collection, parentId, body.position);
    return { status: 200, body: toApiCollection(moved, role, app.urls) };
  },

  async transferCollection({ caller, params, body, app }) {
    const { collection } = await requireCollection(app.db, caller, params.collectionId, 'admin');
    await transferCollection(app.db, caller, collection, body);
    const after = await requireCollection(app.db, caller, collection.id, 'read');
    return { status: 200, body: toApiCollection(after.collection, after.role, app.urls) };
  },

  async listCollectionsInOrganization({ caller, params, query, app }) {
    const access = await requireOrganizationContent(app.db, caller, params.organizationId);
    const visible = app.db
      .selectFrom(collectionsWithAccess(access.organization.id, caller.user.id).as('c'))
      .selectAll('c')
      .where('c.accessRank', '>', 0)
      .$if(query.nested === false, (qb) => qb.where('c.parentCollectionId', 'is', null));
    const page = await keysetPage(app.db, visible, {
      keys: siblingOrder('c'),
      request: query,
      queryKey: `listCollectionsInOrganization:${access.organization.id}:${caller.user.id}:${query.nested ?? true}`,
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiCollection(row, rankToRole(row.accessRank), app.urls)) } };
  },

  async createCollection({ caller, params, body, app }) {
    const access = await requireOrganizationContent(app.db, caller, params.organizationId);
    const parentId = body.parent ?? null;
    await requireTargetParent(app.db, caller, access.organization.id, parentId, access.role);
    const collection = await createCollection(app.db, { organizationId: access.organization.id, creatorId: caller.user.id, parentId, body });
    return { status: 201, body: toApiCollection(collection, 'admin', app.urls) };
  },
} satisfies AreaHandlers;
