// Starts everything the API needs — database (embedded unless DATABASE_URL), migrations, keys, jobs,
// HTTP — and stops it all gracefully. Used by main.ts, the test harness and the benchmarks.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp, type AppOptions } from './app.js';
import { listenForTokenChanges, TokenCache } from './auth/token-cache.js';
import { allCaches, createCaches } from './caches.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { postgresBlobStore } from './content/blob-store.js';
import { CountCache } from './db/count-cache.js';
import { DatabaseAvailability } from './db/availability.js';
import { createDatabase, createPool, registerPoolMetrics, type Database } from './db/database.js';
import { DEMO_EMAIL, demoBanner, type DemoAccount } from './demo-banner.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import { databaseAddress } from './db/unreachable.js';
import { createCursorCodec } from './db/cursor.js';
import { jobWorkers, lifecycle } from './areas/index.js';
import { SiteInsights } from './areas/sites/index.js';
import { createDrainableServer, type DrainableServer } from './http/drain.js';
import { RateLimits } from './http/rate-limit.js';
import { noJobs, startJobs } from './jobs/queue.js';
import { loadServerKeys } from './keys.js';
import { ParsePool } from './parsing/parse-pool.js';
import type { Logger } from './logger.js';
import { createMetrics } from './metrics.js';
import { checkListenAddress, listenFailure } from './start-failure.js';
import { createUrls, type Urls } from './urls.js';
import { bootstrap, hasAnyUser } from './areas/organizations/index.js';
import { findUserByEmail } from './auth/users.repository.js';

export type RunningServer = {
  context: AppContext;
  server: Server;
  /** The base URL the server answers on. */
  url: string;
  /**
   * Graceful shutdown within SHUTDOWN_TIMEOUT_MS: not ready at once, no new request started, requests
   * in flight finish, workers stop, then the token listener, the pool and the embedded database close.
   */
  close(): Promise<void>;
};

// The CLI takes `migrate` from here: with it comes the area registry its commands need (events, permissions).
export { migrate };

/** Resolves the database: DATABASE_URL, else the embedded PostgreSQL in DATA_DIR. */
export async function openDatabaseUrl(config: Config, log: Logger): Promise<{ url: string; embedded?: EmbeddedPostgres }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const embedded = await startEmbeddedPostgres({
    dataDir: join(config.dataDir, 'postgres'),
    database: 'content_workspace',
    log,
    urlFile: join(config.dataDir, 'postgres.url'),
  });
  return { url: embedded.url, embedded };
}

