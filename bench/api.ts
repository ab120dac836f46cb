// The API benchmark (DESIGN.md §9): `GET /v1/spaces/{id}` and a 100-item space list through the full
// stack (auth, validation, access resolution), against a bare Express handler doing one primary-key
// query on the same database, in the same run, in paired rounds. The server under test gets core 0;
// the load generator and PostgreSQL share core 1. `GET /v1/spaces/{id}` runs twice per round, on a server
// with rate limits off and on one with them on (the production default), in alternating order.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { canPin, pin, processTreeCpuSeconds } from './lib/cpus.js';
import { startBenchDatabase } from './lib/database.js';
import { runScript, startScript, stop } from './lib/processes.js';
import { seed, SPACES } from './api/seed.js';

type LoadResult = {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  /** The server's CPU time per request, in microseconds (where /proc tells it). */
  cpuMicros?: number;
};

export type ApiBenchmarkResult = {
  rounds: Array<{ bare: LoadResult; byId: LoadResult; byIdLimited: LoadResult; byIdPublished: LoadResult; list: LoadResult; listSmall: LoadResult; ratio: number; limitedRatio: number; limitedVsOff: number; publishedRatio: number }>;
  medianRatio: number;
  /** Median of the rounds' req/s with rate limits on ÷ off (budget ≥ 0.95). */
  medianLimitedVsOff: number;
  /** Median of the rounds' server CPU time per request with rate limits on ÷ off (lower is better). */
  medianLimitedCpuVsOff?: number;
  /** The same for spaces in a published site (their `urls.published` is looked up). */
  medianPublishedRatio: number;
  listP99Max: number;
};

