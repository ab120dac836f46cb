// `pnpm db:types`: migrates a fresh database and writes src/db/types.generated.ts from it. The database
// is an embedded PostgreSQL in a temporary folder (as the tests use), or a new database on the server
// of TEST_DATABASE_URL when set; either is removed afterwards.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { createLogger } from '../src/logger.js';
import { migrate } from '../src/server.js';
import { DATABASE_TYPES_FILE, generateDatabaseTypes } from './database-types.js';

async function withMigratedDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const log = createLogger({ logLevel: 'warn' });
  let adminUrl: string;
  let stopServer = async () => {};
  if (process.env.TEST_DATABASE_URL) {
    adminUrl = process.env.TEST_DATABASE_URL;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'cw-db-types-'));
    chmodSync(dir, 0o755); // embedded PostgreSQL runs as user postgres when we are root
    const embedded = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), database: 'postgres', log, durability: 'fast' });
    adminUrl = embedded.url;
    stopServer = async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const name = `cw_types_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await migrate(url.toString(), log);
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.end();
    await stopServer();
  }
}

const output = await withMigratedDatabase(generateDatabaseTypes);
const path = relative(process.cwd(), DATABASE_TYPES_FILE);
let previous: string | undefined;
try {
  previous = readFileSync(DATABASE_TYPES_FILE, 'utf8');
} catch {
  previous = undefined;
}
if (previous === output) {
  console.log(`${path} is up to date`);
} else {
  writeFileSync(DATABASE_TYPES_FILE, output);
  console.log(`wrote ${path}`);
}
