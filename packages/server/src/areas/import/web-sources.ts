// The sources read over HTTP: `website` (a breadth-first crawl of same-origin pages), `html` (one
// page) and `markdown` (one document), and the images their pages show. The first address failing
// fails the import; a later page or image failing is left out and listed.
import type { Config } from '../../config.js';
import { invalidField, unprocessable, type HttpError } from '../../errors.js';
import { OutboundError } from '../../outbound.js';
import { readImageInfo } from '../../content/image-info.js';
import type { ImportBudget } from './import-budget.js';
import { BudgetExhausted, fetchFailure, fetchForImport, textOf, type Fetched } from './import-fetch.js';
import { cut, fileNameOf, MAX_DESCRIPTION, MAX_TITLE, type ImportedFile, type ImportedPage, type ImportPlan } from './import-plan.js';
import type { ReadBody } from './import-parse.js';
import type { ImportParser } from './import-parser.js';
import type { Destination } from '../../content/markdown-links.js';

export type SourceRead = { plan: ImportPlan; totalResources: number };
type Limits = { outbound: Config['outbound']; maxFileBytes: number };

/** A page's body as read (with its destinations), or left out with the reason listed in `skipped`. */
export function bodyOf(body: ReadBody, key: string, budget: ImportBudget): Pick<ImportedPage, 'markdown' | 'destinations'> {
  if ('refused' in body) {
    budget.skip(key, body.refused);
    return {};
  }
  return { markdown: body.markdown, destinations: body.destinations };
}

