import { rankToRole, requireCollection } from '../../access/items.js';
import { viewerFor } from '../../access/viewer.js';
import { visibilityProfile, visibleCollectionsQuery, visibleSpacesQuery } from '../../access/listing.repository.js';
import { keysetPage } from '../../db/pagination.js';
import { positionOrder, siblingOrder } from '../spaces/sibling-order.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiCollection } from './collection.mapper.js';
import { toApiSpace } from '../spaces/space.mapper.js';
import { createCollection, deleteCollectionTree, moveCollection, patchCollection } from './collections.service.js';
import { transferCollection } from '../spaces/transfer.service.js';
import { publishedSpaceAddresses } from '../sites/space-addresses.js';

export const collectionHandlers = {
  async getCollectionById({ access, app }) {
    return { status: 200, body: toApiCollection(access.collection, access.role, app.urls) };
  },

  async updateCollectionById({ access, body, app }) {
    const updated = await patchCollection(app.db, access.collection, body);
    return { status: 200, body: toApiCollection(updated, access.role, app.urls) };
  },

  async deleteCollectionById({ access, app }) {
    await deleteCollectionTree(app.db, access.collection);
    return { status: 205 };
  },

  async listSpacesInCollection({ caller, access, query, app }) {
    const { collection } = access;
    const viewer = await viewerFor(app, access.standing, caller.user.id);
    const page = await keysetPage(app.db, visibleSpacesQuery(app.db, viewer, collection.id), {
      keys: positionOrder('sp'),
      request: query,
      list: { operation: 'listSpacesInCollection', within: collection.id },
      cursors: app.cursors,
      countCache: { cache: app.counts, version: viewer.listingVersion, audience: visibilityProfile(viewer) },
    });
    const published = await publishedSpaceAddresses(app.db, app.urls, collection.organizationId, page.items);
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiSpace(row, rankToRole(row.accessRank), app.urls, published.get(row.id))) } };
  },

  async moveCollection({ access, body, app }) {
    const moved = await moveCollection(app.db, access.collection, access.target.parentId, body.position);
    return { status: 200, body: toApiCollection(moved, access.role, app.urls) };
  },

  async transferCollection({ caller, access, app }) {
    await transferCollection(app, access.collection, access.target);
    // The caller's role on the collection where it now is.
    const after = await requireCollection(app, caller, access.collection.id, 'read');
    return { status: 200, body: toApiCollection(after.collection, after.role, app.urls) };
  },

  async listCollectionsInOrganization({ caller, access, query, app }) {
    const viewer = await viewerFor(app, access.standing, caller.user.id);
    const page = await keysetPage(app.db, visibleCollectionsQuery(app.db, viewer, { topLevelOnly: query.nested === false }), {
      keys: siblingOrder('c'),
      request: query,
      list: { operation: 'listCollectionsInOrganization', within: viewer.organizationId, filters: [query.nested ?? true] },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiCollection(row, rankToRole(row.accessRank), app.urls)) } };
  },

  async createCollection({ caller, access, body, app }) {
    const collection = await createCollection(app.db, { organizationId: access.organization.id, creatorId: caller.user.id, parentId: body.parent ?? null, body });
    return { status: 201, body: toApiCollection(collection, 'admin', app.urls) };
  },
} satisfies AreaHandlers;
