// A site's insights over a range of days: the sums of insights.repository.ts put into the shape the
// API gives (a zero-filled series by day or week, the top pages with their ratings, the top and
// zero-result queries).
import type { AppContext } from '../../context.js';
import { invalidField } from '../../errors.js';
import type { Schemas } from '../../schemas.js';
import { ratingsByDay, ratingsOfPages, searchesByDay, topPages, topQueries, viewsByDay, type InsightsRange } from './insights.repository.js';

const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;

type Counts = Schemas['SiteInsightsCounts'];
const emptyCounts = (): Counts => ({ views: { page: 0, markdown: 0, mcp: 0 }, searches: 0, zeroResultSearches: 0, ratings: { bad: 0, ok: 0, good: 0 } });
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** The range asked for: `to` today (UTC) by default, `from` 29 days before it; 400 beyond a year or reversed. */
export function insightsRange(query: { from?: string | undefined; to?: string | undefined }): { from: string; to: string } {
  const to = query.to ?? dayOf(Date.now());
  const from = query.from ?? dayOf(msOf(to) - (DEFAULT_DAYS - 1) * DAY_MS);
  if (Number.isNaN(msOf(from))) throw invalidField('/query/from', 'is not a day');
  if (Number.isNaN(msOf(to))) throw invalidField('/query/to', 'is not a day');
  if (msOf(from) > msOf(to)) throw invalidField('/query/from', 'is after `to`');
  if ((msOf(to) - msOf(from)) / DAY_MS + 1 > MAX_DAYS) throw invalidField('/query/from', `the range may cover at most ${MAX_DAYS} days`);
  return { from, to };
}

/** The start of the period `day` falls in: the day itself, or its week's Monday (not before `from`). */
function periodStart(day: string, interval: 'day' | 'week', from: string): string {
  if (interval === 'day') return day;
  const ms = msOf(day);
  const monday = dayOf(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS);
  return monday < from ? from : monday;
}

export async function siteInsights(app: Pick<AppContext, 'db' | 'insights'>, organizationId: string, siteId: string, query: { from?: string; to?: string; interval?: 'day' | 'week' }): Promise<Schemas['SiteInsights']> {
  const { from, to } = insightsRange(query);
  const interval = query.interval ?? 'day';
  const range: InsightsRange = { organizationId, siteId, from, to };
  // What this instance counted and has not written yet shows too (other instances write within seconds).
  await app.insights.flush();
  const [views, searches, ratings, pages, queries, zeroQueries] = await Promise.all([
    viewsByDay(app.db, range),
    searchesByDay(app.db, range),
    ratingsByDay(app.db, range),
    topPages(app.db, range),
    topQueries(app.db, range, 'searches'),
    topQueries(app.db, range, 'zeroResults'),
  ]);
  const pageRatings = await ratingsOfPages(app.db, range, pages.map((row) => row.pageId));

  const series = new Map<string, Counts>();
  for (let ms = msOf(from); ms <= msOf(to); ms += DAY_MS) {
    const start = periodStart(dayOf(ms), interval, from);
    if (!series.has(start)) series.set(start, emptyCounts());
  }
  const totals = emptyCounts();
  for (const row of views) {
    series.get(periodStart(row.day, interval, from))!.views[row.kind] += row.views;
    totals.views[row.kind] += row.views;
  }
  for (const row of searches) {
    const counts = series.get(periodStart(row.day, interval, from))!;
    counts.searches += row.searches;
    counts.zeroResultSearches += row.zeroResults;
    totals.searches += row.searches;
    totals.zeroResultSearches += row.zeroResults;
  }
  for (const row of ratings) {
    series.get(periodStart(row.day, interval, from))!.ratings[row.rating] += row.count;
    totals.ratings[row.rating] += row.count;
  }
  const ratingsByPage = new Map<string, Counts['ratings']>();
  for (const row of pageRatings) {
    const counts = ratingsByPage.get(row.pageId) ?? { bad: 0, ok: 0, good: 0 };
    counts[row.rating] += row.count;
    ratingsByPage.set(row.pageId, counts);
  }
  return {
    from,
    to,
    interval,
    totals,
    series: [...series].map(([start, counts]) => ({ start, ...counts })),
    pages: pages.map((row) => ({ space: row.spaceId, page: row.pageId, views: { page: row.page, markdown: row.markdown, mcp: row.mcp }, ratings: ratingsByPage.get(row.pageId) ?? { bad: 0, ok: 0, good: 0 } })),
    topQueries: queries.map((row) => ({ query: row.query, searches: row.searches })),
    zeroResultQueries: zeroQueries.map((row) => ({ query: row.query, searches: row.searches })),
  };
}
