// Idempotent writes: a POST, PUT, PATCH or DELETE sent with an `Idempotency-Key` runs once. For 24 hours,
// per API token, the same key with the same request (method, URL and body bytes) is answered with the
// first answer (status, body, the headers in KEPT_HEADERS, plus `Idempotent-Replayed: true`) without
// running again; the same key while the first request runs answers 409 (`Idempotency-Key-Status:
// in-progress`, `Retry-After`), with another request 422 (`Idempotency-Key-Status: mismatch`). Keys live
// in PostgreSQL (http/idempotency.repository.ts), so every instance sees them. docs/decisions.md,
// "Idempotent writes", says why each rule is so.
//
// - Keys belong to the token that sent them (the key is chosen by the client, so another token's key of
//   the same name is another key): an answer is never replayed to anyone else. Requests without a token
//   (the SAML form post, the only public write) do not declare the header and are never claimed.
// - Only what the handler answered below 400 is stored: a write happened. Errors wrote nothing (the
//   project's rule), so their key is released and a retry runs again — it gets the same error while the
//   cause stands, and succeeds once it is gone. A 5xx is never stored either.
// - The answer is stored once the handler returned, so its writes committed: no answer is kept for a
//   write that rolled back. It is stored before it is sent, so a client that has the answer finds the
//   key answered on every instance.
// - A request holds its key with a lease renewed while it runs; a process that dies leaves a lease that
//   runs out (LEASE_SECONDS), after which the same request may run again. A process dying after the
//   handler's commit and before the answer is stored is the window where a retry runs twice.
// - Where a request is claimed: a DELETE before its access is decided (`beforeAccess`: it has no body,
//   and its own success removes what the access gate resolves, so a replay there is the only way a
//   retried DELETE gets its 204/205 rather than a 404); a write with a body once the body is read and
//   valid (`beforeHandler`: the body is part of the request compared), after the gate decided again.
//   A DELETE's replay carries no content (an empty 204/205), only to the token that was answered.
import { createHash, randomUUID } from 'node:crypto';
import { Ajv } from 'ajv';
import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../context.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { HttpError } from '../errors.js';
import {
  claimIdempotencyKey,
  releaseIdempotencyKey,
  renewIdempotencyLease,
  storeIdempotentAnswer,
  type StoredAnswer,
} from './idempotency.repository.js';
import { BODY_METHODS } from './input-rules.js';
import { loadSpec, type OpenApiDocument } from './operations.js';
import { matchedOperationKey } from './router.js';

/** Name of the request header (as Node reads it) and of the answer's headers. */
const KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const KEY_STATUS_HEADER = 'Idempotency-Key-Status';

/** How long a key is kept, from its first request. */
export const KEEP_SECONDS = 24 * 60 * 60;
/** How long a running request holds its key without renewing it. */
const LEASE_SECONDS = 30;
/** Seconds a client is asked to wait when the first request is still running. */
const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

/**
 * Headers of an answer replayed with it; the others are the replay's own (request id, rate limits,
 * security headers) or say nothing about the answer.
 */
const KEPT_HEADERS = ['content-type', 'location', 'cache-control', 'content-disposition'];

type Held = { tokenId: string; key: string; leaseId: string };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's request type is extended by declaration merging
  namespace Express {
    interface Request {
      /** sha256 of the raw body, taken by the body parser when the request carries an idempotency key. */
      idempotencyBodyDigest?: Buffer;
    }
  }
}

export type IdempotencyOptions = {
  /** How long a running request holds its key without renewing it (tests shorten it). */
  leaseSeconds?: number;
};

export type Idempotency = {
  /** Before the access gate: claims or answers DELETE requests (they have no body). */
  beforeAccess: RequestHandler;
  /** The body parser's hook: the digest of a keyed request's raw body. */
  digestBody: (req: Request, bytes: Buffer) => void;
  /** Before the dispatcher: claims or answers POST, PUT and PATCH requests, their body read and valid. */
  beforeHandler: RequestHandler;
};

/** A validator of the key's format, from the spec's `IdempotencyKey` parameter (the one place it is stated). */
function keyFormat(spec: OpenApiDocument): (key: string) => boolean {
  const schema = spec.components?.parameters?.IdempotencyKey?.schema;
  if (!schema) throw new Error('The spec has no components.parameters.IdempotencyKey: run pnpm codegen');
  const validate = new Ajv({ strict: false }).compile(schema);
  return (key) => validate(key);
}

/** The request as compared: method, URL as sent, and the body's bytes (their digest). */
function fingerprintOf(req: Request): Buffer {
  const hash = createHash('sha256').update(`${req.method} ${req.originalUrl}\n`);
  if (req.idempotencyBodyDigest) hash.update(req.idempotencyBodyDigest);
  return hash.digest();
}

function keptHeaders(res: Response): Array<[string, string]> {
  const kept: Array<[string, string]> = [];
  for (const name of KEPT_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) kept.push([name, String(value)]);
  }
  return kept;
}

