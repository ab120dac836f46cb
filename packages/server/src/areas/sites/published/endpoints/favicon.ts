// `_favicon/{name}`: the icon or the logo of the site's customization, fetched by the server from its address
// (site-favicon.ts) and served from the site's own origin.
import { imageSources } from '../site-chrome.js';
import { favicon, faviconName } from '../site-favicon.js';
import { FILE_CSP, opensInline } from '../site-responses.js';
import { etagMatches, sendNotFound, type SiteEndpoint } from '../site-visit.js';

export const faviconEndpoint: SiteEndpoint = {
  name: 'favicon',
  audience: 'visitor',
  matches: ({ segments }) => segments.length === 2 && segments[0] === '_favicon',
  async serve(visit, res) {
    const { app, site } = visit;
    const name = visit.segments[1]!;
    const url = imageSources(site).find((source) => faviconName(source) === name);
    const icon = url ? await favicon(app.caches, url, app.config.outbound) : undefined;
    if (!icon) return sendNotFound(visit, res);
    const headers = {
      ETag: icon.etag,
      'Cache-Control': `${visit.restricted ? 'private' : 'public'}, max-age=86400`,
      // An SVG icon opened on its own runs nothing, and is not even shown: pages load it, nobody opens it.
      'Content-Security-Policy': FILE_CSP,
      ...(opensInline(icon.contentType) ? {} : { 'Content-Disposition': 'attachment' }),
    };
    if (etagMatches(visit.req, icon.etag)) {
      res.status(304).set(headers).end();
      return;
    }
    res.status(200).set({ ...headers, 'Content-Type': icon.contentType }).send(icon.body);
  },
};
