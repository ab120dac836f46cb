// A zip of Markdown laid out as a GitBook space or a docs repository, as a tree of pages:
// - `.gitbook.yaml` may move the root (`root: 'docs/'`) and name the summary and readme files;
// - a single folder holding everything (a repository's download: `project-main/…`) is looked into;
// - `SUMMARY.md` (GitBook's table of contents) gives the tree: nested list items are pages (their link
//   names the file, their text the title), `## headings` start groups;
// - without one, folders give it: a folder's `README.md` (or `index.md`) is the folder's page, the root's
//   is the first page, other files and folders follow in natural order;
// - files the pages link to or show (GitBook keeps them in `.gitbook/assets/`) become files.
import { assertMarkdownParsable } from '../../content/markdown-check.js';
import { posix } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { parse as parseYaml } from 'yaml';
import type { ImportBudget } from './import-budget.js';
import { withoutNul } from './import-fetch.js';
import { cut, fileNameOf, MAX_BODY, MAX_DESCRIPTION, MAX_TITLE, type ImportedFile, type ImportedPage, type ImportPlan } from './import-plan.js';
import { markdownDestinations, type Destination } from './markdown-links.js';
import { plainText, readMarkdownFile } from './markdown-file.js';
import type { SourceRead } from './web-sources.js';
import type { ZipArchive } from './zip-archive.js';

/** One entry of the outline: a page (with the file it reads, when it has one) or a group. */
type OutlineItem = { title?: string; path?: string; group?: true; children: OutlineItem[] };
type MdNode = { type: string; depth?: number; url?: string; children?: MdNode[] };

const MARKDOWN = /\.(md|markdown|mdx)$/i;
const IGNORED = /(^|\/)(__MACOSX\/|\.DS_Store$|\.git\/)/;
const README = /^(readme|index)\.(md|markdown|mdx)$/i;
const naturally = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });

/** "getting-started_guide.md" → "Getting started guide". */
function humanize(name: string): string {
  const words = name.replace(MARKDOWN, '').replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

/** The archive's files by path under the layout's root (a lone top folder and `.gitbook.yaml`'s root taken off). */
class Layout {
  readonly files = new Map<string, string>();
  private readonly lowerCase = new Map<string, string>();
  summary = 'SUMMARY.md';
  readme = 'README.md';

  constructor(names: Iterable<string>) {
    const kept = [...names].filter((name) => !IGNORED.test(name));
    const tops = new Set(kept.map((name) => name.split('/')[0]));
    const strip = tops.size === 1 && kept.every((name) => name.includes('/')) ? [...tops][0]!.length + 1 : 0;
    for (const name of kept) this.add(name.slice(strip), name);
  }

  private add(path: string, entry: string) {
    this.files.set(path, entry);
    this.lowerCase.set(path.toLowerCase(), path);
  }

  /** Applies `.gitbook.yaml` (already read): its root becomes the layout's root. */
  applyConfig(config: { root?: unknown; structure?: { readme?: unknown; summary?: unknown } }): void {
    if (typeof config.structure?.summary === 'string') this.summary = posix.normalize(config.structure.summary);
    if (typeof config.structure?.readme === 'string') this.readme = posix.normalize(config.structure.readme);
    if (typeof config.root !== 'string') return;
    const root = posix.normalize(config.root).replace(/^(\.\/|\/)+/, '').replace(/\/?$/, '/');
    if (root === './' || root.startsWith('..')) return;
    const entries = [...this.files].filter(([path]) => path.startsWith(root));
    this.files.clear();
    this.lowerCase.clear();
    for (const [path, entry] of entries) this.add(path.slice(root.length), entry);
  }

  /** The path of a file, matched exactly or else ignoring case. */
  find(path: string): string | undefined {
    return this.files.has(path) ? path : this.lowerCase.get(path.toLowerCase());
  }

  isFolder(path: string): boolean {
    const prefix = path.replace(/\/?$/, '/');
    for (const file of this.files.keys()) if (file.startsWith(prefix)) return true;
    return false;
  }
}

/** Where a destination of a page leads inside the archive: a file's path, or undefined for an outside address. */
function resolveInArchive(layout: Layout, destination: string, from: string): { path: string; fragment: string } | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(destination) || destination.startsWith('//')) return undefined;
  const hashAt = destination.indexOf('#');
  const fragment = hashAt >= 0 ? destination.slice(hashAt) : '';
  let target = (hashAt >= 0 ? destination.slice(0, hashAt) : destination).replace(/\?.*$/, '');
  if (!target) return { path: from, fragment };
  try {
    target = decodeURIComponent(target);
  } catch {
    // Kept as written.
  }
  const joined = target.startsWith('/') ? posix.normalize(target.slice(1)) : posix.join(posix.dirname(from), target);
  if (joined.startsWith('..')) return undefined;
  const candidates = [joined];
  if (target.endsWith('/') || layout.isFolder(joined)) candidates.unshift(posix.join(joined, 'README.md'), posix.join(joined, 'index.md'));
  if (!posix.extname(joined)) candidates.push(`${joined}.md`);
  for (const candidate of candidates) {
    const found = layout.find(candidate.replace(/^\.\//, ''));
    if (found) return { path: found, fragment };
  }
  return undefined;
}

/** The tree `SUMMARY.md` describes. */
function summaryOutline(text: string): OutlineItem[] {
  const outline: OutlineItem[] = [];
  let group: OutlineItem | undefined;
  const items = (list: MdNode): OutlineItem[] =>
    (list.children ?? []).map((item) => {
      const paragraph = item.children?.find((child) => child.type === 'paragraph');
      const link = paragraph?.children?.find((child) => child.type === 'link');
      const nested = item.children?.find((child) => child.type === 'list');
      const title = plainText((link ?? paragraph ?? { type: 'text', value: '' }) as never).trim();
      return { ...(title ? { title } : {}), ...(link?.url ? { path: link.url } : {}), children: nested ? items(nested) : [] };
    });
  for (const node of (fromMarkdown(text) as MdNode).children ?? []) {
    if (node.type === 'heading' && (node.depth ?? 1) >= 2) {
      group = { title: plainText(node as never).trim() || 'Group', group: true, children: [] };
      outline.push(group);
    } else if (node.type === 'list') {
      (group ? group.children : outline).push(...items(node));
    }
  }
  return outline;
}

/** The tree the folders give: the root's readme first, then files and folders in natural order. */
function folderOutline(layout: Layout, folder: string): OutlineItem[] {
  const prefix = folder ? `${folder}/` : '';
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const path of layout.files.keys()) {
    if (!path.startsWith(prefix) || !MARKDOWN.test(path)) continue;
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash >= 0) folders.add(rest.slice(0, slash));
    else files.add(rest);
  }
  const outline: OutlineItem[] = [];
  if (folder === '') {
    const readme = layout.find(layout.readme);
    if (readme && files.delete(readme)) outline.push({ path: readme, children: [] });
    const summary = layout.find(layout.summary);
    if (summary) files.delete(summary);
  } else {
    // A folder's readme is the folder's own page, placed by its parent.
    for (const name of files) if (README.test(name)) files.delete(name);
  }
  const names = [...[...files].map((name) => ({ name, folder: false })), ...[...folders].map((name) => ({ name, folder: true }))];
  for (const { name, folder: isFolder } of names.sort((a, b) => naturally(a.name, b.name))) {
    if (!isFolder) {
      outline.push({ path: prefix + name, children: [] });
      continue;
    }
    const inside = prefix + name;
    const own = [...layout.files.keys()].find((path) => path.startsWith(`${inside}/`) && README.test(path.slice(inside.length + 1)));
    outline.push({ ...(own ? { path: own } : { title: humanize(name) }), children: folderOutline(layout, inside) });
  }
  return outline;
}

type Reader = { archive: ZipArchive; layout: Layout; budget: ImportBudget };

async function readText(reader: Reader, path: string): Promise<string | undefined> {
  const bytes = await reader.archive.read(reader.layout.files.get(path)!, reader.budget);
  return bytes && withoutNul(new TextDecoder('utf-8').decode(bytes));
}

