import { rankToRole } from '../../access/items.js';
import { viewerFor } from '../../access/viewer.js';
import { visibilityProfile, visibleSpaces } from '../../access/listing.repository.js';
import { keysetPage } from '../../db/pagination.js';
import { siblingOrder } from './sibling-order.js';
import { conflict } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiSpace } from './space.mapper.js';
import { duplicateSpace } from './duplicate.service.js';
import { createSpace, deleteSpace, moveSpace, patchSpace, restoreSpace } from './spaces.service.js';
import { transferSpace } from './transfer.service.js';
import { requireSpace } from '../../access/items.js';
import { publishedSpaceAddress, publishedSpaceAddresses } from '../../publication/space-addresses.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { inTransaction } from '../../db/database.js';
import type { Urls } from '../../urls.js';
import { actorOf, recordEvent, recordEvents } from '../events/index.js';
import { findSpaceRows } from './spaces.repository.js';

/** Events show a space as an organization admin sees it (their audience). */
const spaceData = (row: SpaceRow, urls: Urls) => ({ object: toApiSpace(row, 'admin', urls) });

export const spaceHandlers = {
  async getSpaceById({ access, query, app }) {
    // `shareKey` only completes `urls.published` of spaces in share-link sites; it grants no access.
    const published = await publishedSpaceAddress(app.db, app.urls, access.space, query.shareKey);
    return { status: 200, body: toApiSpace(access.space, access.role, app.urls, published) };
  },

  async updateSpaceById({ caller, access, body, app }) {
    const updated = await inTransaction(app.db, async (trx) => {
      const row = await patchSpace(trx, access.space, body);
      await recordEvent(trx, { type: 'space.updated', organizationId: row.organizationId, spaceId: row.id, actor: actorOf(caller, app.urls), data: spaceData(row, app.urls) });
      return row;
    });
    return { status: 200, body: toApiSpace(updated, access.role, app.urls, await publishedSpaceAddress(app.db, app.urls, updated)) };
  },

  async deleteSpaceById({ caller, access, app }) {
    await inTransaction(app.db, async (trx) => {
      const row = await deleteSpace(trx, access.space);
      await recordEvent(trx, { type: 'space.deleted', organizationId: row.organizationId, spaceId: row.id, actor: actorOf(caller, app.urls), data: spaceData(row, app.urls) });
    });
    return { status: 205 };
  },

  async restoreSpace({ caller, access, app }) {
    if (!access.space.deletedAt) throw conflict('The space is not deleted');
    const restored = await inTransaction(app.db, async (trx) => {
      const row = await restoreSpace(trx, access.space);
      await recordEvent(trx, { type: 'space.restored', organizationId: row.organizationId, spaceId: row.id, actor: actorOf(caller, app.urls), data: spaceData(row, app.urls) });
      return row;
    });
    return { status: 200, body: toApiSpace(restored, access.role, app.urls, await publishedSpaceAddress(app.db, app.urls, restored)) };
  },

  async moveSpace({ caller, access, body, app }) {
    const { space } = access;
    const moved = await inTransaction(app.db, async (trx) => {
      const row = await moveSpace(trx, space, access.target.parentId, body.position);
      const previousParent = space.parentCollectionId ? { previousParent: space.parentCollectionId } : {};
      await recordEvent(trx, { type: 'space.moved', organizationId: row.organizationId, spaceId: row.id, actor: actorOf(caller, app.urls), data: { ...spaceData(row, app.urls), ...previousParent } });
      return row;
    });
    return { status: 200, body: toApiSpace(moved, access.role, app.urls, await publishedSpaceAddress(app.db, app.urls, moved)) };
  },

  async transferSpace({ caller, access, app }) {
    const { space, target } = access;
    await inTransaction(app.db, async (trx) => {
      await transferSpace({ db: trx, lifecycle: app.lifecycle, blobs: app.blobs }, space, target);
      const [after] = await findSpaceRows(trx, target.organizationId, [space.id]);
      const actor = actorOf(caller, app.urls);
      if (target.organizationId === space.organizationId) {
        const previousParent = space.parentCollectionId ? { previousParent: space.parentCollectionId } : {};
        await recordEvent(trx, { type: 'space.moved', organizationId: space.organizationId, spaceId: space.id, actor, data: { ...spaceData(after!, app.urls), ...previousParent } });
        return;
      }
      // Recorded in both organizations.
      const data = { ...spaceData(after!, app.urls), from: space.organizationId, to: target.organizationId };
      await recordEvents(trx, [space.organizationId, target.organizationId].map((organizationId) => ({ type: 'space.transferred' as const, organizationId, spaceId: space.id, actor, data })));
    });
    // The caller's role on the space where it now is.
    const after = await requireSpace(app, caller, access.space.id, 'read');
    return { status: 200, body: toApiSpace(after.space, after.role, app.urls) };
  },

  async duplicateSpace({ caller, access, app }) {
    const copy = await inTransaction(app.db, async (trx) => {
      const row = await duplicateSpace(trx, app.lifecycle, app.caches, access.space, caller.user.id);
      const data = { ...spaceData(row, app.urls), duplicatedFrom: access.space.id };
      await recordEvent(trx, { type: 'space.created', organizationId: row.organizationId, spaceId: row.id, actor: actorOf(caller, app.urls), data });
      return row;
    });
    return { status: 201, body: toApiSpace(copy, 'admin', app.urls) };
  },

  async listSpacesInOrganization({ caller, access, query, app }) {
    const viewer = await viewerFor(app, access.standing, caller.user.id);
    const page = await keysetPage(app.db, visibleSpaces(app.db, viewer), {
      keys: siblingOrder('sp'),
      request: query,
      list: { operation: 'listSpacesInOrganization', within: viewer.organizationId },
      cursors: app.cursors,
      countCache: { cache: app.counts, version: viewer.listingVersion, audience: visibilityProfile(viewer) },
    });
    const published = await publishedSpaceAddresses(app.db, app.urls, viewer.organizationId, page.items);
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiSpace(row, rankToRole(row.accessRank), app.urls, published.get(row.id))) } };
  },

  async createSpace({ caller, access, body, app }) {
    const space = await inTransaction(app.db, async (trx) => {
      const row = await createSpace(trx, { organizationId: access.organization.id, creatorId: caller.user.id, parentId: body.parent ?? null, body });
      await recordEvent(trx, { type: 'space.created', organizationId: row.organizationId, spaceId: row.id, actor: actorOf(caller, app.urls), data: spaceData(row, app.urls) });
      return row;
    });
    return { status: 201, body: toApiSpace(space, 'admin', app.urls) };
  },
} satisfies AreaHandlers;
