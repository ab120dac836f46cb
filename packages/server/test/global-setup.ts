// Once per test run: a PostgreSQL of our own (embedded, in a fresh temp folder; or TEST_DATABASE_URL)
// and a migrated template database that every test file clones.
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { newKeyMaterial } from '../src/keys.js';
import { createLogger } from '../src/logger.js';
import { migrate } from '../src/db/migrate.js';
import { startScratchPostgres, withDatabase } from '../tools/scratch-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of a database on the test server with the right to create databases. */
    databaseAdminUrl: string;
    /** Name of the migrated template database. */
    templateDatabase: string;
  }
}

type Shared = { adminUrl: string; template: string; stop: () => Promise<void> };
/**
 * Both server projects (packages/server/vitest.server-projects.ts) run this setup in vitest's one
 * process, one after the other: the first starts PostgreSQL and migrates the template, the second uses
 * them (a second server and migration cost several seconds before any test starts), and the last
 * teardown removes them. Kept on `globalThis`: each project may load this module afresh.
 */
const SHARED = Symbol.for('content-workspace.test-postgres');
type Holder = { ready?: Promise<Shared>; users: number };
const holder = ((globalThis as Record<symbol, Holder | undefined>)[SHARED] ??= { users: 0 });

async function startShared(): Promise<Shared> {
  const log = createLogger({ logLevel: 'warn' });
  const { adminUrl, stop: stopServer } = await startScratchPostgres('cw-test-', log);
  // On one PostgreSQL under TEST_DATABASE_URL, another run's template may exist: each is named by its process.
  const template = `cw_template_${process.pid}`;
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
  const stop = async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
    await cleanup.end();
    await stopServer();
  };
  return { adminUrl, template, stop };
}

export default async function setup(project: TestProject) {
  holder.users += 1;
  holder.ready ??= startShared();
  const { adminUrl, template } = await holder.ready;
  project.provide('databaseAdminUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    holder.users -= 1;
    if (holder.users > 0) return;
    const shared = holder.ready;
    holder.ready = undefined;
    await (await shared)?.stop();
  };
}
