// Request ids, access logs, Prometheus metrics, and the health endpoints.
import { randomUUID } from 'node:crypto';
import type { Express, RequestHandler } from 'express';
import { sql } from 'kysely';
import { pinoHttp } from 'pino-http';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function requestLogging(log: Logger): RequestHandler {
  return pinoHttp({
    logger: log,
    // Keep a well-formed id the caller sent (so traces join up); otherwise make one.
    genReqId: (req, res) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
    serializers: {
      req: (req) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
  });
}

export type Metrics = { registry: Registry; middleware: RequestHandler };

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      // The matched route pattern, never the raw path: ids would explode the label set.
      const route = (req.route?.path as string | undefined) ?? 'unmatched';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
  return { registry, middleware };
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
    try {
      await sql`SELECT 1`.execute(db);
      res.json({ status: 'ready' });
    } catch {
      res.status(503).json({ status: 'database-unavailable' });
    }
  });
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
