// SQL of a site's insights: sums over the daily counts (site_page_views, site_searches, written by
// insights-recorder.ts) and the feedback rows, over a range of days. Each reads the tables' primary
// key (or the feedback's (site, created_at) index) by its (organization, site, day) prefix.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { SiteFeedbackRating, SiteViewKind } from '../../db/schema.js';

export type InsightsRange = { organizationId: string; siteId: string; from: string; to: string };

/** Top lists' length. */
export const TOP = 50;

const day = (column: string) => sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;
/** A feedback's day (UTC). */
const feedbackDay = sql<string>`to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
const feedbackInRange = (range: InsightsRange) =>
  sql<boolean>`f.created_at >= (${range.from}::date)::timestamp AT TIME ZONE 'UTC' AND f.created_at < (${range.to}::date + 1)::timestamp AT TIME ZONE 'UTC'`;

export function viewsByDay(db: Executor, range: InsightsRange) {
  return db
    .selectFrom('sitePageViews as v')
    .select([day('v.day').as('day'), 'v.kind', sql<number>`sum(v.views)::int8`.as('views')])
    .where('v.organizationId', '=', range.organizationId)
    .where('v.siteId', '=', range.siteId)
    .where(sql<boolean>`v.day BETWEEN ${range.from}::date AND ${range.to}::date`)
    .groupBy(['v.day', 'v.kind'])
    .execute();
}

export function searchesByDay(db: Executor, range: InsightsRange) {
  return db
    .selectFrom('siteSearches as s')
    .select([day('s.day').as('day'), sql<number>`sum(s.searches)::int8`.as('searches'), sql<number>`sum(s.zero_results)::int8`.as('zeroResults')])
    .where('s.organizationId', '=', range.organizationId)
    .where('s.siteId', '=', range.siteId)
    .where(sql<boolean>`s.day BETWEEN ${range.from}::date AND ${range.to}::date`)
    .groupBy('s.day')
    .execute();
}

export function ratingsByDay(db: Executor, range: InsightsRange) {
  return db
    .selectFrom('siteFeedback as f')
    .select([feedbackDay.as('day'), 'f.rating', sql<number>`count(*)::int8`.as('count')])
    .where('f.organizationId', '=', range.organizationId)
    .where('f.siteId', '=', range.siteId)
    .where(feedbackInRange(range))
    .groupBy([feedbackDay, 'f.rating'])
    .execute();
}

/** The most viewed pages (all kinds of reads), with their views by kind. */
export function topPages(db: Executor, range: InsightsRange) {
  const count = (kind: SiteViewKind) => sql<number>`coalesce(sum(v.views) FILTER (WHERE v.kind = ${kind}), 0)::int8`;
  return db
    .selectFrom('sitePageViews as v')
    .select(['v.spaceId', 'v.pageId', count('page').as('page'), count('markdown').as('markdown'), count('mcp').as('mcp')])
    .where('v.organizationId', '=', range.organizationId)
    .where('v.siteId', '=', range.siteId)
    .where(sql<boolean>`v.day BETWEEN ${range.from}::date AND ${range.to}::date`)
    .groupBy(['v.spaceId', 'v.pageId'])
    .orderBy(sql`sum(v.views)`, 'desc')
    .orderBy('v.pageId')
    .limit(TOP)
    .execute();
}

export async function ratingsOfPages(db: Executor, range: InsightsRange, pageIds: readonly string[]): Promise<Array<{ pageId: string; rating: SiteFeedbackRating; count: number }>> {
  if (pageIds.length === 0) return [];
  return db
    .selectFrom('siteFeedback as f')
    .select(['f.pageId', 'f.rating', sql<number>`count(*)::int8`.as('count')])
    .where('f.organizationId', '=', range.organizationId)
    .where('f.siteId', '=', range.siteId)
    .where('f.pageId', 'in', pageIds)
    .where(feedbackInRange(range))
    .groupBy(['f.pageId', 'f.rating'])
    .execute();
}

/** The most frequent queries, by all searches or by those that found nothing. */
export function topQueries(db: Executor, range: InsightsRange, by: 'searches' | 'zeroResults') {
  const total = by === 'searches' ? sql<number>`sum(s.searches)::int8` : sql<number>`sum(s.zero_results)::int8`;
  return db
    .selectFrom('siteSearches as s')
    .select(['s.query', total.as('searches')])
    .where('s.organizationId', '=', range.organizationId)
    .where('s.siteId', '=', range.siteId)
    .where(sql<boolean>`s.day BETWEEN ${range.from}::date AND ${range.to}::date`)
    .groupBy('s.query')
    .having(total, '>', 0)
    .orderBy(total, 'desc')
    .orderBy('s.query')
    .limit(TOP)
    .execute();
}
