// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the root tsconfig compiles this file without the folder, so the module declaration is referenced here
/// <reference path="./turndown-plugin-gfm.d.ts" />
// One HTML page as an import reads it: its main content (Mozilla's Readability, the engine of
// Firefox's reader view, over a linkedom DOM) converted to Markdown (turndown, with GFM tables), its
// title and description, and every link of the whole page (navigation included: a crawl follows it).
// Addresses are made absolute first, so the Markdown names resources the way the crawl keys them.
// Runs in the parse pool (import-parse.ts): Readability is far from linear on deeply nested pages (5,000
// nested `<div>`s held the event loop 17 minutes), so a page nesting deeper than MAX_HTML_DEPTH is
// refused before it runs, and the pool's deadline stops any other slow page.
import { gfm } from '@joplin/turndown-plugin-gfm';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { withoutNul } from './import-fetch.js';

export type HtmlPage = { title: string | undefined; description: string | undefined; markdown: string; links: string[] };

/** Elements inside one another: browsers' own parsers stop nesting at 512; real pages stay far below 100. */
export const MAX_HTML_DEPTH = 256;

type Element = { children?: ArrayLike<Element> };

/** The depth of the element tree, walked with an explicit stack (a recursion would overflow first). */
function elementDepth(root: Element): number {
  let depth = 0;
  const pending: Array<[Element, number]> = [[root, 0]];
  while (pending.length > 0) {
    const [element, level] = pending.pop()!;
    if (level > depth) depth = level;
    for (const child of Array.from(element.children ?? [])) pending.push([child, level + 1]);
  }
  return depth;
}

/** A page nesting too deeply to be read (Readability and turndown recurse through every level). */
export class PageTooDeep extends Error {}

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
  if (elementDepth(document as unknown as Element) > MAX_HTML_DEPTH) throw new PageTooDeep(`its elements nest more than ${MAX_HTML_DEPTH} levels deep`);
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
