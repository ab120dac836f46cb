import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { startBenchDatabase } from './lib/database.js';
import { seed } from './api/seed.js';
import { createDatabase, createPool } from '../packages/server/src/db/database.js';
import { createLogger } from '../packages/server/src/logger.js';
import { requireSpace } from '../packages/server/src/auth/access.js';
import { findSpaceWithStanding } from '../packages/server/src/db/repositories/access.repository.js';
import { toApiSpace } from '../packages/server/src/mappers/space.mapper.js';
import { createUrls } from '../packages/server/src/mappers/urls.js';
const database = await startBenchDatabase();
const seedDb = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
const s = await seed(seedDb); await seedDb.destroy();
const pool = createPool(database.url, 4, createLogger({ logLevel: 'warn' }));
const db = createDatabase(pool);
const urls = createUrls({ publicUrl: 'http://x', appUrl: 'http://y' });
const caller = (i: number) => ({ user: { id: 'benchuser' + String((i % 1000) + 1).padStart(11, '0'), email: '', displayName: '', photoUrl: null, createdAt: new Date() }, tokenId: 't' });
const raw = await pool.connect();
const PRE = `/* @prepared */ SELECT sp.*, o.id AS standing_organization_id, o.listing_version, o.sso AS organization_sso, m.role AS member_role, m.user_id IS NOT NULL AS is_member, coalesce(m.sso, false) AS member_sso
    FROM space_locators l JOIN spaces sp ON sp.organization_id = l.organization_id AND sp.id = l.space_id
    JOIN organizations o ON o.id = sp.organization_id
    LEFT JOIN organization_members m ON m.organization_id = sp.organization_id AND m.user_id = $1
    WHERE l.space_id = $2 AND sp.deleted_at IS NULL`;
const cases: Array<[string, (i: number) => Promise<unknown>]> = [
  ['raw pg PK (named)', (i) => raw.query({ name: 'pk', text: 'SELECT * FROM spaces WHERE organization_id = $1 AND id = $2', values: [s.organizationId, s.spaceIds[i % 10000]] })],
  ['kysely precompiled', (i) => db.executeQuery(CompiledQuery.raw(PRE, [caller(i).user.id, s.spaceIds[i % 10000]]))],
  ['raw pg standing (named)', (i) => raw.query({ name: 'st', text: PRE, values: [caller(i).user.id, s.spaceIds[i % 10000]] })],
  ['kysely standing query', (i) => findSpaceWithStanding(db, s.spaceIds[i % 10000]!, caller(i).user.id)],
  ['requireSpace', (i) => requireSpace(db, caller(i) as never, s.spaceIds[i % 10000]!, 'read')],
  ['requireSpace+map+json', async (i) => JSON.stringify(toApiSpace((await requireSpace(db, caller(i) as never, s.spaceIds[i % 10000]!, 'read')).space, 'read', urls))],
];
for (const [name, run] of cases) {
  for (let i = 0; i < 3000; i++) await run(i);
  const u0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < 3000; i++) await run(i);
  const u = process.cpuUsage(u0);
  console.log(name.padEnd(28), 'cpu µs/op', ((u.user + u.system) / 3000).toFixed(1), ' wall ms/op', ((performance.now() - t0) / 3000).toFixed(3));
}
raw.release(); await db.destroy(); await database.stop();
