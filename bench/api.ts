// The API benchmark (docs/design/budgets.md, issues 19 and 30): `GET /v1/spaces/{id}` and 100-item space lists
// through the full stack (auth, validation, access resolution), each against its bare baseline on the
// same database, in the same run, in paired rounds: a bare Express handler doing one primary-key query,
// and a bare Kysely keyset page of the same rows (over 10,000 spaces and over 250). The server under
// test is this tree built and run as an operator runs it (`node main.js`, production defaults, rate
// limits on with budgets no run reaches: bench/lib/builds.ts). It gets core 0; the load generator and
// PostgreSQL share core 1. Each pair of loads runs in alternating order, so that neither side gains from
// the order (drift, caches). Each load reports the server's and PostgreSQL's CPU time per request.
// `against` adds earlier commits as sides of the same run (bench/api/history.ts).
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
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { canPin, pin } from './lib/cpus.js';
import { buildCommit, buildWorkingTree, comparedServerEnvironment, freePort, startBuild, type ServerBuild, type StartedServer } from './lib/builds.js';
import { startBenchDatabase } from './lib/database.js';
import { runScript, startScript, stop } from './lib/processes.js';
import { seed, SPACES } from './api/seed.js';
import { runHistory, type HistoryResult } from './api/history.js';
import { combined, line, load as runLoad, loadAverage, measured, median, type LoadResult } from './api/measure.js';

