// The API benchmark (docs/design/budgets.md, issue 19): `GET /v1/spaces/{id}` and 100-item space lists through the
// full stack (auth, validation, access resolution), each against its bare baseline on the same database,
// in the same run, in paired rounds: a bare Express handler doing one primary-key query, and a bare
// Kysely keyset page of the same rows (over 10,000 spaces and over 250). The server under test gets core
// 0; the load generator and PostgreSQL share core 1. Each pair of loads runs in alternating order, so
// that neither side gains from the order (drift, caches).
//
// Idempotency keys (issue 26): on a write, `PATCH /v1/spaces/{id}` with a new `Idempotency-Key` on every
// request against the same write without one, paired on the full server in each round (a key costs a
// claim and the stored answer: two statements); on a read, the two middlewares' share of a dispatch,
// counted in-process (api/idempotency-read-cost.ts), since it is far below a load test's noise.
//
// Rate limits on ÷ off is measured on two twin servers that serve nothing else, started anew and warmed
// up in each round:
// - a server that also serves the other loads keeps its caches (token cache, viewer cache, JIT) warmer
//   than one that idles between its runs, which alone made the second of two identical servers 0.64–0.84
//   as fast;
// - a server process keeps its own speed through a run: in an A/A run of four identical servers, their
//   medians stayed up to 4% apart, and one pair of twins for the whole benchmark measured 0.953 in one
//   run and 0.994 in the next with the same code, so each round compares a new pair;
// - within a round the twins run TWIN_PAIRS pairs of half-length runs in ABBA order (ABBA ABBA, each
//   side's runs combined): a single run swings by ±5% on this machine, and whichever ran second in a
//   pair measured 2–6% slower, so a plain alternation favoured one side.
import { loadavg } from 'node:os';
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
  rounds: Array<{
    bare: LoadResult;
    byId: LoadResult;
    byIdLimited: LoadResult;
    /** The same load on the rate-limited server's twin with limits off. */
    byIdUnlimited: LoadResult;
    byIdPublished: LoadResult;
    bareList: LoadResult;
    list: LoadResult;
    bareListSmall: LoadResult;
    listSmall: LoadResult;
    ratio: number;
    limitedRatio: number;
    /** Rate limits on ÷ off, on the twin servers. */
    limitedVsOff: number;
    publishedRatio: number;
    /** Full-stack list req/s ÷ the bare Kysely keyset list's (10,000 and 250 spaces; target ≥ 0.85). */
    listRatio: number;
    listSmallRatio: number;
    /** `PATCH /v1/spaces/{id}` without and with a new Idempotency-Key per request, same server. */
    write: LoadResult;
    writeKeyed: LoadResult;
    /** Keyed ÷ plain write req/s. */
    writeKeyedVsPlain: number;
  }>;
  medianRatio: number;
  medianListRatio: number;
  medianListSmallRatio: number;
  /** Median of the rounds' req/s with rate limits on ÷ off (budget ≥ 0.95). */
  medianLimitedVsOff: number;
  /** Median of the rounds' server CPU time per request with rate limits on ÷ off (lower is better). */
  medianLimitedCpuVsOff?: number;
  /** The same for spaces in a published site (their `urls.published` is looked up). */
  medianPublishedRatio: number;
  listP99Max: number;
  /** Median of the rounds' keyed ÷ plain write req/s, and of their server CPU per request (keyed ÷ plain). */
  medianWriteKeyedVsPlain: number;
  medianWriteKeyedCpuVsPlain?: number;
  /** The idempotency middlewares on a read: nanoseconds per dispatch with and without them (api/idempotency-read-cost.ts). */
  readCost: { withNs: number; withoutNs: number; costNs: number };
};

/** Runs `run` and adds the server's CPU time per request to its result. */
async function measured(serverPid: number, run: () => Promise<LoadResult>): Promise<LoadResult> {
  const before = processTreeCpuSeconds(serverPid);
  const result = await run();
  const after = processTreeCpuSeconds(serverPid);
  return before === undefined || after === undefined || !result.total ? result : { ...result, cpuMicros: ((after - before) / result.total) * 1e6 };
}

