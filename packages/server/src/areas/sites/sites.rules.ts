// The sites area's access rules (named in the spec's `x-access`, described in `x-access-rules`).
import { requireSpace } from '../../access/items.js';
import { isMemberDisabled, memberAccess, requireOrganizationRole, findVisibleOrganization, type OrganizationAccess } from '../../access/organization.js';
import { roleAtLeast } from '../../access/roles.js';
import type { AccessRule, RuleContext } from '../../access/rules.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { notFound } from '../../errors.js';
import { findSite, type SiteRow } from './sites.repository.js';

declare module '../../access/rules.js' {
  interface RuleData {
    'space-readable': { readableSpaces: ReadonlyMap<string, SpaceRow> };
    'published-audience': { site: SiteRow; organizationAccess: OrganizationAccess | undefined; member: boolean };
  }
}

/** The spaces a body names: `spaceId`, or the `spaces` of a new site. */
function namedSpaces(body: { spaceId?: string; spaces?: string[] | string } | undefined): string[] {
  if (!body) return [];
  if (body.spaceId !== undefined) return [body.spaceId];
  return Array.isArray(body.spaces) ? body.spaces : [];
}

export const sitesRules = {
  'space-readable': {
    needsBody: true,
    check: async (ctx: RuleContext) => {
      const access = ctx.access as OrganizationAccess;
      // A new space for a new site is created like any space at the top level.
      if (typeof ctx.body?.spaces === 'string') requireOrganizationRole(access, 'create');
      const readableSpaces = new Map<string, SpaceRow>();
      for (const id of namedSpaces(ctx.body)) {
        const { space } = await requireSpace(ctx.app, ctx.caller, id, 'read');
        if (space.organizationId !== access.organization.id) throw notFound('Space');
        readableSpaces.set(id, space);
      }
      return { readableSpaces };
    },
  } satisfies AccessRule<undefined, { readableSpaces: ReadonlyMap<string, SpaceRow> }>,

  // The share key (a query parameter) is weighed by the handler: see sites.handlers.ts.
  'published-audience': {
    check: async (ctx: RuleContext) => {
      const found = await findVisibleOrganization(ctx.app.db, ctx.caller, ctx.params.organizationId!);
      const site = found && (await findSite(ctx.app.db, found.organization.id, ctx.params.siteId!));
      if (!found || !site) throw notFound('Site');
      const membership = found.membership;
      const organizationAccess = membership ? memberAccess(found, membership) : undefined;
      const member = !!membership && roleAtLeast(membership.role, 'read') && !isMemberDisabled(found.organization, membership);
      return { site, organizationAccess, member };
    },
  } satisfies AccessRule<undefined, { site: SiteRow; organizationAccess: OrganizationAccess | undefined; member: boolean }>,
};