export type ApiBenchmarkResult = {
  rounds: Array<{
    loadAverage: string;
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
  /** Medians of the rounds' server and PostgreSQL CPU per GET, full ÷ bare (targets ≤ 1.5 and ≤ 1.1). */
  medianCpuPerGet?: number;
  medianDatabaseCpuPerGet?: number;
  medianListRatio: number;
  medianListSmallRatio: number;
  /** Median of the rounds' req/s with rate limits on ÷ off (budget ≥ 0.95). */
  medianLimitedVsOff: number;
  /** Median of the rounds' server CPU time per request with rate limits on ÷ off (lower is better). */
  medianLimitedCpuVsOff?: number;
  /** The same for spaces in a published site (their `urls.published` is looked up). */
  medianPublishedRatio: number;
  /** The worst p99 of the two lists, and of their bare baselines (the target holds where the bare list meets it). */
  listP99Max: number;
  bareListP99Max: number;
  /** This tree against earlier commits (`against`), same run. */
  history?: HistoryResult;
  /** Median of the rounds' keyed ÷ plain write req/s, and of their server CPU per request (keyed ÷ plain). */
  medianWriteKeyedVsPlain?: number;
  medianWriteKeyedCpuVsPlain?: number;
  /** The idempotency middlewares on a read: nanoseconds per dispatch with and without them (api/idempotency-read-cost.ts). */
  readCost?: { withNs: number; withoutNs: number; costNs: number };
};

export type ApiBenchmarkOptions = {
  rounds: number;
  seconds: number;
  /** Earlier revisions to run as sides of the same run (api/history.ts). */
  against?: string[];
  /** Only the comparison with `against` (and the bare baselines). */
  historyOnly?: boolean;
  /** Spaces each side of the history seeds through its API. */
  historySpaces?: number;
};

/** Tokens of the seed's organization admins (its first members), who may rename any space. */
const ADMINS = 10;

/** Pairs of twin runs per round (see the header). */
const TWIN_PAIRS = 4;

export async function runApiBenchmark(options: ApiBenchmarkOptions): Promise<ApiBenchmarkResult> {
  const database = await startBenchDatabase();
  const builds: ServerBuild[] = [];
  const servers: StartedServer[] = [];
  let bare: Awaited<ReturnType<typeof startScript>> | undefined;
  try {
    const postmaster = database.postmasterPid();
    if (postmaster) pin(postmaster, 1);
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
    const seeded = await seed(db);
    await db.destroy();
    console.log(`seeded ${SPACES} spaces and ${seeded.tokens.length} tokens; pinning ${canPin ? 'on (server: core 0; load + database: core 1)' : 'unavailable'}`);

    // The server under test as an operator runs it: built, `node main.js`, production defaults, rate
    // limits on with budgets no run reaches (bench/lib/builds.ts).
    const tree = await buildWorkingTree();
    builds.push(tree);
    const startTree = async (rateLimits: boolean) => {
      const env = comparedServerEnvironment(database.url, await freePort());
      const server = await startBuild(tree, 0, rateLimits ? env : { ...env, RATE_LIMIT_ENABLED: 'false' });
      servers.push(server);
      return server;
    };
    bare = await startScript('api/bare-server.ts', 0, { DATABASE_URL: database.url, ORGANIZATION_ID: seeded.organizationId });
    const bareUrl = `http://127.0.0.1:${bare.port}`;
    const pids = (server: { child: { pid?: number } }) => ({ server: server.child.pid!, ...(postmaster ? { database: postmaster } : {}) });
    const barePaths = seeded.spaceIds.map((id) => `/bare/spaces/${id}`);
    const bareListPaths = [`/bare/orgs/${seeded.organizationId}/spaces?limit=100`];
    const bareSmallListPaths = seeded.collectionIds.map((id) => `/bare/collections/${id}/spaces?limit=100`);
    const load = (url: string, paths: string[], tokens: string[], connections: number, seconds = options.seconds, write?: { keyed: boolean }) =>
      runLoad({ url, paths, tokens, connections, seconds, ...(write ? { method: 'PATCH', body: { title: 'Renamed by the benchmark' }, keyed: write.keyed } : {}) });
    // Writes by the organization's admins (the first tokens), on spaces of no published site.
    const adminTokens = seeded.tokens.slice(0, ADMINS);
    // Warm up the bare server (JIT, connection pools, PostgreSQL caches).
    await load(bareUrl, barePaths, [], 50, 3);
    await load(bareUrl, bareListPaths, [], 16, 3);
    await load(bareUrl, bareSmallListPaths, [], 16, 3);

    const rounds: ApiBenchmarkResult['rounds'] = [];
    let readCost: ApiBenchmarkResult['readCost'];
    if (!options.historyOnly) {
      // The read path of the idempotency middlewares, in-process on the server's core (see its header).
      readCost = await runScript<NonNullable<ApiBenchmarkResult['readCost']>>('api/idempotency-read-cost.ts', 0, {});
      console.log(`idempotency middlewares on a GET: ${readCost.costNs.toFixed(0)} ns per request (dispatch ${readCost.withoutNs.toFixed(0)} → ${readCost.withNs.toFixed(0)} ns)`);
      const full = await startTree(true);
      const byIdPaths = seeded.spaceIds.map((id) => `/v1/spaces/${id}`);
      const publishedPaths = seeded.publishedSpaceIds.map((id) => `/v1/spaces/${id}`);
      // The same page size over 10,000 spaces (the organization) and over 250 (a collection): keyset pages
      // should cost the same whatever the total.
      const listPaths = [`/v1/orgs/${seeded.organizationId}/spaces?limit=100`];
      const smallListPaths = seeded.collectionIds.map((id) => `/v1/collections/${id}/spaces?limit=100`);
      // Warm up (JIT, connection pools, PostgreSQL caches).
      await load(full.url, byIdPaths, seeded.tokens, 50, 3);
      await load(full.url, publishedPaths, seeded.tokens, 50, 3);
      await load(full.url, listPaths, seeded.tokens, 16, 3);
      await load(full.url, smallListPaths, seeded.tokens, 16, 3);
      await load(full.url, byIdPaths, adminTokens, 16, 3, { keyed: false });
      await load(full.url, byIdPaths, adminTokens, 16, 3, { keyed: true });

      /** Runs the loads in turn, in reverse order on even rounds; results in the given order. */
      const alternating = async <T>(round: number, runs: Array<() => Promise<T>>): Promise<T[]> => {
        const results: T[] = new Array(runs.length);
        const order = runs.map((_, i) => i);
        if (round % 2 === 0) order.reverse();
        for (const i of order) results[i] = await runs[i]!();
        return results;
      };
      /** The same pair by server CPU time per request (bare ÷ full): steadier than req/s on a busy machine. */
      const cpuRatio = (full: LoadResult, bare: LoadResult) =>
        (full.cpuMicros && bare.cpuMicros ? `, by CPU per request ${(bare.cpuMicros / full.cpuMicros).toFixed(2)}` : '') +
        (full.databaseCpuMicros && bare.databaseCpuMicros ? `, PostgreSQL CPU per request ×${(full.databaseCpuMicros / bare.databaseCpuMicros).toFixed(2)} of bare` : '');
      for (let round = 1; round <= options.rounds; round++) {
        const [bareResult, byId, byIdPublished] = (await alternating(round, [
          () => measured(pids(bare!), () => load(bareUrl, barePaths, [], 50)),
          () => measured(pids(full), () => load(full.url, byIdPaths, seeded.tokens, 50)),
          () => measured(pids(full), () => load(full.url, publishedPaths, seeded.tokens, 50)),
        ])) as [LoadResult, LoadResult, LoadResult];
        // The twins, new in each round (see the header): started in alternating order and warmed for the
        // same time, then TWIN_PAIRS pairs of half-length runs, ABBA.
        const [unlimited, limited] = (await alternating(round, [() => startTree(false), () => startTree(true)])) as [StartedServer, StartedServer];
        for (const twin of [unlimited, limited]) await load(twin.url, byIdPaths, seeded.tokens, 50, 3);
        const twinRun = (twin: StartedServer) => () => measured(pids(twin), () => load(twin.url, byIdPaths, seeded.tokens, 50, Math.max(1, Math.round(options.seconds / 2))));
        const offRuns: LoadResult[] = [];
        const onRuns: LoadResult[] = [];
        for (let pair = 0; pair < TWIN_PAIRS; pair++) {
          const [off, on] = (await alternating(round + pair, [twinRun(unlimited), twinRun(limited)])) as [LoadResult, LoadResult];
          offRuns.push(off);
          onRuns.push(on);
        }
        for (const twin of [unlimited, limited]) {
          await stop(twin.child);
          servers.splice(servers.indexOf(twin), 1);
        }
        const byIdUnlimited = combined(offRuns);
        const byIdLimited = combined(onRuns);
        const [list, bareList] = (await alternating(round, [
          () => measured(pids(full), () => load(full.url, listPaths, seeded.tokens, 16)),
          () => measured(pids(bare!), () => load(bareUrl, bareListPaths, [], 16)),
        ])) as [LoadResult, LoadResult];
        const [listSmall, bareListSmall] = (await alternating(round, [
          () => measured(pids(full), () => load(full.url, smallListPaths, seeded.tokens, 16)),
          () => measured(pids(bare!), () => load(bareUrl, bareSmallListPaths, [], 16)),
        ])) as [LoadResult, LoadResult];
        const [write, writeKeyed] = (await alternating(round, [
          () => measured(pids(full), () => load(full.url, byIdPaths, adminTokens, 16, options.seconds, { keyed: false })),
          () => measured(pids(full), () => load(full.url, byIdPaths, adminTokens, 16, options.seconds, { keyed: true })),
        ])) as [LoadResult, LoadResult];
        const writeKeyedVsPlain = writeKeyed.requestsPerSecond / write.requestsPerSecond;
        const ratio = byId.requestsPerSecond / bareResult.requestsPerSecond;
        const limitedRatio = byIdLimited.requestsPerSecond / bareResult.requestsPerSecond;
        const limitedVsOff = byIdLimited.requestsPerSecond / byIdUnlimited.requestsPerSecond;
        const publishedRatio = byIdPublished.requestsPerSecond / bareResult.requestsPerSecond;
        const listRatio = list.requestsPerSecond / bareList.requestsPerSecond;
        const listSmallRatio = listSmall.requestsPerSecond / bareListSmall.requestsPerSecond;
        rounds.push({ loadAverage: loadAverage(), bare: bareResult, byId, byIdLimited, byIdUnlimited, byIdPublished, bareList, list, bareListSmall, listSmall, ratio, limitedRatio, limitedVsOff, publishedRatio, listRatio, listSmallRatio, write, writeKeyed, writeKeyedVsPlain });
        const failures = [byId, byIdLimited, byIdUnlimited, byIdPublished, list, listSmall, bareResult, bareList, bareListSmall, write, writeKeyed].reduce((sum, r) => sum + r.non2xx + r.errors, 0);
        console.log(
          [
            `round ${round} (load ${loadAverage()}):`,
            `  GET /v1/spaces/{id} ${line(byId)} · bare ${line(bareResult)} · ratio ${ratio.toFixed(2)}${cpuRatio(byId, bareResult)}`,
            `  rate limits on (another process) ${line(byIdLimited)} · ratio ${limitedRatio.toFixed(2)}; its twin with limits off ${line(byIdUnlimited)} · on ÷ off ${limitedVsOff.toFixed(3)}`,
            `  in a published site ${line(byIdPublished)} · ratio ${publishedRatio.toFixed(2)}`,
            `  100-item page of 10,000 spaces ${line(list)} · bare keyset ${line(bareList)} · ratio ${listRatio.toFixed(2)}${cpuRatio(list, bareList)}`,
            `  100-item page of 250 spaces ${line(listSmall)} · bare keyset ${line(bareListSmall)} · ratio ${listSmallRatio.toFixed(2)}${cpuRatio(listSmall, bareListSmall)}`,
            `  PATCH /v1/spaces/{id} with a new Idempotency-Key ${line(writeKeyed)} · without ${line(write)} · keyed ÷ plain ${writeKeyedVsPlain.toFixed(3)}${cpuRatio(writeKeyed, write)}`,
            ...(failures ? [`  NON-2XX/ERRORS ${failures}`] : []),
          ].join('\n'),
        );
      }
      await stop(full.child);
      servers.splice(servers.indexOf(full), 1);
    }

    let history: HistoryResult | undefined;
    if (options.against?.length) {
      for (const revision of options.against) builds.push(await buildCommit(revision));
      history = await runHistory({
        clusterUrl: database.url,
        ...(postmaster ? { databasePid: postmaster } : {}),
        bare: { pid: bare.child.pid!, url: bareUrl, paths: { byId: barePaths, list: bareListPaths, listSmall: bareSmallListPaths } },
        builds,
        rounds: options.rounds,
        seconds: options.seconds,
        spaces: options.historySpaces ?? 2000,
      });
    }
    const medianOf = (value: (round: ApiBenchmarkResult['rounds'][number]) => number | undefined) => {
      const values = rounds.map(value);
      return values.length && values.every((v) => v !== undefined) ? median(values as number[]) : undefined;
    };
    const cpuPerGet = medianOf((r) => (r.byId.cpuMicros && r.bare.cpuMicros ? r.byId.cpuMicros / r.bare.cpuMicros : undefined));
    const databaseCpuPerGet = medianOf((r) => (r.byId.databaseCpuMicros && r.bare.databaseCpuMicros ? r.byId.databaseCpuMicros / r.bare.databaseCpuMicros : undefined));
    const writeKeyedVsPlain = medianOf((r) => r.writeKeyedVsPlain);
    const writeKeyedCpuVsPlain = medianOf((r) => (r.write.cpuMicros && r.writeKeyed.cpuMicros ? r.writeKeyed.cpuMicros / r.write.cpuMicros : undefined));
    const limitedCpuVsOff = medianOf((r) => (r.byIdUnlimited.cpuMicros && r.byIdLimited.cpuMicros ? r.byIdLimited.cpuMicros / r.byIdUnlimited.cpuMicros : undefined));
    return {
      rounds,
      medianRatio: medianOf((r) => r.ratio) ?? NaN,
      ...(cpuPerGet === undefined ? {} : { medianCpuPerGet: cpuPerGet }),
      ...(databaseCpuPerGet === undefined ? {} : { medianDatabaseCpuPerGet: databaseCpuPerGet }),
      medianListRatio: medianOf((r) => r.listRatio) ?? NaN,
      medianListSmallRatio: medianOf((r) => r.listSmallRatio) ?? NaN,
      medianLimitedVsOff: medianOf((r) => r.limitedVsOff) ?? NaN,
      ...(limitedCpuVsOff === undefined ? {} : { medianLimitedCpuVsOff: limitedCpuVsOff }),
      medianPublishedRatio: medianOf((r) => r.publishedRatio) ?? NaN,
      listP99Max: Math.max(...rounds.flatMap((r) => [r.list.p99, r.listSmall.p99])),
      bareListP99Max: Math.max(...rounds.flatMap((r) => [r.bareList.p99, r.bareListSmall.p99])),
      ...(history ? { history } : {}),
      ...(writeKeyedVsPlain === undefined ? {} : { medianWriteKeyedVsPlain: writeKeyedVsPlain }),
      ...(writeKeyedCpuVsPlain === undefined ? {} : { medianWriteKeyedCpuVsPlain: writeKeyedCpuVsPlain }),
      ...(readCost ? { readCost } : {}),
    };
  } finally {
    for (const server of servers) await stop(server.child);
    if (bare) await stop(bare.child);
    for (const build of builds) build.remove();
    await database.stop();
  }
}
