// Request ids, access logs and Prometheus metrics in one middleware with one `finish` listener (this
// runs on every request: per-request work stays small), plus the health endpoints.
import { randomUUID } from 'node:crypto';
import type { Express, Request, RequestHandler, Response } from 'express';
import { sql } from 'kysely';
import { Histogram } from 'prom-client';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { matchedOperation, matchedOperationKey } from './router.js';

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

// The registry is the server's (metrics.ts, on the AppContext): re-exported for the HTTP layer's users.
export { createMetrics, type Metrics } from '../metrics.js';

/**
 * Path parameters that are credentials (spec: an invite's id is its secret; a download address's
 * signature is its token): masked in the access log. Query strings are never logged (`shareKey`).
 */
export const SECRET_PATH_PARAMETERS: ReadonlySet<string> = new Set(['inviteId', 'signature']);

/** Probes and scrapes: at `trace` when they succeed, so they do not drown the access log. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** The request's path as logged: without its query string, and with secret path parameters masked. */
function loggedPath(req: Request): string {
  const operation = matchedOperation(req);
  if (operation && Object.keys(operation.params).some((name) => SECRET_PATH_PARAMETERS.has(name))) {
    return operation.route.replace(/\{(\w+)\}/g, (_, name: string) =>
      SECRET_PATH_PARAMETERS.has(name) ? '[redacted]' : encodeURIComponent(operation.params[name] ?? ''),
    );
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
export function observe(log: Logger, metrics: Metrics, accessLog: Config['accessLog'] = 'info'): RequestHandler {
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
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (!Object.getOwnPropertyDescriptor(Object.getPrototypeOf(req), 'log')) {
      // Once per app: a lazy getter on the requests' prototype (defining a property on every request
      // object is slow), creating the child logger only when something logs.
      Object.defineProperty(Object.getPrototypeOf(req), 'log', {
        configurable: true,
        get(this: { id: string }) {
          let child = children.get(this);
          if (!child) children.set(this, (child = log.child({ reqId: this.id })));
          return child;
        },
      });
    }
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = matchedOperationKey(req)?.split(' ')[1] ?? (req.route?.path as string | undefined) ?? 'unmatched';
      const status = res.statusCode;
      duration.observe({ method: req.method, route, status: String(status) }, seconds);
      if (status === 429) refused(res);
      if (status < 500 && accessLog === false) return;
      const path = loggedPath(req);
      const level = levelOf(path, status);
      if (!level || !log.isLevelEnabled(level)) return;
      req.log[level]({ method: req.method, path, operation: matchedOperation(req)?.operationId, status, ms: Math.round(seconds * 10_000) / 10 }, 'request');
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
  // Bearer tokens, not cookies: any origin may call the API.
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'X-Request-Id, Retry-After, WWW-Authenticate, RateLimit, RateLimit-Policy, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Idempotent-Replayed, Idempotency-Key-Status',
};

const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, HEAD, PUT, POST, PATCH, DELETE',
  // Idempotency-Key: the SDK sends one with every write (http/idempotency.ts).
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Request-Id, Idempotency-Key',
  'Access-Control-Max-Age': '86400',
};

/** Security and CORS headers for an API, set in one call; CORS preflights answered here (204). */
export const apiHeaders: RequestHandler = (req, res, next) => {
  res.set(API_HEADERS);
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
    res.set(PREFLIGHT_HEADERS).status(204).end();
    return;
  }
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

export function mountHealth(app: Express, db: Database, metrics: Metrics, isShuttingDown: () => boolean) {
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