/** Runs `run` and adds the server's CPU time per request to its result. */
async function measured(serverPid: number, run: () => Promise<LoadResult>): Promise<LoadResult> {
  const before = processTreeCpuSeconds(serverPid);
  const result = await run();
  const after = processTreeCpuSeconds(serverPid);
  return before === undefined || after === undefined || !result.total ? result : { ...result, cpuMicros: ((after - before) / result.total) * 1e6 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function runApiBenchmark(options: { rounds: number; seconds: number }): Promise<ApiBenchmarkResult> {
  const database = await startBenchDatabase();
  const servers: Array<Awaited<ReturnType<typeof startScript>>> = [];
  try {
    const postmaster = database.postmasterPid();
    if (postmaster) pin(postmaster, 1);
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
    const seeded = await seed(db);
    await db.destroy();
    console.log(`seeded ${SPACES} spaces and ${seeded.tokens.length} tokens; pinning ${canPin ? 'on (server: core 0; load + database: core 1)' : 'unavailable'}`);

    const full = await startScript('api/full-server.ts', 0, { DATABASE_URL: database.url, RATE_LIMIT_ENABLED: 'false' });
    const limited = await startScript('api/full-server.ts', 0, { DATABASE_URL: database.url, RATE_LIMIT_ENABLED: 'true' });
    const bare = await startScript('api/bare-server.ts', 0, { DATABASE_URL: database.url, ORGANIZATION_ID: seeded.organizationId });
    servers.push(full, limited, bare);
    const fullUrl = `http://127.0.0.1:${full.port}`;
    const limitedUrl = `http://127.0.0.1:${limited.port}`;
    const bareUrl = `http://127.0.0.1:${bare.port}`;
    const byIdPaths = seeded.spaceIds.map((id) => `/v1/spaces/${id}`);
    const publishedPaths = seeded.publishedSpaceIds.map((id) => `/v1/spaces/${id}`);
    const barePaths = seeded.spaceIds.map((id) => `/bare/spaces/${id}`);
    // The same page size over 10,000 spaces (the organization) and over 250 (a collection): keyset pages
    // should cost the same whatever the total.
    const listPaths = [`/v1/orgs/${seeded.organizationId}/spaces?limit=100`];
    const smallListPaths = seeded.collectionIds.map((id) => `/v1/collections/${id}/spaces?limit=100`);

    const load = (url: string, paths: string[], tokens: string[], connections: number, seconds = options.seconds) =>
      runScript<LoadResult>('api/load.ts', 1, { url, paths, tokens, connections, seconds });
    // Warm up both servers (JIT, connection pools, PostgreSQL caches).
    await load(bareUrl, barePaths, [], 50, 3);
    await load(fullUrl, byIdPaths, seeded.tokens, 50, 3);
    await load(limitedUrl, byIdPaths, seeded.tokens, 50, 3);
    await load(fullUrl, publishedPaths, seeded.tokens, 50, 3);
    await load(fullUrl, listPaths, seeded.tokens, 16, 3);
    await load(fullUrl, smallListPaths, seeded.tokens, 16, 3);

    const rounds: ApiBenchmarkResult['rounds'] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const bareResult = await load(bareUrl, barePaths, [], 50);
      // Alternating which goes first, so that neither gains from the order (drift, caches).
      const limitsOff = () => measured(full.child.pid!, () => load(fullUrl, byIdPaths, seeded.tokens, 50));
      const limitsOn = () => measured(limited.child.pid!, () => load(limitedUrl, byIdPaths, seeded.tokens, 50));
      let byId: LoadResult;
      let byIdLimited: LoadResult;
      if (round % 2) {
        byId = await limitsOff();
        byIdLimited = await limitsOn();
      } else {
        byIdLimited = await limitsOn();
        byId = await limitsOff();
      }
      const byIdPublished = await load(fullUrl, publishedPaths, seeded.tokens, 50);
      const list = await load(fullUrl, listPaths, seeded.tokens, 16);
      const listSmall = await load(fullUrl, smallListPaths, seeded.tokens, 16);
      const ratio = byId.requestsPerSecond / bareResult.requestsPerSecond;
      const limitedRatio = byIdLimited.requestsPerSecond / bareResult.requestsPerSecond;
      const limitedVsOff = byIdLimited.requestsPerSecond / byId.requestsPerSecond;
      const publishedRatio = byIdPublished.requestsPerSecond / bareResult.requestsPerSecond;
      rounds.push({ bare: bareResult, byId, byIdLimited, byIdPublished, list, listSmall, ratio, limitedRatio, limitedVsOff, publishedRatio });
      console.log(
        `round ${round}: bare ${bareResult.requestsPerSecond.toFixed(0)} req/s (p50 ${bareResult.p50} ms, p99 ${bareResult.p99} ms) · ` +
          `GET /v1/spaces/{id} ${byId.requestsPerSecond.toFixed(0)} req/s (p50 ${byId.p50} ms, p99 ${byId.p99} ms) · ratio ${ratio.toFixed(2)} · ` +
          `rate limits on ${byIdLimited.requestsPerSecond.toFixed(0)} req/s (p50 ${byIdLimited.p50} ms, p99 ${byIdLimited.p99} ms) · ratio ${limitedRatio.toFixed(2)}, ${limitedVsOff.toFixed(3)} of limits off` +
          (byId.cpuMicros && byIdLimited.cpuMicros ? ` (server CPU per request ${byId.cpuMicros.toFixed(0)} µs off, ${byIdLimited.cpuMicros.toFixed(0)} µs on)` : '') +
          ` · in a published site ${byIdPublished.requestsPerSecond.toFixed(0)} req/s (p99 ${byIdPublished.p99} ms, ratio ${publishedRatio.toFixed(2)})` +
          ' · ' +
          `100-item page of 10,000 spaces ${list.requestsPerSecond.toFixed(0)} req/s (p50 ${list.p50} ms, p99 ${list.p99} ms) · ` +
          `of 250 spaces ${listSmall.requestsPerSecond.toFixed(0)} req/s (p50 ${listSmall.p50} ms, p99 ${listSmall.p99} ms)` +
          (byId.non2xx + byIdLimited.non2xx + list.non2xx + byId.errors + byIdLimited.errors + list.errors
            ? ` · NON-2XX/ERRORS ${byId.non2xx + byIdLimited.non2xx + list.non2xx}/${byId.errors + byIdLimited.errors + list.errors}`
            : ''),
      );
    }
    return {
      rounds,
      medianRatio: median(rounds.map((r) => r.ratio)),
      medianLimitedVsOff: median(rounds.map((r) => r.limitedVsOff)),
      ...(rounds.every((r) => r.byId.cpuMicros && r.byIdLimited.cpuMicros)
        ? { medianLimitedCpuVsOff: median(rounds.map((r) => r.byIdLimited.cpuMicros! / r.byId.cpuMicros!)) }
        : {}),
      medianPublishedRatio: median(rounds.map((r) => r.publishedRatio)),
      listP99Max: Math.max(...rounds.flatMap((r) => [r.list.p99, r.listSmall.p99])) };
  } finally {
    for (const server of servers) await stop(server.child);
    await database.stop();
  }
}
