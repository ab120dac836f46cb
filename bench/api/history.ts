// The API benchmark's history (`pnpm bench api --against <revision>`, issue 30): this tree and earlier
// commits as sides of the same run, on the same machine, so that a regression shows as a ratio rather
// than as absolute figures that drift between machines and days. Each side is built as an operator
// builds it (bench/lib/builds.ts), started on core 0 on a database of its own in the benchmark's
// PostgreSQL (core 1), seeded through its own CLI and API (api/api-seed.ts) and warmed up.
//
// A ratio from one run of this machine moved by up to a third with the same code on both sides
// (bench/README.md, "The history bench with an A/A control"), so a run carries its own measure of that:
// - a control side, this tree's build started a second time on a database of its own: this tree ÷ the
//   control is what "no change" looks like in this run, and a side is called below this tree's par only
//   when its ratio is further from 1 than every round of the control (`verdictOf`);
// - each round runs every scenario in SLICES short slices rather than one long run per side, the bare
//   baseline and every side in an order rotated from slice to slice and reversed every other one, so
//   that the machine's drift over seconds falls on every side alike; a side's slices are combined.
import pg from 'pg';
import { comparedServerEnvironment, freePort, startBuild, type ServerBuild, type StartedServer } from '../lib/builds.js';
import { stop } from '../lib/processes.js';
import { seedThroughApi, type ApiSeeded } from './api-seed.js';
import { startCountingProxy } from '../../packages/server/test/support/round-trips.js';
import { combined, line, load, loadAverage, measured, median, type LoadResult } from './measure.js';

export type HistoryScenario = 'byId' | 'list' | 'listSmall';

const SCENARIOS: Array<{ name: HistoryScenario; title: string; connections: number }> = [
  { name: 'byId', title: 'GET /v1/spaces/{id}', connections: 50 },
  { name: 'list', title: `first 100-item page of the organization's spaces`, connections: 16 },
  { name: 'listSmall', title: `first 100-item page of a collection's spaces`, connections: 16 },
];

/** Slices of each scenario per round (see the header). */
const SLICES = 4;

export type BareBaseline = { pid: number; url: string; paths: Record<HistoryScenario, string[]> };

export type HistoryResult = {
  /** Each side, with the database round trips of one request of each scenario (roundTripsPerRequest); the control last. */
  sides: Array<{ label: string; commit?: string; roundTrips: Record<HistoryScenario, number> }>;
  /** Per round, the bare baseline and every side (in `sides` order: this tree, the earlier commits, the control). */
  rounds: Array<{ loadAverage: string; bare: Record<HistoryScenario, LoadResult>; sides: Array<Record<HistoryScenario, LoadResult>> }>;
  /** Per scenario and earlier side (in `sides` order, from the second, the control left out): the median over rounds of this tree's req/s ÷ that side's. */
  medianRatios: Record<HistoryScenario, number[]>;
  /** The same by server CPU per request (that side's ÷ this tree's: above 1, this tree spends less). */
  medianCpuRatios: Record<HistoryScenario, number[]>;
  /** The same by PostgreSQL CPU per request. */
  medianDatabaseCpuRatios: Record<HistoryScenario, number[]>;
  /** Per scenario, each round's req/s of this tree ÷ the control (the same build): what "no change" measures in this run. */
  controlRatios: Record<HistoryScenario, number[]>;
};

/**
 * What a median ratio of this tree ÷ an earlier side says, given the control's ratios of the same run:
 * at or above par; below, only when further below 1 than the control ever was from 1 either way (the
 * same code measured r or 1/r as often); otherwise within what the same code measured against itself.
 */
export function verdictOf(ratio: number, control: number[]): 'at or above' | 'within the control' | 'BELOW' {
  if (ratio >= 1) return 'at or above';
  const widest = Math.min(...control.map((r) => Math.min(r, 1 / r)));
  return ratio >= widest ? 'within the control' : 'BELOW';
}

export type HistoryOptions = {
  clusterUrl: string;
  databasePid?: number;
  bare: BareBaseline;
  /** This tree's build first, then the earlier commits'. */
  builds: ServerBuild[];
  rounds: number;
  seconds: number;
  spaces: number;
};

