import { readFileSync } from 'node:fs';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { startBenchDatabase } from './lib/database.js';
import { runScript, startScript, stop } from './lib/processes.js';
import { pin } from './lib/cpus.js';
import { seed } from './api/seed.js';
const cpuOf = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
// tsx spawns node as a child: find the node process under the tsx wrapper (the one using CPU).
import { execSync } from 'node:child_process';
const nodePid = (pid: number): number => { const kids = execSync(`pgrep -P ${pid} || true`).toString().trim().split('\n').filter(Boolean).map(Number); return kids.length ? nodePid(kids[kids.length - 1]!) : pid; };
const database = await startBenchDatabase();
pin(database.postmasterPid()!, 1);
const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
const s = await seed(db); await db.destroy();
const full = await startScript('api/static-server.tmp.ts', 0, { DATABASE_URL: database.url });
const bare = await startScript('api/bare-server.ts', 0, { DATABASE_URL: database.url, ORGANIZATION_ID: s.organizationId });
const targets = { full: { url: `http://127.0.0.1:${full.port}`, paths: s.spaceIds.map((id) => `/v1/spaces/${id}`), tokens: s.tokens, pid: nodePid(full.child.pid!) }, bare: { url: `http://127.0.0.1:${bare.port}`, paths: s.spaceIds.map((id) => `/bare/spaces/${id}`), tokens: [] as string[], pid: nodePid(bare.child.pid!) } };
const out: Record<string, number[]> = { full: [], bare: [] };
for (let i = 0; i < 5; i++) for (const [name, t] of Object.entries(targets)) {
  const before = cpuOf(t.pid);
  const r = await runScript<any>('api/load.ts', 1, { url: t.url, paths: t.paths, tokens: t.tokens, connections: 20, seconds: 2 });
  if (i > 0) out[name]!.push((cpuOf(t.pid) - before) / r.total);
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
console.log(`CPU ms/request: full ${med(out.full!).toFixed(3)} bare ${med(out.bare!).toFixed(3)} → ratio ${(med(out.bare!) / med(out.full!)).toFixed(2)}`);
await stop(full.child); await stop(bare.child); await database.stop();
