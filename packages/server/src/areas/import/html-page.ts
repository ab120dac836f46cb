// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the root tsconfig compiles this file without the folder, so the module declaration is referenced here
/// <reference path="./turndown-plugin-gfm.d.ts" />
// One HTML page as an import reads it: its main content (Mozilla's Readability, the engine of
// Firefox's reader view, over a linkedom DOM) converted to Markdown (turndown, with GFM tables), its
// title and description, and every link of the whole page (navigation included: a crawl follows it).
// Addresses are made absolute first, so the Markdown names resources the way the crawl keys them.
import { gfm } from '@joplin/turndown-plugin-gfm';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { withoutNul } from './import-fetch.js';

export type HtmlPage = { title: string | undefined; description: string | undefined; markdown: string; links: string[] };

function absolute(value: string | null, base: string): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return undefined;
  }
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
turndown.use(gfm);
// Never content: whatever Readability kept of them.
turndown.remove(['script', 'style', 'noscript', 'iframe', 'object', 'embed', 'form', 'button', 'input', 'select', 'textarea', 'template']);

const text = (element: { textContent: string | null } | null | undefined) => element?.textContent?.replace(/\s+/g, ' ').trim() || undefined;

/** Reads `html`, the page at `url`. */
export function readHtmlPage(html: string, url: string): HtmlPage {
  const { document } = parseHTML(html);
  const base = absolute(document.querySelector('base[href]')?.getAttribute('href') ?? null, url) ?? url;
  const links: string[] = [];
  for (const anchor of document.querySelectorAll('a[href]')) {
    const href = absolute(anchor.getAttribute('href'), base);
    if (href && /^https?:/i.test(href)) {
      anchor.setAttribute('href', href);
      links.push(href);
    } else {
      anchor.removeAttribute('href');
    }
  }
  for (const image of document.querySelectorAll('img')) {
    // Lazy-loading pages keep the real address in `data-src`.
    const src = absolute(image.getAttribute('src') ?? image.getAttribute('data-src'), base);
    if (src) image.setAttribute('src', src);
    else image.remove();
  }
  const headings = document.querySelectorAll('h1');
  const heading = headings.length === 1 ? text(headings[0]) : undefined;
  const description = document.querySelector('meta[name="description"]')?.getAttribute('content')?.trim() || undefined;
  const documentTitle = text(document.querySelector('title'));

  // Readability changes the document it reads: links and metadata were taken above.
  const article = new Readability(document as never, { keepClasses: true }).parse();
  const content = article?.content ?? document.querySelector('main')?.innerHTML ?? document.body?.innerHTML ?? '';
  const title = heading ?? article?.title?.trim() ?? documentTitle;
  let markdown = turndown.turndown(content).trim();
  // The title is the page's own field: a first heading repeating it (Readability turns an h1 into an
  // h2) would show twice.
  if (title) {
    const first = /^#{1,6}\s+(.+?)\s*\n+/.exec(markdown);
    if (first && first[1]!.trim() === title) markdown = markdown.slice(first[0].length);
  }
  return { title: title && withoutNul(title), description: description && withoutNul(description), markdown: withoutNul(markdown), links };
}
