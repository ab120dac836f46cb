// Reads request bodies once the operation is known and its access decided (app.ts): each operation's
// own size limit and media type, the JSON depth checked on the raw bytes before parsing, and at most a
// few large bodies read at once — past that, a 503 the client retries, its connection closed, so a
// burst of uploads cannot fill the server's memory.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { Gauge, type Registry } from 'prom-client';
import { serviceUnavailable } from '../errors.js';
import { hasPendingBody } from './access-gate.js';
import { BODY_METHODS, verifyJsonDepth } from './input-rules.js';
import { listOperations } from './operations.js';
import { matchedOperationKey } from './router.js';

export type BodyOptions = {
  /** The limit of every JSON body, unless its operation has its own. */
  defaultLimitBytes: number;
  /** Operations whose bodies may be larger (content batches carry files, imports an archive). */
  largeBodies: Record<string, number>;
  /** Operations that take a form (the SAML assertion consumer service) instead of JSON. */
  forms: Record<string, number>;
  /** How many bodies above the default limit may be read at once. */
  largeBodyConcurrency: number;
  /** Where the number of large bodies being read is published (`http_large_bodies_reading`). */
  registry: Registry;
  /** Sees each JSON body's raw bytes once they passed the depth check (the idempotency key's request digest). */
  onRawBody?: (req: Request, bytes: Buffer) => void;
};

export function createBodyParser(options: BodyOptions): RequestHandler {
  const onRawBody = options.onRawBody;
  const verify = onRawBody
    ? (req: Request, res: Response, bytes: Buffer, encoding: string) => {
        verifyJsonDepth(req, res, bytes, encoding);
        onRawBody(req, bytes);
      }
    : verifyJsonDepth;
  const json = (limit: number) => express.json({ limit, verify });
  const parsers = new Map<string, { parse: RequestHandler; large: boolean }>();
  for (const operation of listOperations()) {
    const key = `${operation.method.toUpperCase()} ${operation.path}`;
    const form = options.forms[operation.operationId];
    const large = options.largeBodies[operation.operationId];
    if (form !== undefined) parsers.set(key, { parse: express.urlencoded({ extended: false, limit: form, parameterLimit: 10 }), large: false });
    else parsers.set(key, { parse: json(large ?? options.defaultLimitBytes), large: large !== undefined && large > options.defaultLimitBytes });
  }
  let reading = 0;
  new Gauge({
    name: 'http_large_bodies_reading',
    help: 'Request bodies above the default limit being read now (at most LARGE_BODY_CONCURRENCY)',
    registers: [options.registry],
    collect() {
      this.set(reading);
    },
  });

  return (req, res, next) => {
    const key = matchedOperationKey(req);
    const parser = key === undefined ? undefined : parsers.get(key);
    if (!parser || !BODY_METHODS.has(req.method)) return next();
    if (!parser.large || !hasPendingBody(req)) return parser.parse(req, res, next);
    if (reading >= options.largeBodyConcurrency) {
      res.setHeader('Connection', 'close');
      return next(serviceUnavailable('Too many large uploads at once; retry shortly', 1));
    }
    reading++;
    let released = false;
    const release = () => {
      if (!released) {
        released = true;
        reading--;
      }
    };
    res.once('close', release);
    parser.parse(req, res, (error?: unknown) => {
      release();
      next(error);
    });
  };
}
