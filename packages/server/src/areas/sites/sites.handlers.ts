// Sites themselves: list, create, read, change, delete, publication, their hostname's verification,
// adaptive schema, the published view, customization and the audience's credentials.
import type { AppContext } from '../../context.js';
import { keysetPage, newestFirst } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import type { Schemas } from '../../schemas.js';
import { siteAddress, withShareKey } from '../../publication/site-addresses.js';
import { resolvePublishedStructure, type PublishedStructure } from './published-structure.js';
import { filteredSitesQuery, shareLinksQuery, type SiteRow } from './sites.repository.js';
import { toApiAdaptiveSchema, toApiCustomization, toApiShareLink, toApiSite, toApiSiteSection, toApiSiteSectionGroup, toApiVisitorAuth } from './sites.mapper.js';
import { verifySiteHostname } from './hostnames.service.js';
import * as sites from './sites.service.js';
import { requireSite } from './structure.service.js';
import { mapSiteSpaces, shareKeyOpens, structureContext, viewerOf } from './views.js';
import { siteChange } from './site-events.js';

const customizationOf = (site: SiteRow) => toApiCustomization(site.customization as Schemas['SiteCustomizationInput'] | null, site.title);

/** The published view's structure, mapped (spaces embedded where the caller may see them). */
async function publishedStructure(app: AppContext, viewer: Awaited<ReturnType<typeof viewerOf>>, site: SiteRow, resolved: PublishedStructure, shareKey: string | undefined) {
  const siteSpaces = resolved.type === 'siteSpaces' ? resolved.siteSpaces : resolved.items.flatMap((item) => (item.kind === 'section' ? [item] : item.sections)).flatMap((entry) => entry.siteSpaces);
  const sections = resolved.type === 'siteSpaces' ? [] : resolved.items.flatMap((item) => (item.kind === 'section' ? [item] : item.sections));
  const context = await structureContext(app, viewer, site, siteSpaces.map((row) => row.spaceId), new Map(sections.map(({ section }) => [section.id, section.path])), shareKey);
  if (resolved.type === 'siteSpaces') return { type: 'siteSpaces' as const, structure: mapSiteSpaces(resolved.siteSpaces, context) };
  const section = (entry: (typeof sections)[number]) => toApiSiteSection(entry.section, mapSiteSpaces(entry.siteSpaces, context), context);
  return {
    type: 'sections' as const,
    structure: resolved.items.map((item) => (item.kind === 'section' ? section(item) : toApiSiteSectionGroup(item.group, item.sections.map(section)))),
  };
}

