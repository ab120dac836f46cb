import type { Updateable } from 'kysely';
import { inTransaction } from '../../db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import { keysetPage, newestFirst } from '../../db/pagination.js';
import {
  findOrganizationsForEmailDomain,
  isHostnameTaken,
  organizationsOfUserQuery,
  updateOrganization,
} from './organizations.repository.js';
import type { OrganizationsTable } from '../../db/schema.js';
import { invalidField, notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiOrganization } from './organization.mapper.js';
import { createOrganization, emailDomainOf, hostnameTaken } from './organizations.service.js';
import { findSite } from '../sites/index.js';
import { actorOf, recordEvent } from '../events/index.js';

export const organizationHandlers = {
  async listOrganizations({ caller, query, app }) {
    const page = await keysetPage(app.db, organizationsOfUserQuery(app.db, caller.user.id, caller.organizationScope), {
      keys: newestFirst('organizations'),
      request: query,
      list: { operation: 'listOrganizations', within: caller.user.id, filters: [caller.organizationScope] },
      cursors: app.cursors,
    });
    return {
      status: 200,
      body: { ...page, items: page.items.map(({ memberRole, memberSso, ...row }) => toApiOrganization(row, { role: memberRole, sso: memberSso }, app.urls)) },
    };
  },

  async createOrganization({ caller, body, app }) {
    const organization = await inTransaction(app.db, async (trx) => {
      const created = await createOrganization(trx, caller.user, body);
      const data = { object: toApiOrganization(created, { role: 'admin', sso: false }, app.urls) };
      await recordEvent(trx, { type: 'organization.created', organizationId: created.id, actor: actorOf(caller, app.urls), data });
      return created;
    });
    return { status: 201, body: toApiOrganization(organization, { role: 'admin', sso: false }, app.urls) };
  },

  async getOrganizationById({ access, app }) {
    return { status: 200, body: toApiOrganization(access.organization, access.membership, app.urls) };
  },

  async updateOrganizationById({ caller, access, body, app }) {
    const organizationId = access.organization.id;
    const patch: Updateable<OrganizationsTable> = {};
    if (body.title !== undefined) patch.title = body.title;
    if (body.emailDomains !== undefined) patch.emailDomains = body.emailDomains;
    if (body.defaultRole !== undefined) patch.defaultRole = body.defaultRole;
    if (body.logo !== undefined) patch.logoUrl = body.logo;
    if (body.sso !== undefined) patch.sso = body.sso;
    if (body.ai !== undefined) patch.ai = body.ai;
    if (body.inviteLinks !== undefined) patch.inviteLinks = body.inviteLinks;
    if (body.hostname !== undefined) {
      if (body.hostname !== null && (await isHostnameTaken(app.db, body.hostname, organizationId))) throw hostnameTaken();
      patch.hostname = body.hostname;
    }
    if (body.defaultContent !== undefined) {
      if (body.defaultContent !== null && !(await findSite(app.db, organizationId, body.defaultContent.site))) {
        throw invalidField('/body/defaultContent/site', 'is not a site of this organization');
      }
      patch.defaultContentSiteId = body.defaultContent?.site ?? null;
    }
    let updated;
    try {
      updated = await inTransaction(app.db, async (trx) => {
        const row = await updateOrganization(trx, organizationId, patch);
        const data = row && { object: toApiOrganization(row, { role: 'admin', sso: false }, app.urls) };
        if (data && Object.keys(patch).length > 0) await recordEvent(trx, { type: 'organization.updated', organizationId, actor: actorOf(caller, app.urls), data });
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error, 'organizations_hostname_key')) throw hostnameTaken();
      // The site was deleted since it was looked up.
      if (isForeignKeyViolation(error, 'organizations_default_site_fkey')) throw invalidField('/body/defaultContent/site', 'is not a site of this organization');
      throw error;
    }
    if (!updated) throw notFound('Organization');
    return { status: 200, body: toApiOrganization(updated, access.membership, app.urls) };
  },

  async listOrganizationsForEmailDomain({ caller, params, app }) {
    const domain = params.emailDomain.toLowerCase();
    const callerDomain = emailDomainOf(caller.user.email);
    const rows = await findOrganizationsForEmailDomain(app.db, domain, caller.user.id, callerDomain, caller.organizationScope);
    return {
      status: 200,
      body: {
        organizations: rows.map(({ memberRole, memberSso, isMember, ...row }) => toApiOrganization(row, isMember ? { role: memberRole, sso: memberSso ?? false } : undefined, app.urls)),
      },
    };
  },
} satisfies AreaHandlers;
