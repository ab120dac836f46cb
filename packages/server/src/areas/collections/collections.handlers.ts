import { rankToRole, requireCollection } from '../../access/items.js';
import { viewerFor } from '../../access/viewer.js';
import { visibilityProfile, visibleCollections, visibleSpaces } from '../../access/listing.repository.js';
import { keysetPage } from '../../db/pagination.js';
import { findSpaceRows, positionOrder, siblingOrder, spaceIdsInCollections, toApiSpace } from '../spaces/index.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiCollection } from './collection.mapper.js';
import { createCollection, deleteCollectionTree, moveCollection, patchCollection } from './collections.service.js';
import { transferCollection } from './transfer.service.js';
import { publishedSpaceAddresses } from '../../publication/space-addresses.js';
import type { CollectionRow, SpaceRow } from '../../access/standing.repository.js';
import { inTransaction } from '../../db/database.js';
import type { Urls } from '../../urls.js';
import { actorOf, recordEvent, recordEvents, type EventActor, type NewEvent } from '../events/index.js';
import { collectionSubtreeIds, findCollectionRow } from './collections.repository.js';

/** Events show collections and spaces as an organization admin sees them (their audience). */
const collectionData = (row: CollectionRow, urls: Urls) => ({ object: toApiCollection(row, 'admin', urls) });
const spaceEvent = (type: 'space.deleted' | 'space.transferred', row: SpaceRow, organizationId: string, actor: EventActor, urls: Urls, extra = {}): NewEvent =>
  ({ type, organizationId, spaceId: row.id, actor, data: { object: toApiSpace(row, 'admin', urls), ...extra } }) as NewEvent;

export const collectionHandlers = {
  async getCollectionById({ access, app }) {
    return { status: 200, body: toApiCollection(access.collection, access.role, app.urls) };
  },

  async updateCollectionById({ caller, access, body, app }) {
    const updated = await inTransaction(app.db, async (trx) => {
      const row = await patchCollection(trx, access.collection, body);
      await recordEvent(trx, { type: 'collection.updated', organizationId: row.organizationId, actor: actorOf(caller, app.urls), data: collectionData(row, app.urls) });
      return row;
    });
    return { status: 200, body: toApiCollection(updated, access.role, app.urls) };
  },

  async deleteCollectionById({ caller, access, app }) {
    const { collection } = access;
    await inTransaction(app.db, async (trx) => {
      const { deletedSpaces } = await deleteCollectionTree(trx, collection);
      const actor = actorOf(caller, app.urls);
      await recordEvents(trx, [
        { type: 'collection.deleted', organizationId: collection.organizationId, actor, data: collectionData(collection, app.urls) },
        ...deletedSpaces.map((space) => spaceEvent('space.deleted', space, collection.organizationId, actor, app.urls)),
      ]);
    });
    return { status: 205 };
  },

  async listSpacesInCollection({ caller, access, query, app }) {
    const { collection } = access;
    const viewer = await viewerFor(app, access.standing, caller.user.id);
    const page = await keysetPage(app.db, visibleSpaces(app.db, viewer, collection.id), {
      keys: positionOrder('sp'),
      request: query,
      list: { operation: 'listSpacesInCollection', within: collection.id },
      cursors: app.cursors,
      countCache: { cache: app.counts, version: viewer.listingVersion, audience: visibilityProfile(viewer) },
    });
    const published = await publishedSpaceAddresses(app.db, app.urls, collection.organizationId, page.items);
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiSpace(row, rankToRole(row.accessRank), app.urls, published.get(row.id))) } };
  },

  async moveCollection({ caller, access, body, app }) {
    const { collection } = access;
    const moved = await inTransaction(app.db, async (trx) => {
      const row = await moveCollection(trx, collection, access.target.parentId, body.position);
      const previousParent = collection.parentCollectionId ? { previousParent: collection.parentCollectionId } : {};
      await recordEvent(trx, { type: 'collection.moved', organizationId: row.organizationId, actor: actorOf(caller, app.urls), data: { ...collectionData(row, app.urls), ...previousParent } });
      return row;
    });
    return { status: 200, body: toApiCollection(moved, access.role, app.urls) };
  },

  async transferCollection({ caller, access, app }) {
    const { collection, target } = access;
    const from = collection.organizationId;
    await inTransaction(app.db, async (trx) => {
      const spaceIds = await spaceIdsInCollections(trx, from, await collectionSubtreeIds(trx, from, collection.id));
      await transferCollection({ db: trx, lifecycle: app.lifecycle, blobs: app.blobs }, collection, target);
      const after = (await findCollectionRow(trx, target.organizationId, collection.id))!;
      const actor = actorOf(caller, app.urls);
      if (target.organizationId === from) {
        const previousParent = collection.parentCollectionId ? { previousParent: collection.parentCollectionId } : {};
        await recordEvent(trx, { type: 'collection.moved', organizationId: from, actor, data: { ...collectionData(after, app.urls), ...previousParent } });
        return;
      }
      // Recorded in both organizations, with each space that went along.
      const spaces = await findSpaceRows(trx, target.organizationId, spaceIds);
      const moved = { from, to: target.organizationId };
      await recordEvents(
        trx,
        [from, target.organizationId].flatMap((organizationId): NewEvent[] => [
          { type: 'collection.transferred', organizationId, actor, data: { ...collectionData(after, app.urls), ...moved } },
          ...spaces.map((space) => spaceEvent('space.transferred', space, organizationId, actor, app.urls, moved)),
        ]),
      );
    });
    // The caller's role on the collection where it now is.
    const after = await requireCollection(app, caller, access.collection.id, 'read');
    return { status: 200, body: toApiCollection(after.collection, after.role, app.urls) };
  },

  async listCollectionsInOrganization({ caller, access, query, app }) {
    const viewer = await viewerFor(app, access.standing, caller.user.id);
    const page = await keysetPage(app.db, visibleCollections(app.db, viewer, { topLevelOnly: query.nested === false }), {
      keys: siblingOrder('c'),
      request: query,
      list: { operation: 'listCollectionsInOrganization', within: viewer.organizationId, filters: [query.nested ?? true] },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiCollection(row, rankToRole(row.accessRank), app.urls)) } };
  },

  async createCollection({ caller, access, body, app }) {
    const collection = await inTransaction(app.db, async (trx) => {
      const row = await createCollection(trx, { organizationId: access.organization.id, creatorId: caller.user.id, parentId: body.parent ?? null, body });
      await recordEvent(trx, { type: 'collection.created', organizationId: row.organizationId, actor: actorOf(caller, app.urls), data: collectionData(row, app.urls) });
      return row;
    });
    return { status: 201, body: toApiCollection(collection, 'admin', app.urls) };
  },
} satisfies AreaHandlers;
