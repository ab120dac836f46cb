// `search?q=`: the site's search page (the box's form), over what the visitor may read (site-search.ts).
// At `search` without `q`, a page of the site's own with that address comes first.
import type { Response } from 'express';
import { renderSearch } from '../site-layout.js';
import { sendHtml } from '../site-responses.js';
import { readSearchQuery, RESULTS_PER_PAGE, searchSite } from '../site-search.js';
import { siteChrome, type SiteEndpoint, type SiteVisit } from '../site-visit.js';
import { servePage } from './page.js';

async function serveSearch(visit: SiteVisit, res: Response): Promise<void> {
  const { app, site, root, url } = visit;
  const { structure } = await visit.visible();
  const chrome = siteChrome(visit, structure);
  const headers = { 'Cache-Control': visit.restricted ? 'private, no-store' : 'no-cache', 'X-Robots-Tag': 'noindex' };
  const query = readSearchQuery(url.searchParams, chrome.words);
  if ('problem' in query) {
    const text = (url.searchParams.get('q') ?? '').slice(0, 200);
    return sendHtml(res, 400, renderSearch(chrome, { query: text, problem: query.problem, total: 0, hits: [], page: 1 }), headers);
  }
  const found = await searchSite(app, site.organizationId, root, structure, visit.state.heads, query);
  if (query.page === 1) app.insights.recordSearch({ organizationId: site.organizationId, siteId: site.id, query: query.text, results: found.total });
  const pageAddress = (page: number) => `${root}/search?${new URLSearchParams({ q: query.text, ...(page > 1 ? { page: String(page) } : {}) }).toString()}`;
  const pages = Math.ceil(found.total / RESULTS_PER_PAGE);
  sendHtml(
    res,
    200,
    renderSearch(chrome, {
      query: query.text,
      total: found.total,
      totalIsLowerBound: found.totalIsLowerBound,
      hits: found.hits,
      page: query.page,
      previous: query.page > 1 ? pageAddress(query.page - 1) : undefined,
      next: query.page < Math.min(pages, 10) ? pageAddress(query.page + 1) : undefined,
    }),
    headers,
  );
}

export const searchEndpoint: SiteEndpoint = {
  name: 'search',
  audience: 'visitor',
  matches: ({ segments }) => segments.length === 1 && segments[0] === 'search',
  serve: (visit, res) => (visit.url.searchParams.has('q') ? serveSearch(visit, res) : servePage(visit, res, { otherwise: () => serveSearch(visit, res) })),
};