export async function startServer(
  config: Config,
  log: Logger,
  options: AppOptions & { databaseUrl?: string; migrate?: boolean } = {},
): Promise<RunningServer> {
  const started = Date.now();
  const phase = (name: string) => log.debug({ phase: name, ms: Date.now() - started }, 'start-up');
  // What has started, stopped in reverse order if a later step fails: a failed start leaves nothing running.
  const opened: { name: string; close(): Promise<unknown> }[] = [];
  const closeOpened = async () => {
    for (const { name, close } of opened.reverse()) await close().catch((error: unknown) => log.warn({ err: error }, `after a failed start: ${name} failed`));
  };
  try {
    // A port in use is said at once, before the database starts.
    await checkListenAddress(config.host, config.port);
    const database = options.databaseUrl ? { url: options.databaseUrl } : await openDatabaseUrl(config, log);
    const embedded = 'embedded' in database ? database.embedded : undefined;
    if (embedded) opened.push({ name: 'stopping the embedded database', close: () => embedded.stop() });
    phase('database');
    if (options.migrate !== false) await migrate(database.url, log);
    phase('migrations');
    const metrics = createMetrics();
    const availability = new DatabaseAvailability(log, databaseAddress(database.url));
    const pool = createPool(database.url, config.dbPoolSize, log, availability);
    registerPoolMetrics(metrics, 'requests', pool);
    // Tests and CI (response validation on) check every query compiled once per shape (db/query-shapes.ts).
    const db = createDatabase(pool, { verifyQueryShapes: config.validateResponses });
    opened.push({ name: 'closing the pool', close: () => db.destroy() });
    const keys = await loadServerKeys(db);
    // Every in-memory cache of this server, fresh: nothing outlives it, nothing is shared with another.
    const caches = createCaches(config.cacheMemoryBytes);
    for (const cache of allCaches(caches)) metrics.cache(cache.name, () => cache.stats());
    const tokens = new TokenCache(caches.tokens);
    const tokenChanges = await listenForTokenChanges(database.url, tokens, log, availability);
    opened.push({ name: 'stopping the token listener', close: () => tokenChanges.stop() });
    const counts = new CountCache(caches.counts);
    // The blob store: PostgreSQL (an S3-compatible store would be chosen here, from the configuration).
    const blobs = postgresBlobStore;
    const rateLimits = new RateLimits(config.rateLimit, pool, db, log);
    opened.push({ name: 'writing the rate-limit counters', close: () => rateLimits.stop() });
    // A task waiting for a worker is answered 503 while its request can still be answered.
    const parsing = new ParsePool({ maxWaitMs: Math.max(1000, config.requestTimeoutMs - 5000) });
    opened.push({ name: 'stopping the parse pool', close: () => parsing.close() });
    const insights = new SiteInsights(db, log);
    opened.push({ name: 'writing the site insights', close: () => insights.stop() });
    const base = { config, db, log, keys, cursors: createCursorCodec(keys.cursor), urls: createUrls(config), counts, tokens, lifecycle, rateLimits, metrics, caches, blobs, parsing, insights };
    phase('keys and token listener');
    const jobs = config.jobsEnabled ? await startJobs(database.url, jobWorkers(base), log, { availability, metrics }) : noJobs;
    opened.push({ name: 'stopping the workers', close: () => jobs.stop(1000) });
    phase('jobs');
    const context: AppContext = { ...base, jobs };

    const demo = embedded && config.bootstrapDemo ? await demoAccount(db, log, createUrls(config)) : undefined;

    let http: DrainableServer | undefined = undefined;
    const { app, loop, validator } = createApp(context, { ...options, isShuttingDown: () => http?.isDraining() ?? false });
    opened.push({ name: 'stopping the lag alarm', close: async () => loop.stop() });
    phase('app');
    http = createDrainableServer(app);
    const { server } = http;
    // Explicit timeouts: slow or idle clients must not hold sockets forever.
    server.requestTimeout = config.requestTimeoutMs;
    server.headersTimeout = Math.min(20_000, config.requestTimeoutMs);
    server.keepAliveTimeout = 65_000;
    server.timeout = config.requestTimeoutMs + 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) => reject(listenFailure(error, config.host, config.port) ?? error));
      server.listen(config.port, config.host, () => resolve());
    });
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
    // The bound address (what the socket listens on: 0.0.0.0 is every interface) and where to reach it.
    log.info({ address: `${host}:${address.port}`, url, startupMs: Date.now() - started }, 'listening');
    if (demo) process.stderr.write(demoBanner(demo, config.publicUrl, config.mode));
    // Each operation's request validators, compiled now between requests rather than by its first one (issue 25).
    if (config.compileValidatorsAhead) {
      const compiling = Date.now();
      validator.compileAhead().then(
        (compiled) => log.info({ compiled, ms: Date.now() - compiling }, 'request validators compiled'),
        (error: unknown) => log.error({ err: error }, 'compiling the request validators failed'),
      );
    }

    let closing: Promise<void> | undefined;
    const close = async () => {
      const deadline = Date.now() + config.shutdownTimeoutMs;
      const left = () => Math.max(0, deadline - Date.now());
      // Requests get most of the time; the rest is kept for the workers, the pool and the database.
      const reserveMs = Math.min(3000, config.shutdownTimeoutMs * 0.3);
      // Each step runs even when an earlier one failed (say, with the database already gone).
      const step = (name: string, work: Promise<unknown>) => work.catch((error) => log.warn({ err: error }, `shutdown: ${name} failed`));
      // Workers stop taking jobs at once and finish the ones running, while the requests drain.
      const [drained] = await Promise.all([http.drain(Math.max(0, left() - reserveMs)), step('stopping the workers', jobs.stop(left()))]);
      if (drained.forced) log.warn('requests still running at the shutdown deadline were cut');
      await step('stopping the token listener', tokenChanges.stop());
      await step('stopping the parse pool', parsing.close());
      loop.stop();
      await step('writing the rate-limit counters', rateLimits.stop());
      // After the requests drained: the last views and searches they counted.
      await step('writing the site insights', insights.stop());
      await step('closing the pool', db.destroy());
      await step('stopping the embedded database', embedded?.stop() ?? Promise.resolve());
      log.info({ ms: config.shutdownTimeoutMs - left() }, 'stopped');
    };

    return {
      context,
      server,
      url,
      close() {
        closing ??= close();
        return closing;
      },
    };
  } catch (error) {
    await closeOpened();
    throw error;
  }
}

/**
 * The demo account of an embedded database: created with a token on an empty one (the banner shows the
 * token once); on a later start, the account alone (the banner says how to get a new token).
 */
async function demoAccount(db: Database, log: Logger, urls: Urls): Promise<DemoAccount | undefined> {
  if (await hasAnyUser(db)) {
    const user = await findUserByEmail(db, DEMO_EMAIL);
    return user && { email: user.email, organizationTitle: undefined, token: undefined };
  }
  const created = await bootstrap(db, urls, { email: DEMO_EMAIL, name: 'Demo User', organizationTitle: 'Demo organization' });
  log.info({ email: created.user.email, organization: created.organization?.id }, 'bootstrapped a demo user and organization');
  return { email: created.user.email, organizationTitle: created.organization?.title, token: created.token };
}
