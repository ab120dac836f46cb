// `pnpm db:types`: migrates a fresh database and writes src/db/types.generated.ts from it. The database
// is an embedded PostgreSQL in a temporary folder (as the tests use), or a new database on the server
// of TEST_DATABASE_URL when set; either is removed afterwards.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import pg from 'pg';
import { createLogger } from '../src/logger.js';
import { migrate } from '../src/db/migrate.js';
import { DATABASE_TYPES_FILE, generateDatabaseTypes } from './database-types.js';
import { startScratchPostgres, withDatabase } from './scratch-postgres.js';

async function withMigratedDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const log = createLogger({ logLevel: 'warn' });
  const { adminUrl, stop: stopServer } = await startScratchPostgres('cw-db-types-', log);
  const name = `cw_types_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = withDatabase(adminUrl, name);
    await migrate(url, log);
    return await work(url);
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
