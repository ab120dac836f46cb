// `{page address}.md`, and a page's own address asked for with `Accept: text/markdown`: the page as
// Markdown for agents (page-markdown.ts), found, redirected, cached and validated exactly as its HTML
// (endpoints/page.ts `servePage`): what a visitor may read as HTML they may read as Markdown, nothing more.
import type { Response } from 'express';
import { MARKDOWN_FORM_VERSION, renderPageMarkdown } from '../page-markdown.js';
import type { SiteEndpoint, SiteRequest } from '../site-visit.js';
import { servePage, type PageForm } from './page.js';

export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

export function sendMarkdown(res: Response, status: number, markdown: string, headers: Record<string, string> = {}) {
  res.status(status).set({ 'Content-Type': MARKDOWN_TYPE, ...headers }).send(markdown);
}

export const MARKDOWN_PAGE: PageForm = {
  version: MARKDOWN_FORM_VERSION,
  viewKind: 'markdown',
  suffix: '.md',
  render: (visit, structure, found) => renderPageMarkdown(visit, structure, found),
  send: sendMarkdown,
  notFound: (visit, res) =>
    sendMarkdown(res, 404, '# Page not found\n\nThere is no page at this address. It may have moved, or it is not published.\n', {
      'Cache-Control': visit.restricted ? 'private, no-store' : 'no-cache',
      'X-Robots-Tag': 'noindex',
    }),
};

/** The segments of the page a `.md` address names; undefined when the address is not one. */
function markdownAddress(segments: readonly string[]): readonly string[] | undefined {
  const last = segments.at(-1);
  if (!last || last.length <= 3 || !last.endsWith('.md')) return undefined;
  return [...segments.slice(0, -1), last.slice(0, -3)];
}

/** Whether the client prefers Markdown to HTML (an agent's `Accept: text/markdown`; a browser's `*\/*` gets HTML). */
const asksForMarkdown = ({ req }: SiteRequest) => Boolean(req.headers.accept?.includes('text/markdown')) && req.accepts(['text/html', 'text/markdown']) === 'text/markdown';

export const pageMarkdownEndpoint: SiteEndpoint = {
  name: 'page-markdown',
  audience: 'visitor',
  credentials: 'request',
  matches: (request) => markdownAddress(request.segments) !== undefined || asksForMarkdown(request),
  serve(visit, res) {
    const segments = markdownAddress(visit.segments);
    if (segments) return servePage(visit, res, { form: MARKDOWN_PAGE, segments });
    return servePage(visit, res.append('Vary', 'Accept'), { form: MARKDOWN_PAGE });
  },
};
