// `GET /metrics` beyond the request histogram: the database pool (in use, idle, waiting), the caches
// (entries, hits, misses), rate-limit refusals, and the job queue (queued, active, failed by queue;
// jobs run by outcome) — each present from the start and moving under load.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createMetrics } from '../../src/metrics.js';
import { startJobs } from '../../src/jobs/queue.js';
import { createOrganizationWithAdmin, createSpace, createUser } from '../support/factories.js';
import { useTestServer } from '../support/harness.js';

const TOKEN_BUDGET = 20;
const server = useTestServer({ env: { DB_POOL_SIZE: '2', RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_TOKEN: String(TOKEN_BUDGET), RATE_LIMIT_WINDOW_SECONDS: '3600' } });

/** The value of one series (`name{labels}`) in Prometheus' text format, or undefined when it is absent. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',').filter(Boolean);
    if (wanted.every((label) => present.includes(label)) && present.length === wanted.length) return Number(match[3]);
  }
  return undefined;
}

async function scrape(): Promise<string> {
  const response = await fetch(`${server().url}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

async function until(condition: () => Promise<boolean>, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) if (await condition()) return true;
  return condition();
}

describe('GET /metrics', () => {
  it('has the pool, cache and rate-limit series from the start', async () => {
    const text = await scrape();
    for (const state of ['in_use', 'idle']) expect(valueOf(text, 'db_pool_connections', { pool: 'requests', state }), state).toEqual(expect.any(Number));
    expect(valueOf(text, 'db_pool_waiting', { pool: 'requests' })).toBe(0);
    expect(valueOf(text, 'db_pool_max_connections', { pool: 'requests' })).toBe(2);
    for (const cache of ['tokens', 'counts']) {
      for (const name of ['cache_entries', 'cache_hits_total', 'cache_misses_total']) expect(valueOf(text, name, { cache }), `${name} ${cache}`).toEqual(expect.any(Number));
    }
    for (const policy of ['token', 'address']) expect(valueOf(text, 'http_rate_limit_refusals_total', { policy })).toBe(0);
  });

  it('the pool: connections in use, and queries waiting for one when all are taken', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    // Both connections of the pool (DB_POOL_SIZE=2) held by transactions of the test, on the server's own pool.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = [0, 1].map(() =>
      t.db.transaction().execute(async (trx) => {
        await trx.selectNoFrom((eb) => eb.val(1).as('one')).execute();
        await held;
      }),
    );
    expect(await until(async () => valueOf(await scrape(), 'db_pool_connections', { pool: 'requests', state: 'in_use' }) === 2, 10_000)).toBe(true);
    // A request now waits for a connection.
    const waiting = admin.client.GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: organization.id } } });
    expect(await until(async () => (valueOf(await scrape(), 'db_pool_waiting', { pool: 'requests' }) ?? 0) >= 1, 10_000)).toBe(true);
    release();
    await Promise.all(holding);
    expect((await waiting).response.status).toBe(200);
    const after = await scrape();
    expect(valueOf(after, 'db_pool_waiting', { pool: 'requests' })).toBe(0);
    expect(valueOf(after, 'db_pool_connections', { pool: 'requests', state: 'idle' })).toBeGreaterThan(0);
  });

  it('the caches: a token looked up again, a list counted again, are hits', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    await createSpace(t, admin, organization);
    const before = await scrape();
    for (let i = 0; i < 3; i++) {
      const { response } = await admin.client.GET('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId: organization.id } } });
      expect(response.status).toBe(200);
    }
    const after = await scrape();
    const moved = (name: string, cache: string) => valueOf(after, name, { cache })! - valueOf(before, name, { cache })!;
    // The first request looks the token up (a miss) and caches it; the next two find it.
    expect(moved('cache_misses_total', 'tokens')).toBeGreaterThanOrEqual(1);
    expect(moved('cache_hits_total', 'tokens')).toBeGreaterThanOrEqual(2);
    // The first list counts its spaces (a miss); the same list again, with nothing changed, does not.
    expect(moved('cache_misses_total', 'counts')).toBe(1);
    expect(moved('cache_hits_total', 'counts')).toBe(2);
    expect(valueOf(after, 'cache_entries', { cache: 'tokens' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'cache_entries', { cache: 'counts' })).toBeGreaterThanOrEqual(1);
  });

  it('rate limits: each refusal counted by the budget that was spent', async () => {
    const t = server();
    const user = await createUser(t);
    const before = valueOf(await scrape(), 'http_rate_limit_refusals_total', { policy: 'token' })!;
    let refused = 0;
    for (let i = 0; i < TOKEN_BUDGET + 5; i++) if ((await user.client.GET('/v1/user')).response.status === 429) refused++;
    expect(refused).toBeGreaterThan(0);
    const text = await scrape();
    expect(valueOf(text, 'http_rate_limit_refusals_total', { policy: 'token' })! - before).toBe(refused);
    expect(valueOf(text, 'http_rate_limit_refusals_total', { policy: 'address' })).toBe(0);
  });
});

describe('job metrics', () => {
  it('the queue by state (queued, active, failed) and the jobs this instance ran, by outcome', { timeout: 120_000 }, async () => {
    const metrics = createMetrics();
    let finish!: () => void;
    const blocked = new Promise<void>((resolve) => (finish = resolve));
    const jobs = await startJobs(
      server().databaseUrl,
      [
        { name: 'metrics-slow', handle: () => blocked },
        { name: 'metrics-failing', handle: async () => Promise.reject(new Error('a planned failure')) },
      ],
      createLogger({ logLevel: 'silent' }),
      { metrics },
    );
    const read = async (name: string, labels: Record<string, string>) => valueOf(await metrics.registry.metrics(), name, labels);
    try {
      for (const queue of ['metrics-slow', 'metrics-failing']) {
        for (const state of ['queued', 'active', 'failed']) expect(await read('job_queue_jobs', { queue, state }), `${queue} ${state}`).toBe(0);
      }
      await jobs.send('metrics-slow');
      await jobs.send('metrics-failing');
      // The slow job is taken and runs; the failing one is retried (pg-boss: twice) and then failed.
      expect(await until(async () => (await read('job_queue_jobs', { queue: 'metrics-slow', state: 'active' })) === 1, 30_000)).toBe(true);
      // Its worker takes one job at a time: a second one waits, queued.
      await jobs.send('metrics-slow');
      expect(await read('job_queue_jobs', { queue: 'metrics-slow', state: 'queued' })).toBe(1);
      expect(await until(async () => (await read('job_queue_jobs', { queue: 'metrics-failing', state: 'failed' })) === 1, 60_000)).toBe(true);
      expect(await read('jobs_processed_total', { queue: 'metrics-failing', outcome: 'failed' })).toBe(3);
      finish();
      expect(await until(async () => (await read('jobs_processed_total', { queue: 'metrics-slow', outcome: 'completed' })) === 2, 30_000)).toBe(true);
      expect(await read('job_queue_jobs', { queue: 'metrics-slow', state: 'active' })).toBe(0);
      expect(await read('job_queue_jobs', { queue: 'metrics-slow', state: 'queued' })).toBe(0);
    } finally {
      finish();
      await jobs.stop(1000);
    }
  });
});
