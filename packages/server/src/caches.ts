// The server's in-memory caches, in one place (issue 27, item 4): built once per server by server.ts
// onto the AppContext (`context.caches`), never in a module variable, so each server — each test's
// included — starts with its own, and nothing has to be cleared by hand. Every cache is one LRU of the
// lru-cache library, named, bounded in bytes (its share of CACHE_MEMORY_MB, in CACHE_BUDGETS below), and
// counted: `/metrics` shows its entries, bytes, budget, hits and misses (metrics.ts `cache`, registered
// for every cache by server.ts).
//
// Bytes are estimates of what an entry keeps alive on the heap, computed when it is stored and in
// constant time (no walk over a 10,000-page tree): text at 2 bytes a character (V8 keeps a string in one
// or two bytes a character: the larger bound), structured values at a per-entry figure measured with
// `process.memoryUsage()` on trees as the database returns them (docs/decisions.md, "Caches in the
// context"). Why none of them can serve stale data is written beside each cache's use, and in decisions.md.
import { LRUCache } from 'lru-cache';
import type { CacheStats as MetricsCacheStats } from './metrics.js';
import type { ViewerEntry } from './access/viewer.js';
import type { BodyTemplate, Chrome, FaviconEntry, SpaceModel, VisibleStructure } from './areas/sites/index.js';
import type { ResolvedTarget } from './areas/comments/index.js';
import type { CachedToken } from './auth/token-cache.js';
import type { DocumentLinks } from './content/links/extract.js';
import type { CountEntry } from './db/count-cache.js';
import type { Occurrence } from './content/links/status.js';
import type { FileEntry, FlatTree, PageTree, ReusableEntry } from './content/model.js';
import type { RevisionRow } from './content/revisions.repository.js';
import type { PagesFound } from './content/search/search.js';

/** What a cache reports at each scrape (metrics.ts `cache`): every figure, bytes and budget included. */
export type CacheStats = Required<MetricsCacheStats>;

/** A value a cache may keep: anything but null and undefined (lru-cache's own bound: undefined means absent). */
type Cacheable = NonNullable<unknown>;

/** A named LRU cache of string keys, bounded in bytes; `load` shares one load among concurrent callers. */
export class Cache<V extends Cacheable> {
  private readonly store: LRUCache<string, V, () => Promise<V>>;
  private hits = 0;
  private misses = 0;

  constructor(
    readonly name: string,
    readonly maxBytes: number,
    /** The bytes an entry keeps alive (an estimate, in constant time: see the file's header). */
    sizeOf: (value: V, key: string) => number,
    /** How long an entry may be served, for data that can change behind the cache; none: until evicted. */
    ttlMs?: number,
  ) {
    this.store = new LRUCache<string, V, () => Promise<V>>({
      maxSize: maxBytes,
      sizeCalculation: (value, key) => Math.max(1, Math.ceil(sizeOf(value, key))),
      ...(ttlMs === undefined ? {} : { ttl: ttlMs }),
      fetchMethod: (_key, _stale, { context }) => context(),
      // A load still answers its callers when its entry is evicted or deleted meanwhile.
      ignoreFetchAbort: true,
    });
  }

  /** The value at `key`; one `usable` refuses (say, of an older version) is absent, and counted a miss. */
  get(key: string, usable?: (value: V) => boolean): V | undefined {
    let value = this.store.get(key);
    if (value !== undefined && usable && !usable(value)) value = undefined;
    if (value === undefined) this.misses++;
    else this.hits++;
    return value;
  }

  /** Stores `value` (not at all when it alone is larger than the budget); `ttlMs` overrides the cache's. */
  set(key: string, value: V, ttlMs?: number): void {
    this.store.set(key, value, ttlMs === undefined ? undefined : { ttl: ttlMs });
  }

  delete(key: string): void {
    this.store.delete(key);
  }

  /** The keys of the entries `test` accepts (a scan of every entry: for rare invalidations). */
  keysWhere(test: (value: V) => boolean): string[] {
    const keys: string[] = [];
    for (const [key, value] of this.store.entries()) if (test(value)) keys.push(key);
    return keys;
  }

  clear(): void {
    this.store.clear();
  }

  /** Milliseconds `key` may still be served (Infinity without a time limit; 0 when absent). */
  remainingMs(key: string): number {
    return this.store.getRemainingTTL(key);
  }

  /** The value at `key`, else `load`'s (stored): concurrent callers of one key share one load. */
  async load(key: string, load: () => Promise<V>, ttlMs?: number): Promise<V> {
    const status: LRUCache.Status<string, V, () => Promise<V>> = {};
    const value = await this.store.fetch(key, { context: load, status, ...(ttlMs === undefined ? {} : { ttl: ttlMs }) });
    if (status.fetch === 'hit' || status.fetch === 'inflight') this.hits++;
    else this.misses++;
    // `load` returns a value (V excludes undefined) and aborted loads are not given up (ignoreFetchAbort).
    return value!;
  }

