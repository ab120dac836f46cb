// Experiment: throughput of GET /v1/spaces/{id} with a single variant of app.ts (edited by hand between runs).
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { startBenchDatabase } from './lib/database.js';
import { runScript, startScript, stop } from './lib/processes.js';
import { pin } from './lib/cpus.js';
import { seed } from './api/seed.js';
const database = await startBenchDatabase();
pin(database.postmasterPid()!, 1);
const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
const s = await seed(db); await db.destroy();
const full = await startScript('api/full-server.ts', 0, { DATABASE_URL: database.url });
const bare = await startScript('api/bare-server.ts', 0, { DATABASE_URL: database.url, ORGANIZATION_ID: s.organizationId });
const byId = s.spaceIds.map((id) => `/v1/spaces/${id}`);
await runScript<any>('api/load.ts', 1, { url: `http://127.0.0.1:${full.port}`, paths: byId, tokens: s.tokens, connections: 50, seconds: 3 });
await runScript<any>('api/load.ts', 1, { url: `http://127.0.0.1:${bare.port}`, paths: s.spaceIds.map((id) => `/bare/spaces/${id}`), tokens: [], connections: 50, seconds: 2 });
let f = 0, b = 0;
for (let i = 0; i < 4; i++) {
  f += (await runScript<any>('api/load.ts', 1, { url: `http://127.0.0.1:${full.port}`, paths: byId, tokens: s.tokens, connections: 50, seconds: 3 })).requestsPerSecond;
  b += (await runScript<any>('api/load.ts', 1, { url: `http://127.0.0.1:${bare.port}`, paths: s.spaceIds.map((id) => `/bare/spaces/${id}`), tokens: [], connections: 50, seconds: 3 })).requestsPerSecond;
}
console.log(`full ${(f / 4).toFixed(0)} bare ${(b / 4).toFixed(0)} ratio ${(f / b).toFixed(2)}`);
await stop(full.child); await stop(bare.child); await database.stop();
