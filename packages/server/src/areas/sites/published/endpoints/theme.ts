// `_assets/{theme}`: the site's theme stylesheet when this instance had not rendered the site yet
// (shared-assets.ts answers it from memory, before any lookup, from then on). Any visitor the site is
// there for may have it: the sign-in page of a visitor-auth site uses it too.
import { themeOf } from '../site-chrome.js';
import type { SiteEndpoint } from '../site-visit.js';
import { rememberTheme } from '../shared-assets.js';

export const themeEndpoint: SiteEndpoint = {
  name: 'theme',
  audience: 'anyone',
  matches: ({ app, site, segments }) => segments.length === 2 && segments[0] === '_assets' && segments[1] === rememberTheme(app.caches, themeOf(site)),
  serve({ site }, res) {
    res.status(200).set({ 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' }).send(themeOf(site));
  },
};
