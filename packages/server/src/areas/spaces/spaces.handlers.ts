import { rankToRole } from '../../access/items.js';
import { viewerFor } from '../../access/viewer.js';
import { visibilityProfile, visibleSpacesQuery } from '../../access/listing.repository.js';
import { keysetPage } from '../../db/pagination.js';
import { siblingOrder } from './sibling-order.js';
import { conflict } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiSpace } from './space.mapper.js';
import { duplicateSpace } from './duplicate.service.js';
import { createSpace, deleteSpace, moveSpace, patchSpace, restoreSpace } from './spaces.service.js';
import { transferSpace } from './transfer.service.js';
import { requireSpace } from '../../access/items.js';
import { publishedSpaceAddress, publishedSpaceAddresses } from '../sites/space-addresses.js';

export const spaceHandlers = {
  async getSpaceById({ access, query, app }) {
    // `shareKey` only completes `urls.published` of spaces in share-link sites; it grants no access.
    const published = await publishedSpaceAddress(app.db, app.urls, access.space, query.shareKey);
    return { status: 200, body: toApiSpace(access.space, access.role, app.urls, published) };
  },

  async updateSpaceById({ access, body, app }) {
    const updated = await patchSpace(app.db, access.space, body);
    return { status: 200, body: toApiSpace(updated, access.role, app.urls, await publishedSpaceAddress(app.db, app.urls, updated)) };
  },

  async deleteSpaceById({ access, app }) {
    await deleteSpace(app.db, access.space);
    return { status: 205 };
  },

  async restoreSpace({ access, app }) {
    if (!access.space.deletedAt) throw conflict('The space is not deleted');
    const restored = await restoreSpace(app.db, access.space);
    return { status: 200, body: toApiSpace(restored, access.role, app.urls, await publishedSpaceAddress(app.db, app.urls, restored)) };
  },

  async moveSpace({ access, body, app }) {
    const moved = await moveSpace(app.db, access.space, access.target.parentId, body.position);
    return { status: 200, body: toApiSpace(moved, access.role, app.urls, await publishedSpaceAddress(app.db, app.urls, moved)) };
  },

  async transferSpace({ caller, access, app }) {
    await transferSpace(app, access.space, access.target);
    // The caller's role on the space where it now is.
    const after = await requireSpace(app, caller, access.space.id, 'read');
    return { status: 200, body: toApiSpace(after.space, after.role, app.urls) };
  },

  async duplicateSpace({ caller, access, app }) {
    const copy = await duplicateSpace(app.db, app.lifecycle, access.space, caller.user.id);
    return { status: 201, body: toApiSpace(copy, 'admin', app.urls) };
  },

  async listSpacesInOrganization({ caller, access, query, app }) {
    const viewer = await viewerFor(app, access.standing, caller.user.id);
    const page = await keysetPage(app.db, visibleSpacesQuery(app.db, viewer), {
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
    const space = await createSpace(app.db, { organizationId: access.organization.id, creatorId: caller.user.id, parentId: body.parent ?? null, body });
    return { status: 201, body: toApiSpace(space, 'admin', app.urls) };
  },
} satisfies AreaHandlers;
