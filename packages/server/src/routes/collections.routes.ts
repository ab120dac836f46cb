import { rankToRole, requireCollection, requireViewer } from '../auth/access.js';
import { requireOrganizationContent } from '../auth/organization-access.js';
import { visibilityProfile, visibleCollectionsQuery, visibleSpacesQuery } from '../db/repositories/listing.repository.js';
import { keysetPage } from '../db/pagination.js';
import { positionOrder, siblingOrder } from '../db/sibling-order.js';
import type { AreaHandlers } from '../http/handler.js';
import { toApiCollection } from '../mappers/collection.mapper.js';
import { toApiSpace } from '../mappers/space.mapper.js';
import { createCollection, deleteCollectionTree, moveCollection, patchCollection } from '../services/collections.service.js';
import { requireTargetParent, resolveMoveTarget } from '../services/placement.service.js';
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
    const viewer = await requireViewer(app.db, caller, collection.organizationId);
    const page = await keysetPage(app.db, visibleSpacesQuery(app.db, viewer, collection.id), {
      keys: positionOrder('sp'),
      request: query,
      queryKey: `listSpacesInCollection:${collection.id}:${visibilityProfile(viewer)}`,
      cursors: app.cursors,
      countCache: { cache: app.counts, version: viewer.listingVersion },
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiSpace(row, rankToRole(row.accessRank), app.urls)) } };
  },

  async moveCollection({ caller, params, body, app }) {
    const { collection, role, organizationRole } = await requireCollection(app.db, caller, params.collectionId, 'admin');
    const parentId = await resolveMoveTarget(app.db, caller, collection, organizationRole, body.parent);
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
    const viewer = await requireViewer(app.db, caller, params.organizationId);
    const page = await keysetPage(app.db, visibleCollectionsQuery(app.db, viewer, { topLevelOnly: query.nested === false }), {
      keys: siblingOrder('c'),
      request: query,
      queryKey: `listCollectionsInOrganization:${viewer.organizationId}:${caller.user.id}:${query.nested ?? true}`,
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
