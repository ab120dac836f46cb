// Request counters of the rate limiter (http/rate-limit-store.ts), shared by every instance. The layout
// is rate-limiter-flexible's RateLimiterPostgres table (it is told the table exists). UNLOGGED: a counter
// lost in a crash only gives clients a fresh window, and the per-request writes skip the WAL.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE UNLOGGED TABLE rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rate_limits`.execute(db);
}
