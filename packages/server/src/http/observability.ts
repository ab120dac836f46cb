// Request ids, access logs and Prometheus metrics in one middleware with one `finish` listener (this
// runs on every request: per-request work stays small), the event-loop lag alarm, and the health
// endpoints.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IRouter, Request, RequestHandler, Response } from 'express';
import { sql } from 'kysely';
import { Histogram } from 'prom-client';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { matchedOperation } from './router.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request's id: the caller's `X-Request-Id` when well-formed, else a new UUID. */
      id: string;
      /** A logger bound to this request's id (created on first use). */
      log: Logger;
    }
  }
}

/** A tick of the event loop longer than this is logged as a warning, naming the requests that ran meanwhile. */
export const LAG_ALARM_MS = 100;
/** How often the loop is sampled: a blocked tick delays the sample by its length. */
const LAG_SAMPLE_MS = 20;
/** Requests that finished lately, kept to name the one that blocked a tick it answered in. */
const RECENTLY_FINISHED = 32;
/** Requests named in one alarm at most. */
const NAMED_IN_ALARM = 10;

/** A request in flight (or finished lately): when it started and, once answered, when it finished. */
type Tracked = { req: Request; started: number; finished: number };

/** Linux's clock ticks per second in /proc (USER_HZ: 100 on every architecture Node runs on). */
const PROC_TICK_MS = 10;
const MAIN_THREAD_STAT = `/proc/self/task/${process.pid}/stat`;

/**
 * The CPU time the main thread (the event loop's) has used, in ms, on Linux; undefined elsewhere. Tells
 * a tick held by code (the thread ran all along) from one the machine did not run (it hardly ran).
 */
export function mainThreadCpuMs(): number | undefined {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(MAIN_THREAD_STAT, 'latin1').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * PROC_TICK_MS;
  } catch {
    return undefined;
  }
}

/**
 * The requests in flight (and the last few finished), and a timer that measures each tick of the
 * event loop: a tick over LAG_ALARM_MS is logged with the ids of the requests that were running during
 * it (no input may hold the loop past ~50 ms: docs/decisions.md, "Parsing off the event loop").
 */
export class EventLoopWatch {
  private readonly inFlight = new Set<Tracked>();
  /** A ring of the last RECENTLY_FINISHED requests finished (every request passes here: no array shifts). */
  private readonly finished: Array<Tracked | undefined> = new Array<Tracked | undefined>(RECENTLY_FINISHED);
  private nextFinished = 0;
  private timer: NodeJS.Timeout | undefined;

  /** Starts tracking a request; `untrack` it once answered or abandoned. */
  track(req: Request, started = performance.now()): Tracked {
    const tracked: Tracked = { req, started, finished: 0 };
    this.inFlight.add(tracked);
    return tracked;
  }

  untrack(tracked: Tracked, finished = performance.now()): void {
    if (!this.inFlight.delete(tracked)) return;
    tracked.finished = finished;
    this.finished[this.nextFinished] = tracked;
    this.nextFinished = (this.nextFinished + 1) % RECENTLY_FINISHED;
  }

  /** Starts sampling (once); the timer never keeps the process alive. */
  start(log: Logger): void {
    if (this.timer) return;
    let last = performance.now();
    let lastCpu = mainThreadCpuMs();
    this.timer = setInterval(() => {
      const now = performance.now();
      const cpu = mainThreadCpuMs();
      const lag = now - last - LAG_SAMPLE_MS;
      const cpuMs = cpu === undefined || lastCpu === undefined ? undefined : cpu - lastCpu;
      last = now;
      lastCpu = cpu;
      if (lag > LAG_ALARM_MS) this.alarm(log, lag, now - lag, cpuMs);
    }, LAG_SAMPLE_MS);
    this.timer.unref();
  }