/** Pages for the outline, in tree order, until a limit stops the import. */
async function readOutline(reader: Reader, outline: OutlineItem[], from: string): Promise<ImportedPage[]> {
  const pages: ImportedPage[] = [];
  for (const item of outline) {
    const { budget, layout } = reader;
    if (!budget.hasTime()) break;
    const target = item.path === undefined ? undefined : resolveInArchive(layout, item.path, from);
    const path = target && MARKDOWN.test(target.path) ? target.path : undefined;
    let page: ImportedPage;
    if (item.group) {
      page = { key: `group:${pages.length}:${item.title}`, title: cut(item.title ?? 'Group', MAX_TITLE), type: 'group', children: [], counted: false };
    } else if (path) {
      if (!budget.roomForPage()) break;
      const text = await readText(reader, path);
      if (text === undefined) break;
      budget.countPage();
      const file = readMarkdownFile(text);
      const name = posix.basename(path);
      const named = README.test(name) ? posix.basename(posix.dirname(path)) : name.replace(MARKDOWN, '');
      const fallback = named === '.' ? 'Introduction' : humanize(named);
      page = {
        key: path,
        title: cut(item.title ?? file.title ?? fallback, MAX_TITLE),
        ...(file.description ? { description: cut(file.description, MAX_DESCRIPTION) } : {}),
        type: 'document',
        slugFrom: named === '.' ? (item.title ?? file.title ?? fallback) : named,
        children: [],
        counted: true,
      };
      if (file.markdown.length <= MAX_BODY) page.markdown = file.markdown;
      else budget.skip(path, `its body is over ${MAX_BODY} characters: imported without it`);
    } else {
      if (item.path !== undefined) budget.skip(item.path, 'not a Markdown file of the archive');
      page = { key: `outline:${from}:${pages.length}`, title: cut(item.title ?? 'Untitled', MAX_TITLE), type: 'document', children: [], counted: false };
    }
    page.children = await readOutline(reader, item.children, from);
    pages.push(page);
    if (budget.stopped) break;
  }
  return pages;
}

/** Counts the outline's pages that name a Markdown file (what the import found). */
function countDocuments(layout: Layout, outline: OutlineItem[], from: string): number {
  let count = 0;
  for (const item of outline) {
    const target = item.path === undefined ? undefined : resolveInArchive(layout, item.path, from);
    if (target && MARKDOWN.test(target.path)) count++;
    count += countDocuments(layout, item.children, from);
  }
  return count;
}

export async function readDocsArchive(archive: ZipArchive, budget: ImportBudget): Promise<SourceRead> {
  const layout = new Layout(archive.entries.keys());
  const reader: Reader = { archive, layout, budget };
  const configPath = layout.find('.gitbook.yaml');
  if (configPath) {
    const text = await readText(reader, configPath);
    try {
      const config = text && parseYaml(text, { maxAliasCount: 100 });
      if (config && typeof config === 'object') layout.applyConfig(config as never);
    } catch {
      budget.skip(configPath, 'not valid YAML: ignored');
    }
  }
  const summaryPath = layout.find(layout.summary);
  const summaryText = summaryPath ? await readText(reader, summaryPath) : undefined;
  // SUMMARY.md is parsed here, in the request: it goes through the markdown gate first (a deep or
  // pathological outline is refused rather than overflowing the stack or holding the event loop).
  if (summaryText !== undefined) await assertMarkdownParsable([{ path: `/archive/${summaryPath}`, markdown: summaryText }]);
  const outline = summaryText !== undefined ? summaryOutline(summaryText) : folderOutline(layout, '');
  // SUMMARY.md's links are relative to itself; the folder outline names paths from the root.
  const from = summaryPath ?? '';
  const pages = await readOutline(reader, outline, from);
  const plan: ImportPlan = {
    pages,
    files: [],
    resolve: (destination: Destination, page: ImportedPage) => {
      const target = resolveInArchive(layout, destination.url, page.key);
      return target && { key: target.path, fragment: target.fragment };
    },
  };
  plan.files = await readLinkedFiles(reader, plan);
  return { plan, totalResources: countDocuments(layout, outline, from) };
}

/** Files of the archive the pages link to or show (Markdown files are pages, not files). */
async function readLinkedFiles(reader: Reader, plan: ImportPlan): Promise<ImportedFile[]> {
  const wanted: string[] = [];
  const seen = new Set<string>();
  const visit = (pages: ImportedPage[]) => {
    for (const page of pages) {
      for (const destination of page.markdown ? markdownDestinations(page.markdown) : []) {
        const target = plan.resolve(destination, page);
        if (target && !MARKDOWN.test(target.key) && !seen.has(target.key)) {
          seen.add(target.key);
          wanted.push(target.key);
        } else if (!target && destination.kind === 'image' && !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(destination.url)) {
          reader.budget.skip(destination.url, 'not in the archive');
        }
      }
      visit(page.children);
    }
  };
  visit(plan.pages);
  const files: ImportedFile[] = [];
  for (const path of wanted) {
    if (!reader.budget.hasTime()) break;
    const bytes = await reader.archive.read(reader.layout.files.get(path)!, reader.budget);
    if (!bytes) break;
    files.push({ key: path, name: fileNameOf(path), bytes });
  }
  return files;
}