/** Runs of one load as one result: rates and medians averaged, the worst p99, CPU per request over all. */
function combined(runs: LoadResult[]): LoadResult {
  const total = runs.reduce((sum, run) => sum + run.total, 0);
  const mean = (value: (run: LoadResult) => number) => runs.reduce((sum, run) => sum + value(run), 0) / runs.length;
  return {
    requestsPerSecond: mean((run) => run.requestsPerSecond),
    p50: mean((run) => run.p50),
    p99: Math.max(...runs.map((run) => run.p99)),
    total,
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    ...(runs.every((run) => run.cpuMicros) && total ? { cpuMicros: runs.reduce((sum, run) => sum + run.cpuMicros! * run.total, 0) / total } : {}),
  };
}

/** Tokens of the seed's organization admins (its first members), who may rename any space. */
const ADMINS = 10;

/** Pairs of twin runs per round (see the header). */
const TWIN_PAIRS = 4;

const loadAverage = () => loadavg().map((value) => value.toFixed(1)).join(' ');

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
    const bare = await startScript('api/bare-server.ts', 0, { DATABASE_URL: database.url, ORGANIZATION_ID: seeded.organizationId });
    servers.push(full, bare);
    const fullUrl = `http://127.0.0.1:${full.port}`;
    const bareUrl = `http://127.0.0.1:${bare.port}`;
    const byIdPaths = seeded.spaceIds.map((id) => `/v1/spaces/${id}`);
    const publishedPaths = seeded.publishedSpaceIds.map((id) => `/v1/spaces/${id}`);
    const barePaths = seeded.spaceIds.map((id) => `/bare/spaces/${id}`);
    // The same page size over 10,000 spaces (the organization) and over 250 (a collection): keyset pages
    // should cost the same whatever the total.
    const listPaths = [`/v1/orgs/${seeded.organizationId}/spaces?limit=100`];
    const smallListPaths = seeded.collectionIds.map((id) => `/v1/collections/${id}/spaces?limit=100`);
    const bareListPaths = [`/bare/orgs/${seeded.organizationId}/spaces?limit=100`];
    const bareSmallListPaths = seeded.collectionIds.map((id) => `/bare/collections/${id}/spaces?limit=100`);

    const load = (url: string, paths: string[], tokens: string[], connections: number, seconds = options.seconds, write?: { keyed: boolean }) =>
      runScript<LoadResult>('api/load.ts', 1, { url, paths, tokens, connections, seconds, ...(write ? { method: 'PATCH', body: { title: 'Renamed by the benchmark' }, keyed: write.keyed } : {}) });
    // Writes by the organization's admins (the first tokens), on spaces of no published site.
    const adminTokens = seeded.tokens.slice(0, ADMINS);
    // Warm up both servers (JIT, connection pools, PostgreSQL caches).
    await load(bareUrl, barePaths, [], 50, 3);
    await load(fullUrl, byIdPaths, seeded.tokens, 50, 3);
    await load(fullUrl, publishedPaths, seeded.tokens, 50, 3);
    await load(fullUrl, listPaths, seeded.tokens, 16, 3);
    await load(fullUrl, smallListPaths, seeded.tokens, 16, 3);
    await load(bareUrl, bareListPaths, [], 16, 3);
    await load(bareUrl, bareSmallListPaths, [], 16, 3);
    await load(fullUrl, byIdPaths, adminTokens, 16, 3, { keyed: false });
    await load(fullUrl, byIdPaths, adminTokens, 16, 3, { keyed: true });

    // The read path of the idempotency middlewares, in-process on the server's core (see its header).
    const readCost = await runScript<ApiBenchmarkResult['readCost']>('api/idempotency-read-cost.ts', 0, {});
    console.log(`idempotency middlewares on a GET: ${readCost.costNs.toFixed(0)} ns per request (dispatch ${readCost.withoutNs.toFixed(0)} → ${readCost.withNs.toFixed(0)} ns)`);

    const rounds: ApiBenchmarkResult['rounds'] = [];
    /** Runs the loads in turn, in reverse order on even rounds; results in the given order. */
    const alternating = async <T>(round: number, runs: Array<() => Promise<T>>): Promise<T[]> => {
      const results: T[] = new Array(runs.length);
      const order = runs.map((_, i) => i);
      if (round % 2 === 0) order.reverse();
      for (const i of order) results[i] = await runs[i]!();
      return results;
    };
    /** The same pair by server CPU time per request (bare ÷ full): steadier than req/s on a busy machine. */
    const cpuRatio = (full: LoadResult, bare: LoadResult) => (full.cpuMicros && bare.cpuMicros ? `, by CPU per request ${(bare.cpuMicros / full.cpuMicros).toFixed(2)}` : '');
    const line = (result: LoadResult) =>
      `${result.requestsPerSecond.toFixed(0)} req/s (p50 ${result.p50} ms, p99 ${result.p99} ms${result.cpuMicros ? `, ${result.cpuMicros.toFixed(0)} µs CPU/req` : ''}${result.non2xx ? `, ${result.non2xx} non-2xx` : ''}${result.errors ? `, ${result.errors} errors` : ''})`;
    for (let round = 1; round <= options.rounds; round++) {
      const [bareResult, byId, byIdPublished] = (await alternating(round, [
        () => measured(bare.child.pid!, () => load(bareUrl, barePaths, [], 50)),
        () => measured(full.child.pid!, () => load(fullUrl, byIdPaths, seeded.tokens, 50)),
        () => measured(full.child.pid!, () => load(fullUrl, publishedPaths, seeded.tokens, 50)),
      ])) as [LoadResult, LoadResult, LoadResult];
      // The twins, new in each round (see the header): started in alternating order and warmed for the
      // same time, then TWIN_PAIRS pairs of half-length runs, ABBA.
      type Twin = Awaited<ReturnType<typeof startScript>> & { url: string };
      const startTwin = (rateLimits: boolean) => async (): Promise<Twin> => {
        const twin = await startScript('api/full-server.ts', 0, { DATABASE_URL: database.url, RATE_LIMIT_ENABLED: String(rateLimits) });
        servers.push(twin);
        return { ...twin, url: `http://127.0.0.1:${twin.port}` };
      };
      const [unlimited, limited] = (await alternating(round, [startTwin(false), startTwin(true)])) as [Twin, Twin];
      for (const twin of [unlimited, limited]) await load(twin.url, byIdPaths, seeded.tokens, 50, 3);
      const twinRun = (twin: Twin) => () => measured(twin.child.pid!, () => load(twin.url, byIdPaths, seeded.tokens, 50, Math.max(1, Math.round(options.seconds / 2))));
      const offRuns: LoadResult[] = [];
      const onRuns: LoadResult[] = [];
      for (let pair = 0; pair < TWIN_PAIRS; pair++) {
        const [off, on] = (await alternating(round + pair, [twinRun(unlimited), twinRun(limited)])) as [LoadResult, LoadResult];
        offRuns.push(off);
        onRuns.push(on);
      }
      for (const twin of [unlimited, limited]) await stop(twin.child);
      const byIdUnlimited = combined(offRuns);
      const byIdLimited = combined(onRuns);
      const [list, bareList] = (await alternating(round, [
        () => measured(full.child.pid!, () => load(fullUrl, listPaths, seeded.tokens, 16)),
        () => measured(bare.child.pid!, () => load(bareUrl, bareListPaths, [], 16)),
      ])) as [LoadResult, LoadResult];
      const [listSmall, bareListSmall] = (await alternating(round, [
        () => measured(full.child.pid!, () => load(fullUrl, smallListPaths, seeded.tokens, 16)),
        () => measured(bare.child.pid!, () => load(bareUrl, bareSmallListPaths, [], 16)),
      ])) as [LoadResult, LoadResult];
      const [write, writeKeyed] = (await alternating(round, [
        () => measured(full.child.pid!, () => load(fullUrl, byIdPaths, adminTokens, 16, options.seconds, { keyed: false })),
        () => measured(full.child.pid!, () => load(fullUrl, byIdPaths, adminTokens, 16, options.seconds, { keyed: true })),
      ])) as [LoadResult, LoadResult];
      const writeKeyedVsPlain = writeKeyed.requestsPerSecond / write.requestsPerSecond;
      const ratio = byId.requestsPerSecond / bareResult.requestsPerSecond;
      const limitedRatio = byIdLimited.requestsPerSecond / bareResult.requestsPerSecond;
      const limitedVsOff = byIdLimited.requestsPerSecond / byIdUnlimited.requestsPerSecond;
      const publishedRatio = byIdPublished.requestsPerSecond / bareResult.requestsPerSecond;
      const listRatio = list.requestsPerSecond / bareList.requestsPerSecond;
      const listSmallRatio = listSmall.requestsPerSecond / bareListSmall.requestsPerSecond;
      rounds.push({ bare: bareResult, byId, byIdLimited, byIdUnlimited, byIdPublished, bareList, list, bareListSmall, listSmall, ratio, limitedRatio, limitedVsOff, publishedRatio, listRatio, listSmallRatio, write, writeKeyed, writeKeyedVsPlain });
      const failures = [byId, byIdLimited, byIdUnlimited, byIdPublished, list, listSmall, bareResult, bareList, bareListSmall, write, writeKeyed].reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      console.log(
        [
          `round ${round} (load ${loadAverage()}):`,
          `  GET /v1/spaces/{id} ${line(byId)} · bare ${line(bareResult)} · ratio ${ratio.toFixed(2)}${cpuRatio(byId, bareResult)}`,
          `  rate limits on ${line(byIdLimited)} · ratio ${limitedRatio.toFixed(2)}; its twin with limits off ${line(byIdUnlimited)} · on ÷ off ${limitedVsOff.toFixed(3)}`,
          `  in a published site ${line(byIdPublished)} · ratio ${publishedRatio.toFixed(2)}`,
          `  100-item page of 10,000 spaces ${line(list)} · bare keyset ${line(bareList)} · ratio ${listRatio.toFixed(2)}${cpuRatio(list, bareList)}`,
          `  100-item page of 250 spaces ${line(listSmall)} · bare keyset ${line(bareListSmall)} · ratio ${listSmallRatio.toFixed(2)}${cpuRatio(listSmall, bareListSmall)}`,
          `  PATCH /v1/spaces/{id} with a new Idempotency-Key ${line(writeKeyed)} · without ${line(write)} · keyed ÷ plain ${writeKeyedVsPlain.toFixed(3)}${cpuRatio(writeKeyed, write)}`,
          ...(failures ? [`  NON-2XX/ERRORS ${failures}`] : []),
        ].join('\n'),
      );
    }
    return {
      rounds,
      medianRatio: median(rounds.map((r) => r.ratio)),
      medianListRatio: median(rounds.map((r) => r.listRatio)),
      medianListSmallRatio: median(rounds.map((r) => r.listSmallRatio)),
      medianLimitedVsOff: median(rounds.map((r) => r.limitedVsOff)),
      ...(rounds.every((r) => r.byIdUnlimited.cpuMicros && r.byIdLimited.cpuMicros)
        ? { medianLimitedCpuVsOff: median(rounds.map((r) => r.byIdLimited.cpuMicros! / r.byIdUnlimited.cpuMicros!)) }
        : {}),
      medianPublishedRatio: median(rounds.map((r) => r.publishedRatio)),
      listP99Max: Math.max(...rounds.flatMap((r) => [r.list.p99, r.listSmall.p99])),
      medianWriteKeyedVsPlain: median(rounds.map((r) => r.writeKeyedVsPlain)),
      ...(rounds.every((r) => r.write.cpuMicros && r.writeKeyed.cpuMicros)
        ? { medianWriteKeyedCpuVsPlain: median(rounds.map((r) => r.writeKeyed.cpuMicros! / r.write.cpuMicros!)) }
        : {}),
      readCost,
    };
  } finally {
    for (const server of servers) await stop(server.child);
    await database.stop();
  }
}
