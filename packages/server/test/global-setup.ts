// Once per test run: a PostgreSQL of our own (embedded, in a fresh temp folder; or TEST_DATABASE_URL)
// and a migrated template database that every test file clones.
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { newKeyMaterial } from '../src/keys.js';
import { createLogger } from '../src/logger.js';
import { migrate } from '../src/server.js';
import { startScratchPostgres, withDatabase } from '../tools/scratch-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of a database on the test server with the right to create databases. */
    databaseAdminUrl: string;
    /** Name of the migrated template database. */
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  const log = createLogger({ logLevel: 'warn' });
  const { adminUrl, stop: stopServer } = await startScratchPostgres('cw-test-', log);

  // Both server projects (packages/server/vitest.server-projects.ts) run this in vitest's one process, on one
  // PostgreSQL when TEST_DATABASE_URL names it: a template of each project's own.
  const template = `cw_template_${process.pid}_${project.name.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const templateUrl = withDatabase(adminUrl, template);
  await migrate(templateUrl, log);
  // pg-boss creates its schema on first start: do it once here so test servers with jobs start fast.
  const boss = new PgBoss({ connectionString: templateUrl, max: 1, supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: false, close: true });
  // The SAML service provider's RSA key pair is the one key that takes long to make (a quarter of a
  // second of CPU): made once here, so each clone only makes its cheap random keys (src/keys.ts).
  const templateClient = new pg.Client({ connectionString: templateUrl });
  await templateClient.connect();
  await templateClient.query('INSERT INTO server_keys (kind, material) VALUES ($1, $2)', ['samlServiceProvider', newKeyMaterial('samlServiceProvider')]);
  await templateClient.end();
  await admin.end();

  project.provide('databaseAdminUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
    await cleanup.end();
    await stopServer();
  };
}