/** The bytes of what `res.end` was given (`res.end(chunk?, encoding?, callback?)`). */
function bodyBytes(chunk: unknown, encoding: unknown): Buffer | null {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return null;
  if (Buffer.isBuffer(chunk)) return chunk.length ? chunk : null;
  if (chunk instanceof Uint8Array) return chunk.length ? Buffer.from(chunk) : null;
  if (typeof chunk === 'string') return chunk.length ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : null;
  return null;
}

function replay(res: Response, answer: StoredAnswer): void {
  res.statusCode = answer.status;
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  res.setHeader(REPLAYED_HEADER, 'true');
  if (answer.body) {
    res.setHeader('Content-Length', answer.body.length);
    res.end(answer.body);
  } else res.end();
}

export function createIdempotency(context: AppContext, options: IdempotencyOptions = {}): Idempotency {
  const { db, log } = context;
  const leaseSeconds = options.leaseSeconds ?? LEASE_SECONDS;
  const isKey = keyFormat(loadSpec());

  /** The key of a request that may be claimed: a write with a token and a well-formed key. */
  const keyOf = (req: Request): string | undefined => {
    const key = req.headers[KEY_HEADER];
    return typeof key === 'string' && req.caller && isKey(key) ? key : undefined;
  };

  /**
   * Holds the key while the request runs: its lease renewed, its answer stored when it ends (below
   * 400) or the key released (an error, or an answer written in parts, which cannot be replayed).
   */
  const hold = (res: Response, held: Held) => {
    const renewal = setInterval(() => {
      renewIdempotencyLease(db, held, leaseSeconds).catch((error) => log.warn({ err: error }, 'idempotency key: lease not renewed'));
    }, (leaseSeconds * 1000) / 3);
    renewal.unref();
    let inParts = false;
    let ended = false;
    const write = res.write;
    const end = res.end;
    res.write = function (this: Response, ...args: Parameters<Response['write']>) {
      inParts = true;
      return write.apply(this, args);
    } as Response['write'];
    // The answer goes out once it is stored (or the key released): whoever has it finds the key answered.
    res.end = function (this: Response, ...args: unknown[]) {
      if (ended) return end.apply(this, args as Parameters<Response['end']>);
      ended = true;
      clearInterval(renewal);
      const [chunk, encoding] = args;
      const status = res.statusCode;
      const settled =
        status < 400 && !inParts
          ? storeIdempotentAnswer(db, held, { status, headers: keptHeaders(res), body: bodyBytes(chunk, encoding) })
          : releaseIdempotencyKey(db, held);
      settled
        // During a database outage (logged once by db/availability.ts) each failed store is only a debug line.
        .catch((error) => log[isDatabaseUnavailable(error) ? 'debug' : 'warn']({ err: error, status }, 'idempotency key: answer not stored'))
        .finally(() => end.apply(this, args as Parameters<Response['end']>));
      return this;
    } as Response['end'];
  };

  const claimOrAnswer = async (req: Request, res: Response, key: string): Promise<'claimed' | 'answered'> => {
    const fingerprint = fingerprintOf(req);
    const held = { tokenId: req.caller!.tokenId, key, leaseId: randomUUID() };
    const operation = matchedOperationKey(req) ?? `${req.method} ${req.path}`;
    const result = await claimIdempotencyKey(db, { ...held, fingerprint, operation, leaseSeconds, keepSeconds: KEEP_SECONDS });
    if (result.claimed) {
      hold(res, held);
      return 'claimed';
    }
    const earlier = result.earlier;
    if (earlier && !earlier.fingerprint.equals(fingerprint)) {
      throw new HttpError(
        422,
        `This Idempotency-Key was used with another request (${earlier.operation}, or other parameters or body) in the last 24 hours; send a new key with a new request`,
        undefined,
        { [KEY_STATUS_HEADER]: 'mismatch' },
      );
    }
    if (!earlier?.answer) {
      throw new HttpError(409, 'A request with this Idempotency-Key is still running; retry once it has been answered', undefined, {
        [KEY_STATUS_HEADER]: 'in-progress',
        'Retry-After': String(IN_PROGRESS_RETRY_AFTER_SECONDS),
      });
    }
    replay(res, earlier.answer);
    return 'answered';
  };

  // Not an async function: a request it does not claim (every read) passes at once, without a promise.
  const claimed =
    (applies: (method: string) => boolean): RequestHandler =>
    (req, res, next) => {
      if (!applies(req.method)) return next();
      const key = keyOf(req);
      if (key === undefined) return next();
      claimOrAnswer(req, res, key).then((outcome) => outcome === 'claimed' && next(), next);
    };

  return {
    beforeAccess: claimed((method) => method === 'DELETE'),
    digestBody(req, bytes) {
      if (req.headers[KEY_HEADER] !== undefined && req.caller) req.idempotencyBodyDigest = createHash('sha256').update(bytes).digest();
    },
    beforeHandler: claimed((method) => BODY_METHODS.has(method)),
  };
}
