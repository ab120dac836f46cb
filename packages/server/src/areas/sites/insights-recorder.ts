// What readers of published sites do, counted per day without cookies or anything of the reader
// (issue 28, "Insights"): page views (by people, or by agents through a page's Markdown or MCP: the
// `kind`), searches and whether they found anything. Recording is on the hot path of a page view, so
// it never waits on the database: each instance adds the counts up in memory, by (site, day, page,
// kind) and (site, day, query), and writes them every few seconds — sooner when many keys are
// waiting — in one upsert per table that adds to the day's rows (any number of instances add to the
// same rows). The buffer is written on shutdown (server.ts); what a crash loses is a few seconds of
// counts. A flood of distinct keys is bounded: past MAX_KEYS waiting, new keys are dropped (and
// counted in the log) until a write empties the buffer.
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { SiteViewKind } from '../../db/schema.js';
import type { Logger } from '../../logger.js';

/** How often the counts are written. */
const FLUSH_EVERY_MS = 5_000;
/** Keys waiting that start a write at once. */
const FLUSH_AT_KEYS = 2_000;
/** Keys waiting beyond which new ones are dropped. */
const MAX_KEYS = 20_000;
/** Rows per statement. */
const CHUNK = 1_000;

export type ViewRecord = { organizationId: string; siteId: string; spaceId: string; pageId: string; kind: SiteViewKind };
export type SearchRecord = { organizationId: string; siteId: string; query: string; results: number };

type ViewCount = ViewRecord & { day: string; views: number };
type SearchCount = Omit<SearchRecord, 'results'> & { day: string; searches: number; zeroResults: number };

/** A search as insights count it: lowercased, spaces collapsed, at most 200 characters. */
export const normalizeQuery = (query: string): string => query.toLowerCase().replace(/\s+/g, ' ').trim().slice(0, 200);

export class SiteInsights {
  private views = new Map<string, ViewCount>();
  private searches = new Map<string, SearchCount>();
  private dropped = 0;
  private writing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private day = '';
  private dayUntil = 0;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS).unref();
  }

  /** Counts one read of a page (the site's own page endpoint; the Markdown and MCP endpoints with their kind). */
  recordView(view: ViewRecord): void {
    const day = this.today();
    const key = `${view.organizationId}\u0000${view.siteId}\u0000${day}\u0000${view.spaceId}\u0000${view.pageId}\u0000${view.kind}`;
    const counted = this.views.get(key);
    if (counted) counted.views += 1;
    else if (this.room()) this.views.set(key, { ...view, day, views: 1 });
  }

  /** Counts one search of a site with how many results it found. */
  recordSearch(search: SearchRecord): void {
    const query = normalizeQuery(search.query);
    if (query === '') return;
    const day = this.today();
    const key = `${search.organizationId}\u0000${search.siteId}\u0000${day}\u0000${query}`;
    const zero = search.results === 0 ? 1 : 0;
    const counted = this.searches.get(key);
    if (counted) {
      counted.searches += 1;
      counted.zeroResults += zero;
    } else if (this.room()) this.searches.set(key, { organizationId: search.organizationId, siteId: search.siteId, day, query, searches: 1, zeroResults: zero });
  }

  /** Writes what is waiting (one write at a time; a caller arriving meanwhile waits for it, then writes what came since). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.views.size === 0 && this.searches.size === 0) return;
    const views = [...this.views.values()];
    const searches = [...this.searches.values()];
    this.views = new Map();
    this.searches = new Map();
    this.writing = this.write(views, searches).finally(() => (this.writing = undefined));
    await this.writing;
  }

  /** Stops the timer and writes what is waiting (shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Whether a new key may wait; starts a write when many do. */
  private room(): boolean {
    const size = this.views.size + this.searches.size;
    if (size >= FLUSH_AT_KEYS && !this.writing) void this.flush();
    if (size < MAX_KEYS) return true;
    this.dropped += 1;
    return false;
  }

  /** The day (UTC) now, computed once a second at most. */
  private today(): string {
    const now = Date.now();
    if (now >= this.dayUntil) {
      this.day = new Date(now).toISOString().slice(0, 10);
      this.dayUntil = Math.min(now + 1_000, Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate() + 1));
    }
    return this.day;
  }

  private async write(views: ViewCount[], searches: SearchCount[]): Promise<void> {
    // Rows in one order on every instance, so two instances' upserts never wait on each other in a cycle.
    views.sort((a, b) => compare([a.organizationId, a.siteId, a.day, a.spaceId, a.pageId, a.kind], [b.organizationId, b.siteId, b.day, b.spaceId, b.pageId, b.kind]));
    searches.sort((a, b) => compare([a.organizationId, a.siteId, a.day, a.query], [b.organizationId, b.siteId, b.day, b.query]));
    try {
      for (let start = 0; start < views.length; start += CHUNK) {
        await this.db
          .insertInto('sitePageViews')
          .values(views.slice(start, start + CHUNK))
          .onConflict((oc) => oc.columns(['organizationId', 'siteId', 'day', 'spaceId', 'pageId', 'kind']).doUpdateSet({ views: sql`site_page_views.views + excluded.views` }))
          .execute();
      }
      for (let start = 0; start < searches.length; start += CHUNK) {
        await this.db
          .insertInto('siteSearches')
          .values(searches.slice(start, start + CHUNK))
          .onConflict((oc) =>
            oc.columns(['organizationId', 'siteId', 'day', 'query']).doUpdateSet({
              searches: sql`site_searches.searches + excluded.searches`,
              zeroResults: sql`site_searches.zero_results + excluded.zero_results`,
            }),
          )
          .execute();
      }
    } catch (error) {
      // A site deleted meanwhile (its rows' foreign key), or the database away: these counts are lost.
      this.log.warn({ err: error, views: views.length, searches: searches.length }, 'site insights: counts not written');
    }
    if (this.dropped > 0) {
      this.log.warn({ dropped: this.dropped }, 'site insights: counts dropped while the buffer was full');
      this.dropped = 0;
    }
  }
}

function compare(a: readonly string[], b: readonly string[]): number {
  for (let index = 0; index < a.length; index++) {
    if (a[index]! < b[index]!) return -1;
    if (a[index]! > b[index]!) return 1;
  }
  return 0;
}