  /** `cpuMs`: what the main thread ran meanwhile (10 ms steps): about `lag` when code held it, near 0 when the machine did not run it. */
  private alarm(log: Logger, lag: number, blockedSince: number, cpuMs: number | undefined): void {
    const finishedDuring = this.finished.filter((tracked): tracked is Tracked => tracked !== undefined && tracked.finished >= blockedSince).sort((a, b) => a.finished - b.finished);
    const during = [...this.inFlight, ...finishedDuring].filter((tracked) => tracked.started <= blockedSince + lag);
    const requests = during.slice(0, NAMED_IN_ALARM).map(({ req }) => ({ reqId: req.id, method: req.method, path: loggedPath(req), operation: matchedOperation(req)?.operationId }));
    log.warn({ lagMs: Math.round(lag), ...(cpuMs === undefined ? {} : { cpuMs }), ...(requests.length === 1 ? { reqId: requests[0]!.reqId } : {}), requests }, 'event loop blocked');
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

// The registry is the server's (metrics.ts, on the AppContext): re-exported for the HTTP layer's users.
export { createMetrics, type Metrics } from '../metrics.js';

/**
 * Path parameters that are credentials (spec: an invite's id is its secret; a download address's
 * signature is its token): masked in the access log. Query strings are never logged (`shareKey`).
 */
export const SECRET_PATH_PARAMETERS: ReadonlySet<string> = new Set(['inviteId', 'signature']);

/** Probes and scrapes: at `trace` when they succeed, so they do not drown the access log. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** Whether a spec route (`/v1/invites/{inviteId}`) has a secret path parameter: decided once per route. */
const routesWithSecrets = new Map<string, boolean>();
const hasSecretParameter = (route: string) => {
  let secret = routesWithSecrets.get(route);
  if (secret === undefined) routesWithSecrets.set(route, (secret = [...route.matchAll(/\{(\w+)\}/g)].some(([, name]) => SECRET_PATH_PARAMETERS.has(name!))));
  return secret;
};

/** The request's path as logged: without its query string, and with secret path parameters masked. */
function loggedPath(req: Request): string {
  const route = (req as Request & { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute;
  if (route !== undefined && hasSecretParameter(route)) {
    const params = matchedOperation(req)!.params;
    return route.replace(/\{(\w+)\}/g, (_, name: string) => (SECRET_PATH_PARAMETERS.has(name) ? '[redacted]' : encodeURIComponent(params[name] ?? '')));
  }
  const query = req.originalUrl.indexOf('?');
  return query === -1 ? req.originalUrl : req.originalUrl.slice(0, query);
}

/**
 * Sets `req.id` (echoed as `X-Request-Id`) and a lazy `req.log`; on finish, records the duration by
 * the spec's path (never the raw path: ids would explode the label set) and writes the request's one
 * access-log line (`request`: method, path, operation id, status, duration in ms, and the request id as
 * `reqId`) at `accessLog`'s level — `false` writes none — except that a 5xx is always logged, at
 * `error` (a 503 at `warn`), and a probe (/healthz, /readyz, /metrics) at `trace` when it succeeds, at the access level
 * when it does not.
 */
export function observe(log: Logger, metrics: Metrics, loop: EventLoopWatch, accessLog: Config['accessLog'] = 'info'): RequestHandler {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metrics.registry],
  });
  const refused = rateLimitRefusals(metrics);
  const levelOf = (path: string, status: number) => {
    // A probe that fails is an expected state (stopping, the database away), not a server error.
    if (PROBES.has(path)) return status < 400 ? 'trace' : accessLog || undefined;
    // A 503 is a state the server rides out (the database away, too many uploads at once): a warning.
    if (status === 503) return 'warn';
    return status >= 500 ? 'error' : accessLog || undefined;
  };
  const children = new WeakMap<object, Logger>();
  loop.start(log);
  // The histogram's series by method, route and status, kept: labelling an observation hashes its labels.
  const series = new Map<string, { observe(value: number): void }>();
  let requestPrototype: object | undefined;
  return (req, res, next) => {
    const started = performance.now();
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    const prototype = Object.getPrototypeOf(req) as object;
    if (prototype !== requestPrototype) {
      requestPrototype = prototype;
      // Once per app: a lazy getter on the requests' prototype (defining a property on every request
      // object is slow), creating the child logger only when something logs.
      if (!Object.getOwnPropertyDescriptor(prototype, 'log')) {
        Object.defineProperty(prototype, 'log', {
          configurable: true,
          get(this: { id: string }) {
            let child = children.get(this);
            if (!child) children.set(this, (child = log.child({ reqId: this.id })));
            return child;
          },
        });
      }
    }
    const tracked = loop.track(req, started);
    // One listener: `close` follows `finish` on every response, and comes alone when the client left
    // before the answer was written (nothing to record then). Emitted once: `on`, without `once`'s wrapper.
    res.on('close', () => {
      const now = performance.now();
      loop.untrack(tracked, now);
      if (!res.writableFinished) return;
      const seconds = (now - started) / 1000;
      const match = (req as Request & { openapi?: { openApiRoute?: string; schema?: { operationId?: string } } }).openapi;
      const route = match?.openApiRoute ?? (req.route?.path as string | undefined) ?? 'unmatched';
      const status = res.statusCode;
      const name = `${req.method} ${route} ${status}`;
      let observer = series.get(name);
      if (!observer) series.set(name, (observer = duration.labels(req.method, route, String(status))));
      observer.observe(seconds);
      if (status === 429) refused(res);
      if (status < 500 && accessLog === false) return;
      const path = loggedPath(req);
      const level = levelOf(path, status);
      if (!level || !log.isLevelEnabled(level)) return;
      // The line req.log would write (its reqId first), without making the request a child logger.
      log[level]({ reqId: req.id, method: req.method, path, operation: match?.schema?.operationId, status, ms: Math.round(seconds * 10_000) / 10 }, 'request');
    });
    next();
  };
}

/**
 * `http_rate_limit_refusals_total{policy}`: requests refused with 429, by the budget that was spent
 * (`token` or `address`, the name the refusal's `RateLimit-Policy` header carries: http/rate-limit.ts).
 */
function rateLimitRefusals(metrics: Metrics): (res: Response) => void {
  const refusals = metrics.counter({
    name: 'http_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit (429), by policy (token, address)',
    labelNames: ['policy'],
  });
  for (const policy of ['token', 'address']) refusals.inc({ policy }, 0);
  return (res) => {
    const policy = /^"([a-z]+)"/.exec(String(res.getHeader('RateLimit-Policy') ?? ''))?.[1] ?? 'unknown';
    refusals.inc({ policy });
  };
}

const API_HEADERS = {
  // JSON and files only: nothing here may be sniffed, framed or run as a page.
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

const API_HEADER_ENTRIES = Object.entries(API_HEADERS);

/** Security headers for an API (set directly: Express's `res.set` re-checks each one); CORS is http/cors.ts. */
export const apiHeaders: RequestHandler = (_req, res, next) => {
  for (const [name, value] of API_HEADER_ENTRIES) res.setHeader(name, value);
  next();
};

/** A probe must answer quickly: a database that does not answer within this counts as unavailable. */
const READY_TIMEOUT_MS = 2000;

async function databaseAnswers(db: Database): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS)));
  const query = sql`SELECT 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function mountHealth(app: IRouter, db: Database, metrics: Metrics, isShuttingDown: () => boolean) {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    if (isShuttingDown()) {
      res.status(503).json({ status: 'shutting-down' });
      return;
    }
    if (await databaseAnswers(db)) res.json({ status: 'ready' });
    else res.status(503).json({ status: 'database-unavailable' });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
