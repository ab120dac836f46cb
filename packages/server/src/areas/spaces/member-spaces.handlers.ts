// The spaces a member of the organization can see, as that member sees them (listOrganizationMemberSpaces).
// A list of spaces, so the spaces area's: their API objects are this area's (and their published
// addresses come from below the areas, packages/server/src/publication/), which the members area must
// not reach (no import cycle between areas).
import { memberViewer, rankToRole } from '../../access/items.js';
import { visibilityProfile, visibleSpaces } from '../../access/listing.repository.js';
import { keysetPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { publishedSpaceAddresses } from '../../publication/space-addresses.js';
import { toApiSpace } from './space.mapper.js';

export const memberSpaceHandlers = {
  async listOrganizationMemberSpaces({ access, params, query, app }) {
    const organizationId = access.organization.id;
    const member = await memberViewer(app, organizationId, params.userId);
    if (!member) throw notFound('Member');
    const direction = query.order ?? 'desc';
    const page = await keysetPage(app.db, visibleSpaces(app.db, member), {
      keys: [
        { column: 'sp.createdAt', direction, value: (row) => row.createdAt },
        { column: 'sp.id', direction, value: (row) => row.id },
      ],
      request: query,
      list: { operation: 'listOrganizationMemberSpaces', within: `${organizationId}:${params.userId}`, filters: [direction] },
      cursors: app.cursors,
      countCache: { cache: app.counts, version: member.listingVersion, audience: visibilityProfile(member) },
    });
    // The caller is the member (their role is the listed one) or an organization admin (admin everywhere).
    const published = await publishedSpaceAddresses(app.db, app.urls, organizationId, page.items);
    const items = page.items.map((row) => {
      const permission = rankToRole(row.accessRank)!;
      return { permission, space: toApiSpace(row, access.role === 'admin' ? 'admin' : permission, app.urls, published.get(row.id)) };
    });
    return { status: 200, body: { ...page, items } };
  },
} satisfies AreaHandlers;
