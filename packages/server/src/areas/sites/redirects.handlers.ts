// A site's redirects through the API: reads for members with the organization role `read`, writes
// for its admins (each a `site.updated` change: site-events.ts).
import { keysetPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { siteAddress } from '../../publication/site-addresses.js';
import { redirectLocation } from './published/site-redirects.js';
import { loadSiteState, visibleStructure } from './published/site-state.js';
import { findRedirect, findRedirectBySource, redirectsQuery } from './redirects.repository.js';
import { toApiRedirect } from './redirects.mapper.js';
import { changeRedirect, createRedirect, removeRedirect, requireSource, upsertRedirects } from './redirects.service.js';
import { siteChange } from './site-events.js';
import { pathAddress } from './sites.repository.js';
import { changeSite, requireSite } from './structure.service.js';

export const redirectHandlers = {
  async listSiteRedirects({ access, params, query, app }) {
    const site = await requireSite(app.db, access.organization.id, params.siteId);
    const page = await keysetPage(app.db, redirectsQuery(app.db, site.organizationId, site.id), {
      keys: [
        { column: 'r.source', direction: 'asc', value: (row) => row.source },
        { column: 'r.id', direction: 'asc', value: (row) => row.id },
      ],
      request: query,
      list: { operation: 'listSiteRedirects', within: `${site.organizationId}/${site.id}` },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map(toApiRedirect) } };
  },

  async createSiteRedirect({ caller, access, params, body, app }) {
    const context = { urls: app.urls, publicUrl: app.config.publicUrl };
    const row = await siteChange(app, caller, access.organization.id, params.siteId, (db) => changeSite(db, access.organization.id, params.siteId, (trx, site) => createRedirect(trx, context, site, body)));
    return { status: 201, body: toApiRedirect(row) };
  },

  async getSiteRedirect({ access, params, app }) {
    const site = await requireSite(app.db, access.organization.id, params.siteId);
    const row = await findRedirect(app.db, site.organizationId, site.id, params.siteRedirectId);
    if (!row) throw notFound('Redirect');
    return { status: 200, body: toApiRedirect(row) };
  },

  async updateSiteRedirect({ caller, access, params, body, app }) {
    const context = { urls: app.urls, publicUrl: app.config.publicUrl };
    const row = await siteChange(app, caller, access.organization.id, params.siteId, (db) =>
      changeSite(db, access.organization.id, params.siteId, (trx, site) => changeRedirect(trx, context, site, params.siteRedirectId, body)),
    );
    return { status: 200, body: toApiRedirect(row) };
  },

  async deleteSiteRedirect({ caller, access, params, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => changeSite(db, access.organization.id, params.siteId, (trx, site) => removeRedirect(trx, site, params.siteRedirectId)));
    return { status: 205 };
  },

  async upsertSiteRedirects({ caller, access, params, body, app }) {
    const context = { urls: app.urls, publicUrl: app.config.publicUrl };
    const result = await siteChange(app, caller, access.organization.id, params.siteId, (db) =>
      changeSite(db, access.organization.id, params.siteId, (trx, site) => upsertRedirects(trx, context, site, body.redirects)),
    );
    return { status: 200, body: { items: result.rows.map(toApiRedirect), created: result.created, updated: result.updated } };
  },

  async getSiteRedirectBySource({ access, params, query, app }) {
    const site = await requireSite(app.db, access.organization.id, params.siteId);
    const row = await findRedirectBySource(app.db, site.organizationId, site.id, requireSource(query.source, '/query/source'));
    if (!row) throw notFound('Redirect');
    // Where it leads for an anonymous visitor of the site, as the published site would answer now.
    const state = await loadSiteState(app.db, pathAddress(site.id));
    const structure = state && (await visibleStructure(app, state, { claims: {} })).structure;
    const location = state && structure ? await redirectLocation(app, site.organizationId, '', structure, state.heads, row) : undefined;
    const absolute = location === undefined ? undefined : location.startsWith('/') ? `${siteAddress(app.urls, site)}${location}` : location;
    return { status: 200, body: { redirect: toApiRedirect(row), ...(absolute ? { location: absolute } : {}) } };
  },
} satisfies AreaHandlers;
