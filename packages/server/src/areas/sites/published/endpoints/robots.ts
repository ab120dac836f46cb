// `robots.txt`: public sites are open to crawlers and name their sitemap; every other site asks them
// to stay out.
import { siteAddress } from '../../../../publication/site-addresses.js';
import { indexable } from '../site-chrome.js';
import type { SiteEndpoint } from '../site-visit.js';

export const robotsEndpoint: SiteEndpoint = {
  name: 'robots',
  audience: 'anyone',
  matches: ({ segments }) => segments.length === 1 && segments[0] === 'robots.txt',
  serve({ app, site }, res) {
    const body = indexable(site) ? `User-agent: *\nAllow: /\nSitemap: ${siteAddress(app.urls, site)}/sitemap.xml\n` : 'User-agent: *\nDisallow: /\n';
    res.status(200).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' }).send(body);
  },
};
