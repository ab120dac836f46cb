// `llms.txt` and `llms-full.txt` at the site's root (issue 31; the llmstxt.org format): the site as an
// agent's visitor sees it (site-agent-pages.ts), in navigation order.
//
// - `llms.txt`: `# {site title}`, a `> ` summary, then a `## ` section per site section / variant
//   listing `- [title](absolute .md address): description`. Small (a line per page): kept in the
//   `sitePages` cache under a key of the site's version and the visitor's structure, which is its ETag.
// - `llms-full.txt`: every listed page's Markdown, each preceded by its address. A site of 10,000 pages
//   is megabytes, so it is never built in memory: it streams, a batch of pages at a time (their bodies
//   loaded in one query per batch, each page's Markdown taken from or put in the cache the `.md`
//   addresses use), waiting for the client to drain. Its ETag is the same key: a repeat answers 304.
// - On a share-link site, every address in them carries the key the request came with (`?shareKey=`):
//   an agent following the links of a file keeps no cookie and may send no header, so the address is
//   all it has (docs/decisions.md, "llms.txt on a share-link site"). The key is then part of the cache key.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { loadDocuments } from '../../../../content/content-objects.repository.js';
import { MARKDOWN_FORM_VERSION, renderPageMarkdown } from '../page-markdown.js';
import { listedPages, listedSpaces, markdownHref, sitePageOf, type ListedSpace } from '../site-agent-pages.js';
import { customizationOf } from '../site-chrome.js';
import { viewKey } from '../site-page.js';
import type { VisibleStructure } from '../site-state.js';
import { etagMatches, siteOrigin, type SiteEndpoint, type SiteVisit } from '../site-visit.js';
import { MARKDOWN_TYPE } from './page-markdown.js';

/** Pages whose bodies llms-full.txt loads in one query. */
const FULL_BATCH = 100;

/** Text of a link's label: brackets escaped so a title cannot close it. */
const label = (text: string) => text.replace(/[\\[\]]/g, '\\$&');
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** What the addresses in the files carry: a share-link site's key, which an agent following them has no other way to send. */
const addressQuery = (visit: SiteVisit) => (visit.shareKey !== undefined ? `?shareKey=${encodeURIComponent(visit.shareKey)}` : '');

/** The view's key (and ETag): a share-link site's files differ by the key in their addresses. */
const fileKey = (visit: SiteVisit, visible: VisibleStructure, form: string) => viewKey(visit, visible, visit.shareKey !== undefined ? `${form}\n${visit.shareKey}` : form);

function summary(visit: SiteVisit, title: string, spaces: readonly ListedSpace[]): string {
  const sections = spaces.map((space) => space.heading);
  return `> ${oneLine(title)}: ${sections.length > 0 ? `documentation in ${sections.length === 1 ? 'one section' : `${sections.length} sections`} (${oneLine(sections.join(', '))})` : 'no pages published yet'}. Each link leads to a page as Markdown; ${siteOrigin(visit)}${visit.root}/llms-full.txt${addressQuery(visit)} holds every page in one file.`;
}

/** Answers 304 when the client holds the view `key` names; otherwise sets its headers. */
function validated(visit: SiteVisit, res: Response, key: string): boolean {
  const etag = `"${key}"`;
  res.set({ ETag: etag, 'Cache-Control': visit.restricted ? 'private, no-cache' : 'public, no-cache' });
  if (!etagMatches(visit.req, etag)) return false;
  res.status(304).end();
  return true;
}

async function serveIndex(visit: SiteVisit, res: Response): Promise<void> {
  const visible = await visit.visible();
  const key = fileKey(visit, visible, 'llms-1');
  if (validated(visit, res, key)) return;
  let text = visit.app.caches.sitePages.get(key);
  if (text === undefined) {
    const spaces = await listedSpaces(visit, visible.structure);
    const title = customizationOf(visit.site).title;
    const origin = siteOrigin(visit);
    const query = addressQuery(visit);
    const lines = [`# ${oneLine(title)}`, '', summary(visit, title, spaces)];
    for (const space of spaces) {
      const pages = listedPages(space);
      if (pages.length === 0) continue;
      lines.push('', `## ${oneLine(space.heading)}`, '');
      for (const page of pages) {
        const description = page.description ? `: ${oneLine(page.description)}` : '';
        lines.push(`- [${label(oneLine(page.title))}](${markdownHref(origin, visit.root, space, page.id)}${query})${description}`);
      }
    }
    text = `${lines.join('\n')}\n`;
    visit.app.caches.sitePages.set(key, text);
  }
  res.status(200).set('Content-Type', MARKDOWN_TYPE).send(text);
}

async function serveFull(visit: SiteVisit, res: Response): Promise<void> {
  const { app, site } = visit;
  const visible = await visit.visible();
  if (validated(visit, res, fileKey(visit, visible, 'llms-full-1'))) return;
  res.status(200).set('Content-Type', MARKDOWN_TYPE);
  if (visit.req.method === 'HEAD') return void res.end();
  const spaces = await listedSpaces(visit, visible.structure);
  const title = customizationOf(site).title;
  const origin = siteOrigin(visit);
  const query = addressQuery(visit);
  // The client leaving stops the work (and any page read in the parse pool).
  const left = new AbortController();
  res.on('close', () => left.abort());
  async function* text(): AsyncGenerator<string> {
    yield `# ${oneLine(title)}\n\n${summary(visit, title, spaces)}\n`;
    for (const space of spaces) {
      const pages = listedPages(space);
      for (let start = 0; start < pages.length; start += FULL_BATCH) {
        const batch = pages.slice(start, start + FULL_BATCH).map((page) => {
          const found = sitePageOf(space, page);
          const key = viewKey(visit, visible, MARKDOWN_FORM_VERSION, found);
          return { page, found, key, cached: app.caches.sitePages.get(key) };
        });
        const hashes = batch.flatMap(({ page, cached }) => (cached === undefined && page.documentHash ? [page.documentHash] : []));
        const bodies = hashes.length > 0 ? await loadDocuments(app.db, app.caches, site.organizationId, hashes) : new Map<string, string>();
        for (const { page, found, key, cached } of batch) {
          let markdown = cached;
          if (markdown === undefined) {
            markdown = await renderPageMarkdown(visit, visible.structure, found, { body: (page.documentHash && bodies.get(page.documentHash)) || '', signal: left.signal });
            app.caches.sitePages.set(key, markdown);
          }
          yield `\n---\n\nSource: ${markdownHref(origin, visit.root, space, page.id)}${query}\n\n${markdown}`;
        }
      }
    }
  }
  // Piped, so that each chunk waits for the client to take the ones before. (Waiting on the response's
  // own 'drain' leaked a listener per wait: the compression middleware forwards `on('drain')` to its
  // stream but not `off`.) A client that leaves ends the pipe, and the generator with it.
  try {
    await pipeline(Readable.from(text(), { objectMode: false }), res);
  } catch (error) {
    if (!left.signal.aborted) throw error;
  }
}

const atRoot = (name: string) => ({ segments }: { segments: readonly string[] }) => segments.length === 1 && segments[0] === name;

export const llmsEndpoint: SiteEndpoint = { name: 'llms.txt', audience: 'visitor', credentials: 'request', matches: atRoot('llms.txt'), serve: serveIndex };
export const llmsFullEndpoint: SiteEndpoint = { name: 'llms-full.txt', audience: 'visitor', credentials: 'request', matches: atRoot('llms-full.txt'), serve: serveFull };
