// `pnpm bench:profile [by-id|list|list-small] [--seconds S] [--no-rate-limits] [--against <revision>]`: a CPU
// profile (node --cpu-prof) of the built API server under the load of `pnpm bench api`, on the same
// pinning, summarised as one table of the request path's parts (bench/lib/cpu-profile.ts: each
// middleware's share and its µs per request) and the top functions by self time. With `--against`, the
// same profile of an earlier commit beside this tree's, each seeded through its own API (bench/api/
// history.ts), in one table; without it, this tree alone on the bulk seed of `pnpm bench api`. The
// .cpuprofile files are kept in bench/results/ (Chrome DevTools, speedscope).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { buildCommit, buildWorkingTree, comparedServerEnvironment, freePort, startBuild, type ServerBuild, type StartedServer } from './lib/builds.js';
import { pin } from './lib/cpus.js';
import { formatStageTables, profileLength, resolveSources, stageTable, type CpuProfile, type StageTable } from './lib/cpu-profile.js';
import { startBenchDatabase } from './lib/database.js';
import { stop } from './lib/processes.js';
import { seed } from './api/seed.js';
import { startSide, type HistoryScenario } from './api/history.js';
import { load, loadAverage, measured, type LoadResult } from './api/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
process.chdir(here);
const args = process.argv.slice(2);
const valueOf = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const which = args.find((arg, i) => !arg.startsWith('--') && !['--seconds', '--against'].includes(args[i - 1]!)) ?? 'by-id';
const scenario: HistoryScenario = which === 'list' ? 'list' : which === 'list-small' ? 'listSmall' : 'byId';
const seconds = Number(valueOf('--seconds') ?? 15);
const rateLimits = !args.includes('--no-rate-limits');
const against = valueOf('--against');
const connections = scenario === 'byId' ? 50 : 16;

type Target = { label: string; server: StartedServer; paths: string[]; tokens: string[]; profileDir: string };

const database = await startBenchDatabase();
const builds: ServerBuild[] = [];
const targets: Target[] = [];
try {
  const postmaster = database.postmasterPid();
  if (postmaster) pin(postmaster, 1);
  const tree = await buildWorkingTree();
  builds.push(tree);
  const profiled = () => {
    const profileDir = mkdtempSync(join(tmpdir(), 'cw-profile-'));
    return { profileDir, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] };
  };
  if (against) {
    builds.push(await buildCommit(against));
    for (const [i, build] of builds.entries()) {
      const { profileDir, nodeArgs } = profiled();
      const side = await startSide(build, database.url, `profile_${i}`, 600, nodeArgs);
      targets.push({ label: build.label, server: side.server, paths: side.paths[scenario], tokens: side.seeded.tokens, profileDir });
    }
  } else {
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
    const seeded = await seed(db);
    await db.destroy();
    const { profileDir, nodeArgs } = profiled();
    const env = comparedServerEnvironment(database.url, await freePort());
    const server = await startBuild(tree, 0, rateLimits ? env : { ...env, RATE_LIMIT_ENABLED: 'false' }, nodeArgs);
    const paths =
      scenario === 'list'
        ? [`/v1/orgs/${seeded.organizationId}/spaces?limit=100`]
        : scenario === 'listSmall'
          ? seeded.collectionIds.map((id) => `/v1/collections/${id}/spaces?limit=100`)
          : seeded.spaceIds.map((id) => `/v1/spaces/${id}`);
    // A hundred callers: their tokens and viewers are cached within the warm-up even on a loaded machine.
    targets.push({ label: tree.label, server, paths, tokens: seeded.tokens.slice(0, 100), profileDir });
  }

  const columns: Array<{ label: string; table: StageTable; cpuMicros: number }> = [];
  const topFunctions: string[] = [];
  for (const target of targets) {
    const run = (s: number) => measured({ server: target.server.child.pid!, ...(postmaster ? { database: postmaster } : {}) }, () => load({ url: target.server.url, paths: target.paths, tokens: target.tokens, connections, seconds: s }));
    await run(3);
    const result: LoadResult = await run(seconds);
    console.log(
      `${target.label} ${which}${rateLimits ? '' : ' (rate limits off)'}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99} ms, ` +
        `${result.cpuMicros?.toFixed(0)} µs CPU/req, PostgreSQL ${result.databaseCpuMicros?.toFixed(0)} µs/req (profiled: slower than unprofiled; load ${loadAverage()})`,
    );
    await stop(target.server.child);
    const file = readdirSync(target.profileDir)
      .map((name) => join(target.profileDir, name))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    resolveSources(profile);
    // Only the measured load: its last `seconds` before the server stopped, less a second at each end.
    const end = profileLength(profile);
    const window = { from: end - (seconds - 1) * 1e6, to: end - 1e6 };
    const table = stageTable(profile, window);
    // µs per request from the CPU time /proc counted (the profile's own clock counts time the process
    // waited for a core as busy on a loaded machine): each part's share of it.
    columns.push({ label: target.label, table, cpuMicros: result.cpuMicros ?? NaN });
    topFunctions.push(
      `\n${target.label}: top functions by self time (busy ${((table.busy / table.window) * 100).toFixed(0)}% of the window)\n` +
        [...table.functions]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 30)
          .map(([name, time]) => `${((time / table.busy) * 100).toFixed(1).padStart(5)}%  ${name}`)
          .join('\n'),
    );
    topFunctions.push(
      `\n${target.label}: the busiest functions of each part (self time, share of the part)\n` +
        [...table.within]
          .sort((a, b) => (table.time.get(b[0]) ?? 0) - (table.time.get(a[0]) ?? 0))
          .map(([stage, functions]) => {
            const total = table.time.get(stage) ?? 1;
            const top = [...functions].sort((a, b) => b[1] - a[1]).slice(0, 6);
            return `${stage}\n${top.map(([name, time]) => `    ${((time / total) * 100).toFixed(0).padStart(3)}%  ${name}`).join('\n')}`;
          })
          .join('\n'),
    );
    mkdirSync(join(here, 'results'), { recursive: true });
    const kept = join(here, 'results', `profile-${which}-${target.label.replace(/\W+/g, '-')}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
    // Kept with its frames mapped to the sources: the build it ran is removed after the run.
    writeFileSync(kept, JSON.stringify(profile));
    rmSync(file);
    console.log(`(profile in ${kept})`);
  }
  console.log(`\n${formatStageTables(columns)}`);
  console.log(topFunctions.join('\n'));
} finally {
  for (const target of targets) {
    await stop(target.server.child);
    rmSync(target.profileDir, { recursive: true, force: true });
  }
  for (const build of builds) build.remove();
  await database.stop();
}
