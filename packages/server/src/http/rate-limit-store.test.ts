// The front's behaviour when its store is unreachable (a real pool to a closed port: nothing answers).
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { SharedCounter, type Decision } from './rate-limit-store.js';

const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 1000 });
pool.on('error', () => {});
const db = new Kysely<never>({ dialect: new PostgresDialect({ pool }) });
afterAll(() => db.destroy());

describe('SharedCounter without its store', () => {
  it('keeps limiting on its own count, with no round trip after the first failure', async () => {
    const counter = new SharedCounter('token', 3, 60_000, db as never, pool, createLogger({ logLevel: 'silent' }), 60_000);
    // A window's first hit never waits for the store.
    const first = counter.hit('a');
    expect(first).not.toBeInstanceOf(Promise);
    expect(first).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    // Near the limit the store decides; it fails, and the hit is decided on this instance's count.
    expect(await counter.hit('a')).toMatchObject({ allowed: true, remaining: 1 });
    // The store is now known to be down: decided at once (no promise), still counted.
    const third = counter.hit('a');
    expect(third).not.toBeInstanceOf(Promise);
    expect(third).toMatchObject({ allowed: true, remaining: 0 });
    expect(counter.hit('a')).toMatchObject({ allowed: false, remaining: 0 });
    expect((first as Decision).resetAt).toBeGreaterThan(Date.now() + 59_000);
    await counter.flush(); // skipped while the store is down: nothing is lost, nothing throws
    expect(counter.hit('a')).toMatchObject({ allowed: false });
    // Another key's first hit does not wait for the store either.
    expect(counter.hit('b')).toMatchObject({ allowed: true, remaining: 2 });
  });
});