/** An address as a key: absolute, without its fragment. */
export function addressKey(url: string, base?: string): string | undefined {
  try {
    const parsed = new URL(url, base);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    parsed.hash = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}

/** The first address of an import failed: what the caller gave is unusable (400) or unreadable (422). */
function sourceFailure(url: string, error: unknown): HttpError {
  if (error instanceof OutboundError && (error.code === 'BAD_URL' || error.code === 'FORBIDDEN_ADDRESS')) return invalidField('/body/url', error.message);
  return unprocessable(`${url} could not be fetched: ${fetchFailure(error)}`);
}

async function fetchSource(url: string, budget: ImportBudget, limits: Limits): Promise<Fetched> {
  try {
    return await fetchForImport(url, budget, limits.outbound);
  } catch (error) {
    if (error instanceof BudgetExhausted) throw unprocessable(`${url} could not be read within the import's ${budget.stoppedBy} limit`);
    throw sourceFailure(url, error);
  }
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const isHtml = (response: Fetched) =>
  response.contentType ? HTML_TYPES.has(response.contentType) : /^\s*(<!doctype html|<html)/i.test(response.body.subarray(0, 512).toString('latin1'));

// Addresses whose last segment says they are not pages: not crawled, not counted.
const NOT_A_PAGE = /\.(png|jpe?g|gif|webp|svg|ico|bmp|tiff?|css|js|mjs|map|json|xml|rss|atom|pdf|zip|gz|tgz|tar|rar|7z|exe|dmg|mp3|mp4|webm|mov|avi|wav|ogg|woff2?|ttf|otf|eot|txt|csv|docx?|xlsx?|pptx?)$/i;

/** Resolves destinations against the page's own address; redirected addresses to where they led. */
function webResolver(aliases: ReadonlyMap<string, string>): ImportPlan['resolve'] {
  return (destination: Destination, page: ImportedPage) => {
    let parsed: URL;
    try {
      parsed = new URL(destination.url, page.key);
    } catch {
      return undefined;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    const fragment = parsed.hash;
    const key = addressKey(parsed.href)!;
    return { key: aliases.get(key) ?? key, fragment, absolute: parsed.href };
  };
}

const segmentsOf = (key: string) => {
  const url = new URL(key);
  return url.pathname.split('/').filter(Boolean).concat(url.search ? [url.search] : []);
};

/**
 * Places crawled pages by their paths: under the imported page with the longest enclosing path. The
 * first page (where the crawl started, often a home page) stays beside the others, never above them.
 */
function treeByPath(pages: ImportedPage[]): ImportedPage[] {
  const byPath = new Map<string, ImportedPage>();
  for (const page of pages.slice(1)) {
    const path = segmentsOf(page.key).join('/');
    if (path && !byPath.has(path)) byPath.set(path, page);
  }
  const top: ImportedPage[] = [];
  for (const page of pages) {
    const segments = segmentsOf(page.key);
    let parent: ImportedPage | undefined;
    for (let length = segments.length - 1; length > 0 && !parent; length--) parent = byPath.get(segments.slice(0, length).join('/'));
    (parent ? parent.children : top).push(page);
  }
  return top;
}

/** The page an HTML response holds, read in the parse pool; a reason when it cannot be read. */
async function pageFromHtml(response: Fetched, key: string, parser: ImportParser, budget: ImportBudget): Promise<{ page: ImportedPage; links: string[] } | { reason: string }> {
  const outcome = await parser.run('import-html', { html: textOf(response, true), url: response.url }, 'long');
  if (!outcome.ok) return { reason: outcome.reason };
  const read = outcome.value;
  if (!read.ok) return { reason: read.reason };
  const last = segmentsOf(key).filter((segment) => !segment.startsWith('?')).pop()?.replace(/\.(html?|php|aspx?)$/i, '');
  const title = cut(read.title ?? (last ? fileNameOf(last) : new URL(key).host), MAX_TITLE);
  return {
    page: {
      key,
      title,
      ...(read.description ? { description: cut(read.description, MAX_DESCRIPTION) } : {}),
      ...bodyOf(read.body, key, budget),
      type: 'document',
      ...(last ? { slugFrom: last } : {}),
      children: [],
      counted: true,
    },
    links: read.links,
  };
}

/** `website` (crawl) or `html` (the first page only). */
export async function readWebsite(url: string, crawl: boolean, budget: ImportBudget, limits: Limits, parser: ImportParser): Promise<SourceRead> {
  const startKey = addressKey(url);
  if (!startKey) throw invalidField('/body/url', 'must be an http(s) address');
  let origin = new URL(startKey).origin;
  const queue: Array<{ key: string; depth: number }> = [{ key: startKey, depth: 0 }];
  const found = new Set([startKey]);
  const read = new Set<string>();
  const aliases = new Map<string, string>();
  const pages: ImportedPage[] = [];
  let beyondDepth = false;
  while (queue.length > 0 && budget.hasTime() && budget.roomForPage()) {
    const { key, depth } = queue.shift()!;
    const first = pages.length === 0 && key === startKey;
    let response: Fetched;
    try {
      response = first ? await fetchSource(key, budget, limits) : await fetchForImport(key, budget, limits.outbound);
    } catch (error) {
      if (first) throw error;
      if (error instanceof BudgetExhausted) break;
      budget.skip(key, fetchFailure(error));
      continue;
    }
    const finalKey = addressKey(response.url)!;
    // A first address redirected (to https, to another host) sets the site the crawl stays on.
    if (first) origin = new URL(finalKey).origin;
    if (finalKey !== key) {
      aliases.set(key, finalKey);
      if (!first && new URL(finalKey).origin !== origin) {
        budget.skip(key, `redirected to another site (${finalKey})`);
        continue;
      }
      // Two addresses of one page: read once.
      if (read.has(finalKey)) {
        found.delete(key);
        continue;
      }
    }
    if (!isHtml(response)) {
      const type = response.contentType ?? 'unknown type';
      if (first) throw unprocessable(`${url} is not an HTML page (${type})`);
      budget.skip(key, `not an HTML page (${type})`);
      continue;
    }
    read.add(finalKey);
    const fromHtml = await pageFromHtml(response, finalKey, parser, budget);
    if ('reason' in fromHtml) {
      if (first) throw unprocessable(`${url} could not be read: ${fromHtml.reason}`);
      if (budget.stopped) break;
      budget.skip(key, fromHtml.reason);
      continue;
    }
    const { page, links } = fromHtml;
    pages.push(page);
    budget.countPage();
    if (!crawl) break;
    for (const link of links) {
      const linked = addressKey(link);
      if (!linked || new URL(linked).origin !== origin || NOT_A_PAGE.test(new URL(linked).pathname) || found.has(linked) || read.has(linked)) continue;
      found.add(linked);
      if (depth < budget.limits.maxDepth) queue.push({ key: linked, depth: depth + 1 });
      else beyondDepth = true;
    }
  }
  if (pages.length === 0) throw unprocessable(`${url}: no page could be imported`);
  if (beyondDepth) budget.stop('depth');
  const plan: ImportPlan = { pages: treeByPath(pages), files: [], resolve: webResolver(aliases) };
  plan.files = await fetchImages(plan, budget, limits);
  return { plan, totalResources: crawl ? found.size : 1 };
}

/** `markdown`: one document. */
export async function readMarkdownDocument(url: string, budget: ImportBudget, limits: Limits, parser: ImportParser): Promise<SourceRead> {
  const response = await fetchSource(url, budget, limits);
  if (isHtml(response)) throw unprocessable(`${url} is an HTML page, not a Markdown document: import it with the source "html"`);
  const type = response.contentType;
  if (type && !type.startsWith('text/') && type !== 'application/octet-stream' && type !== 'application/markdown') {
    throw unprocessable(`${url} is not a Markdown document (${type})`);
  }
  const read = await parser.run('import-markdown', { text: textOf(response) });
  if (!read.ok) throw unprocessable(`${url} could not be read: ${read.reason}`);
  const file = read.value;
  const key = addressKey(response.url)!;
  const name = fileNameOf(new URL(key).pathname, new URL(key).host).replace(/\.(md|markdown|mdx|txt)$/i, '');
  budget.countPage();
  const page: ImportedPage = {
    key,
    title: cut(file.title ?? name, MAX_TITLE),
    ...(file.description ? { description: cut(file.description, MAX_DESCRIPTION) } : {}),
    ...bodyOf(file.body, key, budget),
    type: 'document',
    slugFrom: name,
    children: [],
    counted: true,
  };
  const plan: ImportPlan = { pages: [page], files: [], resolve: webResolver(new Map()) };
  plan.files = await fetchImages(plan, budget, limits);
  return { plan, totalResources: 1 };
}

/** Every image the plan's pages show, fetched once each (a failure leaves the image's address as it was). */
async function fetchImages(plan: ImportPlan, budget: ImportBudget, limits: Limits): Promise<ImportedFile[]> {
  const wanted = new Set<string>();
  const visit = (pages: ImportedPage[]) => {
    for (const page of pages) {
      for (const destination of page.destinations ?? []) {
        if (destination.kind !== 'image') continue;
        const target = plan.resolve(destination, page);
        if (target) wanted.add(target.key);
      }
      visit(page.children);
    }
  };
  visit(plan.pages);
  const files: ImportedFile[] = [];
  for (const key of wanted) {
    // The pages' own limits (pages, depth) leave room for their images; time and bytes do not.
    if (budget.stoppedBy === 'time' || budget.stoppedBy === 'bytes') break;
    let response: Fetched;
    try {
      response = await fetchForImport(key, budget, limits.outbound, limits.maxFileBytes);
    } catch (error) {
      if (error instanceof BudgetExhausted) break;
      const tooLarge = error instanceof OutboundError && error.code === 'TOO_LARGE';
      budget.skip(key, tooLarge ? `larger than ${Math.min(limits.maxFileBytes, limits.outbound.maxBytes)} bytes` : fetchFailure(error));
      continue;
    }
    const image = readImageInfo(response.body);
    if (!image && !response.contentType?.startsWith('image/')) {
      budget.skip(key, `not an image (${response.contentType ?? 'unknown type'})`);
      continue;
    }
    files.push({ key, name: fileNameOf(new URL(key).pathname, 'image'), bytes: response.body, ...(response.contentType ? { contentType: response.contentType } : {}) });
  }
  return files;
}