  stats(): CacheStats {
    return { entries: this.store.size, bytes: this.store.calculatedSize, maxBytes: this.maxBytes, hits: this.hits, misses: this.misses };
  }
}

const MiB = 1024 * 1024;

/** How long a published site's search answer is kept for the next visitor typing the same prefix. */
const SITE_SEARCH_TTL_MS = 60_000;

/** CACHE_MEMORY_MB's default: what the budgets below add up to. */
export const DEFAULT_CACHE_MEMORY_BYTES = 512 * MiB;

/**
 * Each cache's budget when the caches may use DEFAULT_CACHE_MEMORY_BYTES in all; another CACHE_MEMORY_MB
 * scales them all alike. The one place a cache's size is decided.
 */
export const CACHE_BUDGETS = {
  /** Page, file and reusable-content trees by root hash (content/tree-store.ts): every read of content. */
  trees: 120 * MiB,
  /** Markdown bodies by organization and hash (content/content-objects.repository.ts `loadDocuments`): page reads. */
  documentBodies: 32 * MiB,
  /** Committed revision rows by organization, space and id (content/revisions.repository.ts). */
  revisions: 8 * MiB,
  /** The stored links of bodies by hash (content/links/store.ts). */
  documentLinks: 24 * MiB,
  /** A revision's link occurrences before other spaces are looked up (content/links/report.ts). */
  linkReports: 16 * MiB,
  /** Comment targets resolved at a head revision (areas/comments/targets.ts). */
  commentTargets: 8 * MiB,
  /** A member's ranks in an organization, per listing version (access/viewer.ts). */
  viewers: 24 * MiB,
  /** The organization of a space or collection id: the hint that saves a lookup (access/items.ts). */
  itemOrganizations: 8 * MiB,
  /** Token lookups, invalidated by notifications (auth/token-cache.ts). */
  tokens: 16 * MiB,
  /** List counts per listing version (db/count-cache.ts). */
  counts: 2 * MiB,
  /** Published sites: rendered pages by everything they show (areas/sites/published/endpoints/page.ts). */
  sitePages: 64 * MiB,
  /** Published sites: page bodies rendered once per document, with holes for their links (body-template.ts). */
  siteBodies: 48 * MiB,
  /** Published sites: a space's pages as the site shows them, by tree (space-model.ts). */
  siteModels: 60 * MiB,
  /** Published sites: recent searches (what a visitor types), by spaces, their heads and the text (site-search.ts). */
  siteSearches: 4 * MiB,
  /** Published sites: paths pages had in recent revisions, by head (space-model.ts). */
  siteFormerPaths: 8 * MiB,
  /** Published sites: the structure a visitor sees, by structure version and claims (site-state.ts). */
  siteStructures: 16 * MiB,
  /** Published sites: icons fetched from the customization's addresses (site-favicon.ts). */
  siteFavicons: 32 * MiB,
  /** Published sites: theme stylesheets by name (shared-assets.ts). */
  siteThemes: 8 * MiB,
  /** Published sites: a site's look for its 429 page, by address (site-charge.ts). */
  siteChromes: 12 * MiB,
  /** Published sites: hosts that named no site a moment ago (site-target.ts). */
  siteUnknownHosts: 2 * MiB,
} as const;

export type CacheName = keyof typeof CACHE_BUDGETS;

/** Text's bytes at the larger of V8's two string representations. */
const text = (value: string | null | undefined) => (value ? 2 * value.length : 0);

/** Measured per entry (docs/decisions.md, "Caches in the context"): a page, a file, a reusable content. */
const PAGE_ENTRY_BYTES = 512;
const FILE_ENTRY_BYTES = 320;
const REUSABLE_ENTRY_BYTES = 256;
/** A revision row as the driver returns it: ids, three 32-byte root buffers, dates (an upper estimate). */
const REVISION_ROW_BYTES = 1024;

type AnyTree = PageTree | FlatTree<FileEntry> | FlatTree<ReusableEntry>;

function treeBytes(tree: AnyTree): number {
  if ('pages' in tree) return 256 + tree.pages.size * PAGE_ENTRY_BYTES;
  const first = tree.items.values().next().value;
  return 256 + tree.items.size * (first && 'blobHash' in first ? FILE_ENTRY_BYTES : REUSABLE_ENTRY_BYTES);
}