export const siteHandlers = {
  async listSites({ access, query, app }) {
    const organizationId = access.organization.id;
    const page = await keysetPage(app.db, filteredSitesQuery(app.db, organizationId, query), {
      keys: newestFirst('s'),
      request: query,
      list: { operation: 'listSites', within: organizationId, filters: [query.space ?? null, query.title ?? null, query.published ?? null] },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiSite(row, access.role, app.urls, app.config.sites)) } };
  },

  async createSite({ caller, access, body, app }) {
    const siteId = await sites.createSite(app, caller, access.organization.id, body, access.readableSpaces);
    return { status: 201, body: toApiSite(await requireSite(app.db, access.organization.id, siteId), access.role, app.urls, app.config.sites) };
  },

  async getSiteById({ access, params, app }) {
    return { status: 200, body: toApiSite(await requireSite(app.db, access.organization.id, params.siteId), access.role, app.urls, app.config.sites) };
  },

  async updateSiteById({ caller, access, params, body, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => sites.patchSite({ ...app, db }, access.organization.id, params.siteId, body));
    return { status: 200, body: toApiSite(await requireSite(app.db, access.organization.id, params.siteId), access.role, app.urls, app.config.sites) };
  },

  async deleteSiteById({ caller, access, params, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => sites.removeSite({ ...app, db }, access.organization.id, params.siteId), 'site.deleted');
    return { status: 205 };
  },

  async publishSite({ caller, access, params, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => sites.setPublished({ ...app, db }, access.organization.id, params.siteId, true), 'site.published');
    return { status: 200, body: toApiSite(await requireSite(app.db, access.organization.id, params.siteId), access.role, app.urls, app.config.sites) };
  },

  async unpublishSite({ caller, access, params, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => sites.setPublished({ ...app, db }, access.organization.id, params.siteId, false), 'site.unpublished');
    return { status: 200, body: toApiSite(await requireSite(app.db, access.organization.id, params.siteId), access.role, app.urls, app.config.sites) };
  },

  async verifySiteHostname({ access, params, app }) {
    await verifySiteHostname(app, access.organization.id, params.siteId);
    return { status: 200, body: toApiSite(await requireSite(app.db, access.organization.id, params.siteId), access.role, app.urls, app.config.sites) };
  },

  async getSiteAdaptiveSchema({ access, params, app }) {
    return { status: 200, body: toApiAdaptiveSchema(await requireSite(app.db, access.organization.id, params.siteId), app.urls) };
  },

  async updateSiteAdaptiveSchema({ caller, access, params, body, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => sites.putAdaptiveSchema({ ...app, db }, access.organization.id, params.siteId, body.jsonSchema));
    return { status: 200, body: toApiAdaptiveSchema(await requireSite(app.db, access.organization.id, params.siteId), app.urls) };
  },

  async getPublishedContentSite({ caller, access, query, app }) {
    const { site, member, organizationAccess } = access;
    const opens = await shareKeyOpens(app.db, site, query.shareKey);
    const audienceAdmits = site.published && (site.visibility === 'public' || site.visibility === 'unlisted' || opens);
    if (!member && !audienceAdmits) throw notFound('Site');
    const viewer = await viewerOf(app, caller, site.organizationId);
    // Through the API the audience is a visitor without claims.
    const resolved = await resolvePublishedStructure(app.db, site.organizationId, site.id, { visitor: { claims: {} } });
    return {
      status: 200,
      body: {
        object: 'published-content-site',
        site: toApiSite(site, member ? organizationAccess?.role : undefined, app.urls, app.config.sites),
        structure: await publishedStructure(app, viewer, site, resolved, query.shareKey),
        customizations: { site: customizationOf(site) },
      },
    };
  },

  async getSiteCustomization({ access, params, app }) {
    return { status: 200, body: customizationOf(await requireSite(app.db, access.organization.id, params.siteId)) };
  },

  async updateSiteCustomization({ caller, access, params, body, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => sites.putCustomization({ ...app, db }, access.organization.id, params.siteId, body));
    return { status: 200, body: customizationOf(await requireSite(app.db, access.organization.id, params.siteId)) };
  },

  async listSiteShareLinks({ access, params, query, app }) {
    const site = await requireSite(app.db, access.organization.id, params.siteId);
    const page = await keysetPage(app.db, shareLinksQuery(app.db, site.organizationId, site.id), {
      keys: newestFirst('l'),
      request: query,
      list: { operation: 'listSiteShareLinks', within: `${site.organizationId}/${site.id}` },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map(toApiShareLink) } };
  },

  async createSiteShareLink({ caller, access, params, body, app }) {
    const { link, key } = await siteChange(app, caller, access.organization.id, params.siteId, (db) => sites.createShareLink({ ...app, db }, caller, access.organization.id, params.siteId, body.label));
    const site = await requireSite(app.db, access.organization.id, params.siteId);
    const shareLink = toApiShareLink(link);
    return { status: 201, body: { ...shareLink, label: link.label, key, urls: { published: withShareKey(siteAddress(app.urls, site), key) } } };
  },

  async deleteSiteShareLink({ caller, access, params, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => sites.revokeShareLink({ ...app, db }, access.organization.id, params.siteId, params.shareLinkId));
    return { status: 205 };
  },

  async getSiteVisitorAuth({ access, params, app }) {
    return { status: 200, body: toApiVisitorAuth(await requireSite(app.db, access.organization.id, params.siteId)) };
  },

  async updateSiteVisitorAuth({ caller, access, params, body, app }) {
    const secret = await siteChange(app, caller, access.organization.id, params.siteId, (db) => sites.putVisitorAuth({ ...app, db }, access.organization.id, params.siteId, body.fallbackURL));
    return { status: 200, body: toApiVisitorAuth(await requireSite(app.db, access.organization.id, params.siteId), secret) };
  },

  async rotateSiteVisitorAuthSecret({ caller, access, params, app }) {
    const secret = await siteChange(app, caller, access.organization.id, params.siteId, (db) => sites.rotateVisitorAuthSecret({ ...app, db }, access.organization.id, params.siteId));
    return { status: 200, body: toApiVisitorAuth(await requireSite(app.db, access.organization.id, params.siteId), secret) };
  },
} satisfies AreaHandlers;
