// A real server on an ephemeral port over a database cloned from the template, called through the
// SDK with response validation on. `useTestServer()` in a test file starts one for the whole file.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createClient, type ContentWorkspaceClient } from '@content-workspace/sdk';
import { loadConfig, type Config } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import type { Database } from '../../src/db/database.js';
import type { HandlerMap } from '../../src/http/handler.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';

export type TestServer = {
  url: string;
  /** URL of this server's own database (a clone of the template). */
  databaseUrl: string;
  db: Database;
  context: AppContext;
  config: Config;
  /** A client calling as the holder of `token` (anonymous without one). */
  client(token?: string): ContentWorkspaceClient;
  /** Responses that did not match the spec (each also answered 500). */
  responseErrors: Error[];
  close(): Promise<void>;
};

/** A database of its own, cloned from the migrated template; `drop()` removes it. */
export async function cloneDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('databaseAdminUrl');
  const template = inject('templateDatabase');
  const name = `cw_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // Concurrent clones of one template can collide on its lock: retry briefly. FILE_COPY copies the
  // template's files (34–39 ms a clone of the 11 MB template) where the default strategy writes every
  // page to the WAL (60–149 ms); its checkpoints are cheap on the tests' PostgreSQL (fsync off).
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY = FILE_COPY`);
      break;
    } catch (error) {
      if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function startTestServer(
  options: {
    handlers?: HandlerMap;
    env?: Record<string, string>;
    /** Run on this server's database (a second instance); the first server's close drops it. */
    sharedWith?: TestServer;
    /** Reach the database at this address instead (a proxy in front of it: test/support/round-trips.ts). */
    connectThrough?: (databaseUrl: string) => string;
  } = {},
): Promise<TestServer> {
  const shared = options.sharedWith;
  const database = shared ? { url: shared.databaseUrl, drop: async () => {} } : await cloneDatabase();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://api.test',
    APP_URL: 'http://app.test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    VALIDATE_RESPONSES: 'true',
    COMPILE_VALIDATORS_AHEAD: 'false',
    JOBS_ENABLED: 'false',
    BOOTSTRAP_DEMO: 'false',
    DB_POOL_SIZE: '5',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    SHUTDOWN_TIMEOUT_MS: '1000',
    // The contract sweep and the matrix send many requests per token: tests that need limits turn them on.
    RATE_LIMIT_ENABLED: 'false',
    // No DNS is asked but the tests' own (test/support/dns-server.ts): nothing listens on this port, so
    // a custom hostname's check fails at once (tests of hostnames set their server).
    SITE_DNS_SERVERS: '127.0.0.1:9',
    ...options.env,
  });
  const responseErrors: Error[] = [];
  let running: RunningServer;
  try {
    running = await startServer(config, createLogger(config), {
      databaseUrl: options.connectThrough ? options.connectThrough(database.url) : database.url,
      migrate: false,
      ...(options.handlers ? { handlers: options.handlers } : {}),
      onResponseError: (error, body) => {
        responseErrors.push(error);
        console.error('Response does not match the spec:', error.message, JSON.stringify(body).slice(0, 500));
      },
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    url: running.url,
    databaseUrl: database.url,
    db: running.context.db,
    context: running.context,
    config,
    responseErrors,
    // No retries: a test must see the server's first answer.
    client: (token) => createClient({ baseUrl: running.url, maxRetries: 0, ...(token ? { token } : {}) }),
    async close() {
      await running.close();
      await database.drop();
    },
  };
}

/** Starts a test server before the file's tests and stops it after; use the returned getter. */
export function useTestServer(options: Parameters<typeof startTestServer>[0] = {}): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the test server is not started (call inside a test or hook)');
    return server;
  };
}