export type Side = { build: ServerBuild; server: StartedServer; env: Record<string, string>; seeded: ApiSeeded; paths: Record<HistoryScenario, string[]> };

/**
 * A build's server on a new database `database` of the cluster, on core 0 (extra node arguments: a
 * profiler), seeded through its own API with `spaces` spaces.
 */
export async function startSide(build: ServerBuild, clusterUrl: string, database: string, spaces: number, nodeArgs: string[] = []): Promise<Side> {
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${database}`;
  const env = comparedServerEnvironment(url.toString(), await freePort());
  const server = await startBuild(build, 0, env, nodeArgs);
  try {
    const started = Date.now();
    // Half the spaces in collections of 125: a collection's first page is a full 100 items.
    const collections = Math.max(1, Math.floor(spaces / 250));
    const seeded = await seedThroughApi(build, server.url, env, { members: 4, tokensPerUser: 25, collections, spaces });
    console.log(`${build.label}: seeded through its API in ${((Date.now() - started) / 1000).toFixed(0)} s (${seeded.spaceIds.length} spaces, ${seeded.tokens.length} tokens)`);
    return {
      build,
      server,
      env,
      seeded,
      paths: {
        byId: seeded.spaceIds.map((id) => `/v1/spaces/${id}`),
        list: [`/v1/orgs/${seeded.organizationId}/spaces?limit=100`],
        listSmall: seeded.collectionIds.map((id) => `/v1/collections/${id}/spaces?limit=100`),
      },
    };
  } catch (error) {
    await stop(server.child);
    throw error;
  }
}

export async function runHistory(options: HistoryOptions): Promise<HistoryResult> {
  const sides: Side[] = [];
  try {
    for (const [i, build] of options.builds.entries()) sides.push(await startSide(build, options.clusterUrl, `history_${i}`, options.spaces));
    // The control: this tree's build again, a process and a database of its own (see the header).
    sides.push(await startSide({ ...options.builds[0]!, label: 'control' }, options.clusterUrl, 'history_control', options.spaces));
    const control = sides.length - 1;
    const run = (side: Side | undefined, scenario: (typeof SCENARIOS)[number], seconds: number) =>
      measured({ server: side ? side.server.child.pid! : options.bare.pid, ...(options.databasePid ? { database: options.databasePid } : {}) }, () =>
        load({
          url: side ? side.server.url : options.bare.url,
          paths: side ? side.paths[scenario.name] : options.bare.paths[scenario.name],
          tokens: side ? side.seeded.tokens : [],
          connections: scenario.connections,
          seconds,
        }),
      );
    for (const side of sides) for (const scenario of SCENARIOS) await run(side, scenario, 3);

    const roundTrips = [];
    for (const side of sides) {
      const counts = await roundTripsPerRequest(side);
      roundTrips.push({ label: side.build.label, ...(side.build.commit ? { commit: side.build.commit } : {}), roundTrips: counts });
      console.log(`${side.build.label}: database round trips per request: ${SCENARIOS.map((s) => `${s.name} ${counts[s.name].toFixed(2)}`).join(', ')}`);
    }

    const sliceSeconds = Math.max(1, Math.round(options.seconds / SLICES));
    const rounds: HistoryResult['rounds'] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const bare = {} as Record<HistoryScenario, LoadResult>;
      const bySide = sides.map(() => ({}) as Record<HistoryScenario, LoadResult>);
      for (const scenario of SCENARIOS) {
        const slices = new Map<number, LoadResult[]>();
        for (let slice = 0; slice < SLICES; slice++) {
          // The bare baseline (-1) and every side, rotated by one each slice and reversed every other one.
          const order = [-1, ...sides.map((_, i) => i)];
          for (let shift = 0; shift < ((round - 1) * SLICES + slice) % order.length; shift++) order.push(order.shift()!);
          if (slice % 2 === 1) order.reverse();
          for (const i of order) slices.set(i, [...(slices.get(i) ?? []), await run(i < 0 ? undefined : sides[i], scenario, sliceSeconds)]);
        }
        bare[scenario.name] = combined(slices.get(-1)!);
        for (const [i] of sides.entries()) bySide[i]![scenario.name] = combined(slices.get(i)!);
      }
      rounds.push({ loadAverage: loadAverage(), bare, sides: bySide });
      console.log(`history round ${round} (load ${loadAverage()}):`);
      for (const scenario of SCENARIOS) {
        const tree = bySide[0]![scenario.name];
        console.log(`  ${scenario.title}: bare ${line(bare[scenario.name])}`);
        for (const [i, side] of sides.entries()) {
          const result = bySide[i]![scenario.name];
          const versus = i === 0 ? `÷ bare ${(result.requestsPerSecond / bare[scenario.name].requestsPerSecond).toFixed(2)}` : `this tree ÷ ${side.build.label} ${(tree.requestsPerSecond / result.requestsPerSecond).toFixed(2)}`;
          console.log(`    ${side.build.label.padEnd(9)} ${line(result)} · ${versus}`);
        }
      }
    }
    const earlier = sides.slice(1, control);
    const medians = (value: (tree: LoadResult, side: LoadResult) => number | undefined) =>
      Object.fromEntries(
        SCENARIOS.map((scenario) => [
          scenario.name,
          earlier.map((_, i) => {
            const values = rounds.map((round) => value(round.sides[0]![scenario.name], round.sides[i + 1]![scenario.name])).filter((v): v is number => v !== undefined);
            return values.length ? median(values) : NaN;
          }),
        ]),
      ) as Record<HistoryScenario, number[]>;
    return {
      sides: roundTrips,
      rounds,
      medianRatios: medians((tree, side) => tree.requestsPerSecond / side.requestsPerSecond),
      medianCpuRatios: medians((tree, side) => (tree.cpuMicros && side.cpuMicros ? side.cpuMicros / tree.cpuMicros : undefined)),
      medianDatabaseCpuRatios: medians((tree, side) => (tree.databaseCpuMicros && side.databaseCpuMicros ? side.databaseCpuMicros / tree.databaseCpuMicros : undefined)),
      controlRatios: Object.fromEntries(
        SCENARIOS.map((scenario) => [scenario.name, rounds.map((round) => round.sides[0]![scenario.name].requestsPerSecond / round.sides[control]![scenario.name].requestsPerSecond)]),
      ) as Record<HistoryScenario, number[]>,
    };
  } finally {
    for (const side of sides) await stop(side.server.child);
  }
}

/**
 * The database round trips of one request of each scenario, counted on the wire (packages/server/test/support/round-trips.ts) by
 * a second instance of the side's server that talks to PostgreSQL through a counting proxy: `count`
 * requests to warm its caches, then `count` counted, with the background writes they cause (rate-limit
 * hits are written within 5 s).
 */
export async function roundTripsPerRequest(side: Side, count = 400): Promise<Record<HistoryScenario, number>> {
  const proxy = await startCountingProxy(side.env.DATABASE_URL!);
  let probe: StartedServer | undefined;
  try {
    probe = await startBuild(side.build, 0, { ...side.env, DATABASE_URL: proxy.url, PORT: String(await freePort()) });
    const counts = {} as Record<HistoryScenario, number>;
    for (const scenario of SCENARIOS) {
      const paths = side.paths[scenario.name];
      const tokens = side.seeded.tokens;
      const send = async (n: number) => {
        const response = await fetch(`${probe!.url}${paths[n % paths.length]}`, { headers: { authorization: `Bearer ${tokens[n % tokens.length]}` } });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${side.build.label}: ${paths[n % paths.length]} answered ${response.status}`);
      };
      // Ten at a time, as under load: the rate limiter writes pending hits on a timer (a few writes a
      // second at most), which requests sent one by one would spread over few requests.
      const sendAll = async () => {
        let next = 0;
        await Promise.all(Array.from({ length: 10 }, async () => {
          for (let n = next++; n < count; n = next++) await send(n);
        }));
      };
      await sendAll();
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      const before = proxy.readyForQuery();
      await sendAll();
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      counts[scenario.name] = (proxy.readyForQuery() - before) / count;
    }
    return counts;
  } finally {
    if (probe) await stop(probe.child);
    await proxy.close();
  }
}

export { SCENARIOS as HISTORY_SCENARIOS };
