// The rate limiter's counters (http/rate-limit-store.ts). Single-key decisions go through
// rate-limiter-flexible's RateLimiterPostgres; the background writes of many keys at once are here, one
// statement for all of them, with the library's rule for a row (pinned version 11.4.0, `_upsert`): a
// window that has ended starts again with the new hits and a new end, a current one adds them.
import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { column, rawQuery } from '../db/raw-query.js';

const addHits = rawQuery({
  name: 'addRateLimitHits',
  columns: { key: column('rateLimits', 'key'), points: column('rateLimits', 'points'), expire: column('rateLimits', 'expire') },
  statement: (hits: { keys: string[]; points: number[] }, now: number, windowMs: number) => sql`
    INSERT INTO rate_limits (key, points, expire)
    SELECT key, points, ${now + windowMs}::bigint FROM unnest(${hits.keys}::text[], ${hits.points}::int[]) AS hits(key, points)
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN rate_limits.expire <= ${now} THEN excluded.points ELSE rate_limits.points + excluded.points END,
      expire = CASE WHEN rate_limits.expire <= ${now} THEN excluded.expire ELSE rate_limits.expire END
    RETURNING key, points, expire`,
  shapes: [[{ keys: [], points: [] }, 0, 0]],
});

/**
 * Adds `points` to each key (full keys, prefix included) in a window of `windowMs`; answers each key's
 * count and window end (epoch ms).
 */
export async function addRateLimitHits(db: Executor, hits: { keys: string[]; points: number[] }, windowMs: number) {
  return addHits.rows(db, hits, Date.now(), windowMs);
}

/** Deletes the rows of windows that ended more than `olderThanMs` ago. */
export async function deleteEndedRateLimits(db: Executor, olderThanMs: number): Promise<void> {
  await db.deleteFrom('rateLimits').where('expire', '<', Date.now() - olderThanMs).execute();
}
