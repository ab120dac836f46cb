// A zip of Markdown laid out as a GitBook space or a docs repository, as a tree of pages:
// - `.gitbook.yaml` may move the root (`root: 'docs/'`) and name the summary and readme files;
// - a single folder holding everything (a repository's download: `project-main/…`) is looked into;
// - `SUMMARY.md` (GitBook's table of contents) gives the tree: nested list items are pages (their link
//   names the file, their text the title), `## headings` start groups;
// - without one, folders give it: a folder's `README.md` (or `index.md`) is the folder's page, the root's
//   is the first page, other files and folders follow in natural order;
// - files the pages link to or show (GitBook keeps them in `.gitbook/assets/`) become files.
// Every file is parsed in the parse pool (import-parse.ts); the layout is indexed once, so the work
// done here is linear in the number of entries.
import { posix } from 'node:path';
import { invalidField, unprocessable } from '../../errors.js';
import type { ImportBudget } from './import-budget.js';
import { withoutNul } from './import-fetch.js';
import type { ImportParser } from './import-parser.js';
import { cut, fileNameOf, MAX_BODY, MAX_DESCRIPTION, MAX_TITLE, type ImportedFile, type ImportedPage, type ImportPlan } from './import-plan.js';
import type { Destination } from '../../content/markdown-links.js';
import type { OutlineItem } from './summary-outline.js';
import { bodyOf, type SourceRead } from './web-sources.js';
import type { ZipArchive } from './zip-archive.js';

/** Folders inside one another: deeper entries are left out (the outline and the page tree recurse through them). */
export const MAX_ARCHIVE_DEPTH = 32;

const MARKDOWN = /\.(md|markdown|mdx)$/i;
const IGNORED = /(^|\/)(__MACOSX\/|\.DS_Store$|\.git\/)/;
const README = /^(readme|index)\.(md|markdown|mdx)$/i;
const naturally = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });

/** "getting-started_guide.md" → "Getting started guide". */
function humanize(name: string): string {
  const words = name.replace(MARKDOWN, '').replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

type Folder = { files: Set<string>; folders: Set<string> };

/**
 * The archive's files by path under the layout's root (a lone top folder and `.gitbook.yaml`'s root
 * taken off), indexed by folder.
 */
class Layout {
  readonly files = new Map<string, string>();
  private readonly lowerCase = new Map<string, string>();
  private readonly folders = new Map<string, Folder>();
  summary = 'SUMMARY.md';
  readme = 'README.md';

  constructor(names: Iterable<string>, budget: ImportBudget) {
    const kept = [...names].filter((name) => {
      if (IGNORED.test(name)) return false;
      if (name.split('/').length <= MAX_ARCHIVE_DEPTH) return true;
      budget.skip(name, `nested in more than ${MAX_ARCHIVE_DEPTH} folders`);
      return false;
    });
    const tops = new Set(kept.map((name) => name.split('/')[0]));
    const strip = tops.size === 1 && kept.every((name) => name.includes('/')) ? [...tops][0]!.length + 1 : 0;
    for (const name of kept) this.add(name.slice(strip), name);
  }

  private folder(path: string): Folder {
    let folder = this.folders.get(path);
    if (!folder) this.folders.set(path, (folder = { files: new Set(), folders: new Set() }));
    return folder;
  }

  private add(path: string, entry: string) {
    this.files.set(path, entry);
    this.lowerCase.set(path.toLowerCase(), path);
    const segments = path.split('/');
    for (let i = 0; i < segments.length; i++) {
      const parent = segments.slice(0, i).join('/');
      if (i === segments.length - 1) this.folder(parent).files.add(segments[i]!);
      else this.folder(parent).folders.add(segments[i]!);
    }
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
    this.folders.clear();
    for (const [path, entry] of entries) this.add(path.slice(root.length), entry);
  }

  /** The path of a file, matched exactly or else ignoring case. */
  find(path: string): string | undefined {
    return this.files.has(path) ? path : this.lowerCase.get(path.toLowerCase());
  }

  isFolder(path: string): boolean {
    return this.folders.has(path.replace(/\/$/, ''));
  }

  /** The file names and folder names directly inside `path` ('' for the root). */
  contents(path: string): Folder {
    return this.folders.get(path) ?? { files: new Set(), folders: new Set() };
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

/** The tree the folders give: the root's readme first, then files and folders in natural order. */
function folderOutline(layout: Layout, folder: string): OutlineItem[] {
  const prefix = folder ? `${folder}/` : '';
  const inside = layout.contents(folder);
  const files = new Set([...inside.files].filter((name) => MARKDOWN.test(name)));
  // Folders holding Markdown somewhere below.
  const folders = new Set([...inside.folders].filter((name) => holdsMarkdown(layout, prefix + name)));
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
    const path = prefix + name;
    const own = [...layout.contents(path).files].find((file) => README.test(file));
    outline.push({ ...(own ? { path: `${path}/${own}` } : { title: humanize(name) }), children: folderOutline(layout, path) });
  }
  return outline;
}

/** Whether the folder holds a Markdown file, at any depth (memoised per layout: each folder is looked into once). */
const markdownFolders = new WeakMap<Layout, Map<string, boolean>>();
function holdsMarkdown(layout: Layout, path: string): boolean {
  let known = markdownFolders.get(layout);
  if (!known) markdownFolders.set(layout, (known = new Map()));
  const cached = known.get(path);
  if (cached !== undefined) return cached;
  const inside = layout.contents(path);
  const holds = [...inside.files].some((name) => MARKDOWN.test(name)) || [...inside.folders].some((name) => holdsMarkdown(layout, `${path}/${name}`));
  known.set(path, holds);
  return holds;
}

type Reader = { archive: ZipArchive; layout: Layout; budget: ImportBudget; parser: ImportParser };

async function readText(reader: Reader, path: string): Promise<string | undefined> {
  const bytes = await reader.archive.read(reader.layout.files.get(path)!, reader.budget);
  return bytes && withoutNul(new TextDecoder('utf-8').decode(bytes));
}

const TOO_LONG = `its body is over ${MAX_BODY} characters: imported without it`;

/**
 * A Markdown file of the archive read in the parse pool: its title, description and body (left out,
 * with the reason listed, when it cannot be read); undefined when the import's time ran out.
 */
async function readFile(reader: Reader, path: string, text: string): Promise<{ title?: string; description?: string; body: Pick<ImportedPage, 'markdown' | 'destinations'> } | undefined> {
  const { budget, parser } = reader;
  // Far over the limit: not worth a worker's time (front matter and a title line are short).
  if (text.length > 2 * MAX_BODY) {
    budget.skip(path, TOO_LONG);
    return { body: {} };
  }
  const read = await parser.run('import-markdown', { text });
  if (!read.ok) {
    if (budget.stopped) return undefined;
    budget.skip(path, `${read.reason}: imported without its body`);
    return { body: {} };
  }
  const { title, description, body } = read.value;
  const tooLong = !('refused' in body) && body.markdown.length > MAX_BODY;
  if (tooLong) budget.skip(path, TOO_LONG);
  return { ...(title ? { title } : {}), ...(description ? { description } : {}), body: tooLong ? {} : bodyOf(body, path, budget) };
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
      const file = await readFile(reader, path, text);
      if (!file) break;
      const name = posix.basename(path);
      const named = README.test(name) ? posix.basename(posix.dirname(path)) : name.replace(MARKDOWN, '');
      const fallback = named === '.' ? 'Introduction' : humanize(named);
      page = {
        key: path,
        title: cut(item.title ?? file.title ?? fallback, MAX_TITLE),
        ...(file.description ? { description: cut(file.description, MAX_DESCRIPTION) } : {}),
        ...file.body,
        type: 'document',
        slugFrom: named === '.' ? (item.title ?? file.title ?? fallback) : named,
        children: [],
        counted: true,
      };
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

export async function readDocsArchive(archive: ZipArchive, budget: ImportBudget, parser: ImportParser): Promise<SourceRead> {
  const layout = new Layout(archive.entries.keys(), budget);
  const reader: Reader = { archive, layout, budget, parser };
  const configPath = layout.find('.gitbook.yaml');
  const configText = configPath === undefined ? undefined : await readText(reader, configPath);
  if (configPath !== undefined && configText) {
    const read = await parser.run('import-yaml', { text: configText });
    if (!read.ok) budget.skip(configPath, `${read.reason}: ignored`);
    else if (!read.value.valid) budget.skip(configPath, 'not valid YAML: ignored');
    else if (read.value.config) layout.applyConfig(read.value.config);
  }
  const summaryPath = layout.find(layout.summary);
  const summaryText = summaryPath ? await readText(reader, summaryPath) : undefined;
  let outline: OutlineItem[];
  if (summaryText === undefined) {
    outline = folderOutline(layout, '');
  } else {
    // The outline gives the whole tree: one that cannot be read fails the import.
    const read = await parser.run('import-summary', { text: summaryText });
    if (!read.ok) throw unprocessable(`${summaryPath} could not be read: ${read.reason}`);
    if (!read.value.ok) throw invalidField(`/archive/${summaryPath}`, read.value.reason);
    outline = read.value.outline;
  }
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
      for (const destination of page.destinations ?? []) {
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