function structureBytes(visible: VisibleStructure): number {
  const { structure } = visible;
  const places = structure.type === 'siteSpaces' ? structure.siteSpaces.length : structure.items.reduce((sum, item) => sum + 1 + (item.kind === 'section' ? item.siteSpaces.length : item.sections.reduce((inner, entry) => inner + 1 + entry.siteSpaces.length, 0)), 0);
  return 512 + places * 768;
}

/** Builds every cache, their budgets scaled to `totalBytes` (CACHE_MEMORY_MB). */
export function createCaches(totalBytes = DEFAULT_CACHE_MEMORY_BYTES) {
  const budget = (name: CacheName) => Math.max(64 * 1024, Math.floor((CACHE_BUDGETS[name] * totalBytes) / DEFAULT_CACHE_MEMORY_BYTES));
  const cache = <V extends Cacheable>(name: CacheName, sizeOf: (value: V, key: string) => number, ttlMs?: number) => new Cache<V>(name, budget(name), sizeOf, ttlMs);
  return {
    trees: cache<AnyTree>('trees', treeBytes),
    documentBodies: cache<string>('documentBodies', (markdown, key) => 64 + text(key) + text(markdown)),
    revisions: cache<RevisionRow>('revisions', (revision, key) => REVISION_ROW_BYTES + text(key) + revision.parentIds.length * 64),
    documentLinks: cache<DocumentLinks>('documentLinks', (links) => 128 + links.anchors.reduce((sum, anchor) => sum + 48 + text(anchor), 0) + links.links.reduce((sum, link) => sum + 320 + text(link.href), 0)),
    linkReports: cache<Occurrence[]>('linkReports', (occurrences) => 64 + occurrences.length * 320),
    commentTargets: cache<ResolvedTarget>('commentTargets', (target, key) => 256 + text(key) + text(target.node?.preview) + text(target.formerPage?.title) + text(target.formerPage?.path)),
    viewers: cache<ViewerEntry>('viewers', (entry, key) => 256 + text(key) + entry.ranks.teamIds.length * 64 + entry.ranks.collectionIds.length * 96),
    itemOrganizations: cache<string>('itemOrganizations', (organizationId, key) => 96 + text(key) + text(organizationId)),
    // A minute at most: token changes are announced to every instance, and this bounds a missed one.
    tokens: cache<CachedToken>('tokens', (_entry, key) => 1024 + text(key), 60_000),
    counts: cache<CountEntry>('counts', (_entry, key) => 96 + text(key)),
    sitePages: cache<string>('sitePages', (html, key) => 64 + text(key) + text(html)),
    siteBodies: cache<BodyTemplate>('siteBodies', (template, key) => 256 + text(key) + template.parts.reduce((sum, part) => sum + 16 + text(part), 0) + template.holes.length * 160),
    // The model's own maps (paths both ways, reading order), ~400 bytes a page. Its tree is the `trees`
    // entry of the same root, counted there: counted twice, a 100,000-page space (~91 MB) was larger
    // than the whole budget, never kept, and rebuilt for every page and search result (~1 s each under
    // load; docs/decisions.md, "Published sites: search as you type at 100,000 pages").
    siteModels: cache<SpaceModel>('siteModels', (model) => 512 + model.tree.pages.size * 400),
    // A short time: the key has the spaces' head revisions, so an entry is never stale; the time only
    // lets the prefixes of a burst of typing go (site-search.ts).
    siteSearches: cache<PagesFound>(
      'siteSearches',
      (found, key) => 256 + text(key) + found.pages.reduce((sum, page) => sum + 256 + text(page.title) + text(page.path) + page.sections.reduce((inner, section) => inner + 96 + text(section.id) + text(section.title) + text(section.body), 0), 0),
      SITE_SEARCH_TTL_MS,
    ),
    siteFormerPaths: cache<ReadonlyMap<string, string>>('siteFormerPaths', (paths) => 128 + paths.size * 200),
    siteStructures: cache<VisibleStructure>('siteStructures', structureBytes),
    siteFavicons: cache<FaviconEntry>('siteFavicons', (entry, key) => 256 + text(key) + (entry.icon?.body.length ?? 0)),
    siteThemes: cache<string>('siteThemes', (css, key) => 64 + text(key) + text(css)),
    siteChromes: cache<{ chrome: Chrome; version: string }>('siteChromes', (entry, key) => 1024 + text(key) + text(entry.version) + entry.chrome.tabs.length * 256),
    siteUnknownHosts: cache<true>('siteUnknownHosts', (_seen, key) => 96 + text(key)),
  } satisfies Record<CacheName, NamedCache>;
}

export type Caches = ReturnType<typeof createCaches>;

/** What the metrics read of any cache. */
export type NamedCache = { readonly name: string; stats(): CacheStats };

/** Every cache, for the metrics. */
export const allCaches = (caches: Caches): NamedCache[] => Object.values(caches);
