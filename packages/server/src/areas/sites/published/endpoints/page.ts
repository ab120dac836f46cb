// Any other address: the page it names (site-page.ts) as HTML, or the site's 404. A rendered page is
// kept (the `sitePages` cache) under a key over everything it shows — the site and its version, the
// root, the visitor's structure, the head revision of every space of the site (revisions are
// immutable), the page — which is also its ETag: a repeat visit answers 304, a new visitor of the same
// view the kept bytes, so a cached view costs the one query of the site's state. Where the site has no
// page, its own redirects come before its 404 (site-redirects.ts).
import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { renderSitePage } from '../page-render.js';
import { indexable } from '../site-chrome.js';
import { findPage } from '../site-page.js';
import { siteRedirect } from '../site-redirects.js';
import { sendHtml } from '../site-responses.js';
import { etagMatches, sendNotFound, type SiteEndpoint, type SiteVisit } from '../site-visit.js';

/** Bumped when the rendering changes, so pages rendered before are not served again. */
const RENDER_VERSION = 3;

/** Answers the page at the visit's address; `otherwise` when there is none (else the site's 404). */
export async function servePage(visit: SiteVisit, res: Response, otherwise?: () => Promise<void>): Promise<void> {
  const { app, site } = visit;
  const visible = await visit.visible();
  // No page here: the site's own redirect of this address, else its 404.
  const notFound = async () => {
    const redirect = await siteRedirect(app, site, visit.root, visible.structure, visit.state.heads, visit.segments);
    if (!redirect) return sendNotFound(visit, res, visible.structure);
    const location = redirect.location.startsWith('/') ? `${redirect.location}${visit.url.search}` : redirect.location;
    res.status(redirect.permanent ? 301 : 302).set({ Location: location, 'Cache-Control': 'no-cache' }).end();
  };
  const lookup = await findPage(visit, visible, visit.segments);
  if (lookup.kind === 'none') return otherwise ? otherwise() : notFound();
  if (lookup.kind === 'empty') return notFound();
  if (lookup.kind === 'moved' || lookup.kind === 'group') {
    const location = lookup.kind === 'moved' ? `${lookup.location}${visit.url.search}` : lookup.location;
    res.status(lookup.kind === 'moved' ? 301 : 302).set({ Location: location, 'Cache-Control': 'no-cache' }).end();
    return;
  }
  const { found } = lookup;
  const { page } = found;
  // Counted in memory, written in batches (insights-recorder.ts): a view costs no query of its own.
  app.insights.recordView({ organizationId: site.organizationId, siteId: site.id, spaceId: found.located.siteSpace.spaceId, pageId: page.id, kind: 'page' });
  const noindex = !indexable(site) || page.noIndex || page.noRobotsIndex;
  const key = createHash('sha256')
    .update(
      JSON.stringify([
        RENDER_VERSION,
        site.id,
        site.updatedAt.getTime(),
        visit.root,
        visible.fingerprint,
        [...visit.state.heads.values()].map((item) => [item.spaceId, item.revisionId]).sort(),
        found.located.siteSpace.id,
        page.id,
      ]),
    )
    .digest('base64url');
  const etag = `"${key}"`;
  const headers: Record<string, string> = { ETag: etag, 'Cache-Control': visit.restricted ? 'private, no-cache' : 'public, no-cache' };
  if (noindex) headers['X-Robots-Tag'] = 'noindex';
  if (etagMatches(visit.req, etag)) {
    res.status(304).set(headers).end();
    return;
  }
  let html = app.caches.sitePages.get(key);
  if (html === undefined) {
    html = await renderSitePage(visit, visible.structure, found, noindex);
    app.caches.sitePages.set(key, html);
  }
  sendHtml(res, 200, html, headers);
}

export const pageEndpoint: SiteEndpoint = {
  name: 'page',
  audience: 'visitor',
  matches: () => true,
  serve: (visit, res) => servePage(visit, res),
};
