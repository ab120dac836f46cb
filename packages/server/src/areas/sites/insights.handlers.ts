// What a published site's readers did, for the organization's admins: their page feedback (a list)
// and the site's insights (insights.service.ts).
import { keysetPage, newestFirst } from '../../db/pagination.js';
import type { AreaHandlers } from '../../http/handler.js';
import { feedbackQuery } from './feedback.repository.js';
import { toApiFeedback } from './insights.mapper.js';
import { siteInsights } from './insights.service.js';
import { requireSite } from './structure.service.js';

export const insightsHandlers = {
  async listSiteFeedback({ access, params, query, app }) {
    const site = await requireSite(app.db, access.organization.id, params.siteId);
    const filters = { pageId: query.pageId, rating: query.rating };
    const page = await keysetPage(app.db, feedbackQuery(app.db, site.organizationId, site.id, filters), {
      keys: newestFirst('f'),
      request: query,
      list: { operation: 'listSiteFeedback', within: `${site.organizationId}/${site.id}`, filters: [query.pageId ?? null, query.rating ?? null] },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map(toApiFeedback) } };
  },

  async getSiteInsights({ access, params, query, app }) {
    const site = await requireSite(app.db, access.organization.id, params.siteId);
    return { status: 200, body: await siteInsights(app, site.organizationId, site.id, query) };
  },
} satisfies AreaHandlers;
