// `sitemap.xml` of a public site: every page an anonymous visitor can read (the structure as a visitor
// without claims sees it), but hidden and no-index pages, with its last update; at most MAX_SITEMAP_URLS.
import { siteAddress } from '../../../../publication/site-addresses.js';
import { indexable } from '../site-chrome.js';
import { siteSpacePath, siteSpacesOf } from '../site-navigation.js';
import { visibleStructure } from '../site-state.js';
import type { SiteEndpoint } from '../site-visit.js';
import { spaceModel } from '../space-model.js';

const MAX_SITEMAP_URLS = 50_000;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const sitemapEndpoint: SiteEndpoint = {
  name: 'sitemap',
  audience: 'anyone',
  matches: ({ site, segments }) => segments.length === 1 && segments[0] === 'sitemap.xml' && indexable(site),
  async serve({ app, state }, res) {
    const { site, heads } = state;
    const { structure } = await visibleStructure(app, state, { claims: {} });
    const base = siteAddress(app.urls, site);
    const urls: string[] = [];
    for (const { section, siteSpace } of siteSpacesOf(structure)) {
      const head = heads.get(siteSpace.spaceId);
      if (!head) continue;
      const model = await spaceModel(app, site.organizationId, head.pagesRoot);
      for (const id of model.readingOrder) {
        const page = model.tree.pages.get(id)!;
        if (page.noIndex || page.noRobotsIndex || urls.length >= MAX_SITEMAP_URLS) continue;
        urls.push(`<url><loc>${escapeXml(`${base}${siteSpacePath(section, siteSpace)}/${model.pathById.get(id)}`)}</loc><lastmod>${page.updatedAt.slice(0, 10)}</lastmod></url>`);
      }
    }
    res.status(200).set({ 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'no-cache' });
    res.send(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`);
  },
};
