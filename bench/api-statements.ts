// `pnpm bench:statements [by-id] [list] [list-small] [--seconds S] [--no-rate-limits] [--against <revision>]`:
// what PostgreSQL does for the API's requests, statement by statement (issue 30: the database time
// per GET). The benchmark's PostgreSQL is started with pg_stat_statements (planning tracked), each
// server — this tree, and with `--against` an earlier commit — on a database of its own seeded through
// its own API (bench/api/history.ts), warmed up, then loaded as `pnpm bench api` loads it (each named
// scenario in turn; all three by default); after each load, per statement of that database: calls and plans per request (a prepared statement planned on
// every call runs on a custom plan), mean planning and execution time, rows, buffers, and the WAL and
// commits per request (the background writes: rate-limit counters, token use).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildCommit, buildWorkingTree, startBuild, type ServerBuild } from './lib/builds.js';
import { pin } from './lib/cpus.js';
import { startBenchDatabase, type BenchDatabase } from './lib/database.js';
import { stop } from './lib/processes.js';
import { startSide, type HistoryScenario, type Side } from './api/history.js';
import { line, load, loadAverage, measured } from './api/measure.js';

process.chdir(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const valueOf = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const named = args.filter((arg, i) => !arg.startsWith('--') && !['--seconds', '--against'].includes(args[i - 1]!));
const SCENARIOS: Record<string, HistoryScenario> = { 'by-id': 'byId', list: 'list', 'list-small': 'listSmall' };
const scenarios = (named.length ? named : Object.keys(SCENARIOS)).map((name) => {
  if (!SCENARIOS[name]) throw new Error(`Unknown scenario ${name}: by-id, list or list-small`);
  return [name, SCENARIOS[name]] as const;
});
const seconds = Number(valueOf('--seconds') ?? 10);
const rateLimits = !args.includes('--no-rate-limits');
const against = valueOf('--against');

/** The cluster with pg_stat_statements loaded: set in its configuration, then started again. */
async function startWithStatements(dir: string): Promise<BenchDatabase> {
  const first = await startBenchDatabase({ keepIn: dir });
  const admin = new pg.Client({ connectionString: first.url });
  await admin.connect();
  await admin.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`);
  await admin.query(`ALTER SYSTEM SET pg_stat_statements.track_planning = on`);
  await admin.query(`ALTER SYSTEM SET pg_stat_statements.max = 10000`);
  await admin.end();
  await first.stop();
  const database = await startBenchDatabase({ keepIn: dir });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await client.end();
  return database;
}

/**
 * CPU seconds of each kind of PostgreSQL process (a database's backends by database name, the WAL
 * writer, the checkpointer, autovacuum, …; backends that ended count in the postmaster's reaped time).
 */
function clusterCpuByKind(postmaster: number): Map<string, number> {
  const kinds = new Map<string, number>();
  const add = (kind: string, ticks: number) => kinds.set(kind, (kinds.get(kind) ?? 0) + ticks / 100);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const own = Number(fields[11]) + Number(fields[12]);
      if (Number(name) === postmaster) {
        add('postmaster', own);
        add('ended processes (reaped by the postmaster)', Number(fields[13]) + Number(fields[14]));
        continue;
      }
      if (Number(fields[1]) !== postmaster) continue;
      const title = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      // "postgres: <user> <database> <client> <state>" for a backend, "postgres: walwriter" and the like.
      const backend = /^postgres: \S+ (\S+) \d+\.\d+\.\d+\.\d+\(\d+\)/.exec(title);
      add(backend ? `backends of ${backend[1]}` : title.replace(/^postgres: /, '').replace(/\s+\d+$/, ''), own);
    } catch {
      // ended meanwhile
    }
  }
  return kinds;
}

type StatementRow = {
  query: string;
  calls: string;
  plans: string;
  total_plan_time: number;
  total_exec_time: number;
  rows: string;
  shared_blks_hit: string;
  shared_blks_read: string;
  wal_bytes: string;
};

const dir = mkdtempSync(join(tmpdir(), 'cw-bench-statements-'));
const database = await startWithStatements(dir);
const builds: ServerBuild[] = [];
const sides: Side[] = [];
try {
  const postmaster = database.postmasterPid();
  if (postmaster) pin(postmaster, 1);
  builds.push(await buildWorkingTree());
  if (against) builds.push(await buildCommit(against));
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    for (const [i, build] of builds.entries()) {
      const side = await startSide(build, database.url, `statements_${i}`, 2000);
      sides.push(side);
      if (!rateLimits) {
        // The same server with rate limits off: restarted on its seeded database.
        await stop(side.server.child);
        side.server = await startBuild(build, 0, { ...side.env, RATE_LIMIT_ENABLED: 'false' });
      }
    }
    for (const [i, side] of sides.entries()) for (const [which, scenario] of scenarios) {
      const connections = scenario === 'byId' ? 50 : 16;
      const run = (s: number) =>
        measured({ server: side.server.child.pid!, ...(postmaster ? { database: postmaster } : {}) }, () =>
          load({ url: side.server.url, paths: side.paths[scenario], tokens: side.seeded.tokens, connections, seconds: s }),
        );
      await run(5);
      const oid = (await admin.query<{ oid: number }>(`SELECT oid FROM pg_database WHERE datname = $1`, [`statements_${i}`])).rows[0]!.oid;
      const before = await admin.query<{ xact_commit: string; wal_bytes: string }>(
        `SELECT xact_commit, (SELECT wal_bytes FROM pg_stat_wal) AS wal_bytes FROM pg_stat_database WHERE datid = $1`,
        [oid],
      );
      await admin.query('SELECT pg_stat_statements_reset()');
      const cpuBefore = postmaster ? clusterCpuByKind(postmaster) : new Map<string, number>();
      const result = await run(seconds);
      const cpuAfter = postmaster ? clusterCpuByKind(postmaster) : new Map<string, number>();
      // Background writes land within seconds of the load (rate-limit counters: every 0.5–5 s).
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      await admin.query('SELECT pg_stat_force_next_flush()');
      const after = await admin.query<{ xact_commit: string; wal_bytes: string }>(
        `SELECT xact_commit, (SELECT wal_bytes FROM pg_stat_wal) AS wal_bytes FROM pg_stat_database WHERE datid = $1`,
        [oid],
      );
      const { rows } = await admin.query<StatementRow>(
        `SELECT query, calls, plans, total_plan_time, total_exec_time, rows, shared_blks_hit, shared_blks_read, wal_bytes
         FROM pg_stat_statements WHERE dbid = $1 ORDER BY total_plan_time + total_exec_time DESC`,
        [oid],
      );
      const requests = result.total;
      const perRequest = (value: number) => value / requests;
      console.log(`\n== ${side.build.label} ${which}${rateLimits ? '' : ' (rate limits off)'}: ${line(result)} (load ${loadAverage()})`);
      console.log(
        `commits per request ${perRequest(Number(after.rows[0]!.xact_commit) - Number(before.rows[0]!.xact_commit)).toFixed(3)}, ` +
          `WAL bytes per request (cluster) ${perRequest(Number(after.rows[0]!.wal_bytes) - Number(before.rows[0]!.wal_bytes)).toFixed(1)}`,
      );
      const byKind = [...cpuAfter]
        .map(([kind, after]) => [kind, ((after - (cpuBefore.get(kind) ?? 0)) * 1e6) / requests] as const)
        .filter(([, us]) => us > 0)
        .sort((a, b) => b[1] - a[1]);
      console.log(`PostgreSQL CPU per request by process: ${byKind.map(([kind, us]) => `${kind} ${us.toFixed(0)} µs`).join(', ')}`);
      let planUs = 0;
      let execUs = 0;
      for (const row of rows) {
        planUs += (row.total_plan_time * 1000) / requests;
        execUs += (row.total_exec_time * 1000) / requests;
      }
      console.log(`statements' time per request: planning ${planUs.toFixed(1)} µs, execution ${execUs.toFixed(1)} µs`);
      console.log('calls/req  plans/call  plan µs  exec µs  µs/req  rows/call  blks/call  WAL B/call  statement');
      for (const row of rows.slice(0, 15)) {
        const calls = Number(row.calls);
        const text = row.query.replace(/\s+/g, ' ').slice(0, 140);
        console.log(
          [
            perRequest(calls).toFixed(3).padStart(9),
            (Number(row.plans) / calls).toFixed(2).padStart(10),
            ((row.total_plan_time * 1000) / Math.max(1, Number(row.plans))).toFixed(1).padStart(8),
            ((row.total_exec_time * 1000) / calls).toFixed(1).padStart(8),
            perRequest((row.total_plan_time + row.total_exec_time) * 1000).toFixed(1).padStart(7),
            (Number(row.rows) / calls).toFixed(1).padStart(10),
            ((Number(row.shared_blks_hit) + Number(row.shared_blks_read)) / calls).toFixed(1).padStart(10),
            (Number(row.wal_bytes) / calls).toFixed(0).padStart(11),
            ` ${text}`,
          ].join(''),
        );
      }
    }
  } finally {
    await admin.end();
  }
} finally {
  for (const side of sides) await stop(side.server.child);
  for (const build of builds) build.remove();
  await database.stop();
  rmSync(dir, { recursive: true, force: true });
}
