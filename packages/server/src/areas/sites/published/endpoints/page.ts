// Any other address: the page it names (site-page.ts) as HTML, or the site's 404. A rendered form of a
// page (the HTML here, the Markdown of page-markdown.ts) is kept (the `sitePages` cache) under a key over
// everything it shows (site-page.ts `viewKey`), which is also its ETag: a repeat visit answers 304,
// a new visitor of the same view the kept bytes, so a cached view costs the one query of the site's state.
// Where the site has no page, its own redirects come before its 404 (site-redirects.ts).
import type { Response } from 'express';
import type { SiteViewKind } from '../../../../db/column-types.js';
import type { PublishedStructure } from '../../published-structure.js';
import { renderSitePage } from '../page-render.js';
import { indexable } from '../site-chrome.js';
import { findPage, viewKey, type SitePage } from '../site-page.js';
import { siteRedirect } from '../site-redirects.js';
import { sendHtml } from '../site-responses.js';
import { etagMatches, sendNotFound, type SiteEndpoint, type SiteVisit } from '../site-visit.js';

/** A form a page is answered in: the same lookup, redirects, cache and ETag, its own bytes. */
export type PageForm = {
  /** Names the form in the cache key; bumped when its rendering changes, so forms rendered before are not served again. */
  version: string;
  /** What a read of this form counts as in the site's insights (insights-recorder.ts). */
  viewKind: SiteViewKind;
  /** Added to the address a moved page or a group redirects to (`.md` keeps a Markdown reader on Markdown). */
  suffix: string;
  render(visit: SiteVisit, structure: PublishedStructure, found: SitePage, noindex: boolean): Promise<string>;
  send(res: Response, status: number, body: string, headers: Record<string, string>): void;
  notFound(visit: SiteVisit, res: Response, structure: PublishedStructure): void;
};

export const HTML_PAGE: PageForm = {
  version: 'html-4',
  viewKind: 'page',
  suffix: '',
  render: renderSitePage,
  send: sendHtml,
  notFound: (visit, res, structure) => sendNotFound(visit, res, structure),
};

/** Answers the page at `segments` (the visit's address unless given) in `form`; `otherwise` when there is none (else the form's 404). */
export async function servePage(visit: SiteVisit, res: Response, options: { form?: PageForm; segments?: readonly string[]; otherwise?: () => Promise<void> } = {}): Promise<void> {
  const { app, site } = visit;
  const form = options.form ?? HTML_PAGE;
  const visible = await visit.visible();
  const segments = options.segments ?? visit.segments;
  // No page here: the site's own redirect of this address, else the form's 404.
  const notFound = async () => {
    const redirect = await siteRedirect(app, site, visit.root, visible.structure, visit.state.heads, segments);
    if (!redirect) return form.notFound(visit, res, visible.structure);
    const location = redirect.location.startsWith('/') ? `${redirect.location}${visit.url.search}` : redirect.location;
    res.status(redirect.permanent ? 301 : 302).set({ Location: location, 'Cache-Control': 'no-cache' }).end();
  };
  const lookup = await findPage(visit, visible, segments);
  if (lookup.kind === 'none') return options.otherwise ? options.otherwise() : notFound();
  if (lookup.kind === 'empty') return notFound();
  if (lookup.kind === 'moved' || lookup.kind === 'group') {
    const location = lookup.kind === 'moved' ? `${lookup.location}${form.suffix}${visit.url.search}` : `${lookup.location}${form.suffix}`;
    res.status(lookup.kind === 'moved' ? 301 : 302).set({ Location: location, 'Cache-Control': 'no-cache' }).end();
    return;
  }
  const { found } = lookup;
  const { page } = found;
  // Counted in memory, written in batches (insights-recorder.ts): a view costs no query of its own.
  app.insights.recordView({ organizationId: site.organizationId, siteId: site.id, spaceId: found.located.siteSpace.spaceId, pageId: page.id, kind: form.viewKind });
  const noindex = !indexable(site) || page.noIndex || page.noRobotsIndex;
  const key = viewKey(visit, visible, form.version, found);
  const etag = `"${key}"`;
  const headers: Record<string, string> = { ETag: etag, 'Cache-Control': visit.restricted ? 'private, no-cache' : 'public, no-cache' };
  if (noindex) headers['X-Robots-Tag'] = 'noindex';
  if (etagMatches(visit.req, etag)) {
    res.status(304).set(headers).end();
    return;
  }
  // Visitors asking for one view at once share its one rendering.
  const body = await app.caches.sitePages.load(key, () => form.render(visit, visible.structure, found, noindex));
  form.send(res, 200, body, headers);
}

export const pageEndpoint: SiteEndpoint = {
  name: 'page',
  audience: 'visitor',
  matches: () => true,
  // The same address answers Markdown to `Accept: text/markdown` (endpoints/page-markdown.ts): caches keep both.
  serve: (visit, res) => servePage(visit, res.append('Vary', 'Accept')),
};
