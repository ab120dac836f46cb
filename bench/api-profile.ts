// `pnpm bench:profile [by-id|list|list-small] [--seconds S] [--rate-limits]`: a CPU profile (node --cpu-prof) of the
// API server under the load of `pnpm bench api`, on the same seeded database and pinning, summarised by
// where the time goes (Express, pg, the validator, the project's own code, …). The .cpuprofile file is
// kept in bench/results/ for a closer look (Chrome DevTools, speedscope).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { pin } from './lib/cpus.js';
import { startBenchDatabase } from './lib/database.js';
import { runScript, startScript, stop } from './lib/processes.js';
import { seed } from './api/seed.js';

const here = dirname(fileURLToPath(import.meta.url));
process.chdir(here);
const args = process.argv.slice(2);
const which = args.find((arg) => !arg.startsWith('--') && Number.isNaN(Number(arg))) ?? 'by-id';
const secondsAt = args.indexOf('--seconds');
const seconds = secondsAt >= 0 ? Number(args[secondsAt + 1]) : 15;
/** Profiles the server with rate limits on (the production default) instead of off. */
const rateLimits = args.includes('--rate-limits');

type ProfileNode = { id: number; callFrame: { functionName: string; url: string }; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** Where a frame's code lives, in the terms. */
function categoryOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return 'program (native, unattributed)';
  const module = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module) {
    const name = module[1]!;
    if (['express', 'router', 'body-parser', 'send', 'finalhandler', 'on-finished', 'content-type', 'mime-types', 'type-is', 'qs', 'accepts', 'negotiator', 'encodeurl', 'parseurl', 'path-to-regexp', 'cookie', 'vary', 'proxy-addr', 'forwarded', 'etag', 'fresh', 'range-parser', 'content-disposition', 'depd', 'http-errors', 'statuses', 'debug', 'ms', 'safe-buffer', 'setprototypeof', 'inherits', 'media-typer', 'escape-html'].includes(name)) return 'Express and its router';
    if (name.startsWith('pg')) return 'pg driver';
    if (name === 'express-openapi-validator' || name === 'ajv' || name === 'ajv-formats' || name === 'fast-uri' || name === 'json-schema-traverse' || name === 'fast-deep-equal') return 'express-openapi-validator (ajv)';
    return name;
  }
  if (url.startsWith('node:') || (url === '' && functionName !== '')) return 'Node core';
  if (url.includes('/packages/server/src/')) return `project: ${url.replace(/.*\/packages\/server\/src\//, '').split('/')[0]}`;
  if (url.includes('/packages/')) return 'project: other packages';
  return url ? 'other' : 'Node core';
}

const database = await startBenchDatabase();
const profileDir = mkdtempSync(join(tmpdir(), 'cw-profile-'));
let server: Awaited<ReturnType<typeof startScript>> | undefined;
try {
  const postmaster = database.postmasterPid();
  if (postmaster) pin(postmaster, 1);
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
  const seeded = await seed(db);
  await db.destroy();
  server = await startScript('api/full-server.ts', 0, { DATABASE_URL: database.url, RATE_LIMIT_ENABLED: String(rateLimits) }, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
  const url = `http://127.0.0.1:${server.port}`;
  const paths =
    which === 'list'
      ? [`/v1/orgs/${seeded.organizationId}/spaces?limit=100`]
      : which === 'list-small'
        ? seeded.collectionIds.map((id) => `/v1/collections/${id}/spaces?limit=100`)
        : seeded.spaceIds.map((id) => `/v1/spaces/${id}`);
  const connections = which === 'by-id' ? 50 : 16;
  const load = (s: number) => runScript<{ requestsPerSecond: number; p99: number }>('api/load.ts', 1, { url, paths, tokens: seeded.tokens, connections, seconds: s });
  await load(3);
  const result = await load(seconds);
  console.log(`${which}${rateLimits ? ' (rate limits on)' : ''}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99} ms (profiled: slower than unprofiled)`);
  await stop(server.child);
  server = undefined;

  const files = readdirSync(profileDir).map((name) => join(profileDir, name));
  const file = files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // Only the measured load: the samples of its last `seconds` before the server stopped, less a margin
  // at each end (start-up, module loading and the warm-up are not what is measured).
  const end = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  const window = [end - (seconds - 1) * 1e6, end - 1e6];
  const selfTime = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= window[0]! && at <= window[1]!) selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const categories = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, time] of selfTime) {
    const { functionName, url: source } = byId.get(id)!.callFrame;
    const category = categoryOf(source, functionName);
    if (category === 'idle') continue;
    busy += time;
    categories.set(category, (categories.get(category) ?? 0) + time);
    const name = `${functionName || '(anonymous)'} ${source.replace(/.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '').replace(/.*\/packages\//, '')}`;
    functions.set(name, (functions.get(name) ?? 0) + time);
  }
  const share = (time: number) => `${((time / busy) * 100).toFixed(1)}%`.padStart(6);
  console.log(`\nself time by category (idle excluded; the server was busy ${((busy / (window[1]! - window[0]!)) * 100).toFixed(0)}% of the window):`);
  for (const [category, time] of [...categories].sort((a, b) => b[1] - a[1]).filter(([, time]) => time / busy >= 0.001)) console.log(`${share(time)}  ${category}`);
  console.log('\ntop functions by self time:');
  for (const [name, time] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${share(time)}  ${name}`);
  mkdirSync(join(here, 'results'), { recursive: true });
  const kept = join(here, 'results', `profile-${which}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
  renameSync(file, kept);
  console.log(`\n(profile in ${kept})`);
} finally {
  if (server) await stop(server.child);
  rmSync(profileDir, { recursive: true, force: true });
  await database.stop();
}
