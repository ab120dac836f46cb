// Rules every request's input follows, whatever its operation, checked before any handler sees it:
// - a JSON body nests at most MAX_JSON_DEPTH arrays and objects (scanned on the raw bytes, without
//   recursion, before the body is parsed: nothing downstream can overflow the stack);
// - no string holds U+0000 (PostgreSQL text cannot store it): JSON strings and keys, form fields,
//   query and path parameters;
// - numbers are finite (`1e1000` parses as Infinity; the validator coerces `?limit=Infinity` to one).
// The schema rules of each operation are the validator's; these are the ones no schema states.
import { TextDecoder } from 'node:util';
import type { RequestHandler } from 'express';
import { badRequest, HttpError, type ErrorIssue } from '../errors.js';

/** Deepest nesting of arrays and objects a JSON body may have; the API's own bodies need under 10. */
export const MAX_JSON_DEPTH = 64;

/** Issues reported at most per request: enough to fix a body, bounded for a body full of them. */
const MAX_ISSUES = 20;

/** The methods whose operations take a body. A GET or DELETE body has no meaning here: it is not read. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Index of the quote closing the string opened at `start` (the buffer's length when unterminated). */
function endOfString(bytes: Buffer, start: number): number {
  let at = start;
  for (;;) {
    at = bytes.indexOf(QUOTE, at + 1);
    if (at < 0) return bytes.length;
    let backslashes = 0;
    while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/** The deepest nesting of `bytes` (JSON text in UTF-8), or `limit + 1` as soon as it goes past `limit`. */
export function jsonDepth(bytes: Buffer, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) at = endOfString(bytes, at);
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
  }
  return deepest;
}

function transcodeToUtf8(body: Buffer, encoding: string): Buffer {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding);
  } catch {
    // The parser would read it (UTF-32), this check cannot: refused like any other charset we do not take.
    throw new HttpError(415, `Unsupported charset "${encoding}": send UTF-8 or UTF-16`);
  }
  return Buffer.from(decoder.decode(body), 'utf8');
}

/**
 * `verify` of the JSON body parsers: runs on the raw body before it is parsed. Structural characters
 * are ASCII, so UTF-8 is scanned as is; a body in another Unicode encoding is transcoded first.
 */
export function verifyJsonDepth(_req: unknown, _res: unknown, body: Buffer, encoding: string): void {
  if (jsonDepth(/^utf-?8$/i.test(encoding) ? body : transcodeToUtf8(body, encoding)) > MAX_JSON_DEPTH) {
    throw new HttpError(400, `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`, [
      { path: '/body', message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` },
    ]);
  }
}

const NUL = '\u0000';

/** A JSON Pointer segment, with U+0000 shown as an escape so the answer never carries one. */
function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1').replaceAll(NUL, '\\u0000');
}

/**
 * Every string (values and keys) holding U+0000 and every non-finite number in `root`, as issues
 * under `rootPath`. Iterative: the depth of `root` is bounded by the parsers, not by the stack.
 */
export function forbiddenValues(root: unknown, rootPath: string, issues: ErrorIssue[] = []): ErrorIssue[] {
  // Each value with its key and parent: its path is only written out for an issue (most requests have none).
  type Visit = { value: unknown; key?: string; parent?: Visit };
  const pathOf = (visit: Visit): string => {
    const segments: string[] = [];
    for (let at: Visit | undefined = visit; at?.parent; at = at.parent) segments.push(pointerSegment(at.key!));
    return [rootPath, ...segments.reverse()].join('/');
  };
  const pending: Visit[] = [{ value: root }];
  while (pending.length && issues.length < MAX_ISSUES) {
    const visit = pending.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (value.includes(NUL)) issues.push({ path: pathOf(visit), message: 'must not contain the character U+0000' });
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) issues.push({ path: pathOf(visit), message: 'must be a finite number' });
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const item: Visit = { value: (value as Record<string, unknown>)[key], key, parent: visit };
        if (key.includes(NUL)) issues.push({ path: pathOf(item), message: 'names a property with the character U+0000' });
        pending.push(item);
      }
    }
  }
  return issues;
}

/**
 * The characters JavaScript's `encodeURIComponent` leaves as they are (so the SDK, and most clients,
 * send them raw in a query value). They mean nothing in a query string here, but the validator refuses
 * raw reserved characters: they are percent-encoded before it reads the query, so `?search=hi!`
 * searches for `hi!` instead of answering 400.
 */
const LEFT_RAW_BY_ENCODE_URI_COMPONENT = /[!'()*]/;
const EVERY_LEFT_RAW = new RegExp(LEFT_RAW_BY_ENCODE_URI_COMPONENT.source, 'g');

export const acceptRawSubDelimsInQuery: RequestHandler = (req, _res, next) => {
  const at = req.originalUrl.indexOf('?');
  if (at >= 0 && LEFT_RAW_BY_ENCODE_URI_COMPONENT.test(req.originalUrl.slice(at))) {
    const encode = (url: string) => {
      const query = url.indexOf('?');
      return query < 0 ? url : url.slice(0, query) + url.slice(query).replace(EVERY_LEFT_RAW, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
    };
    // The validator reads `originalUrl`, Express's query parser `url`.
    req.originalUrl = encode(req.originalUrl);
    req.url = encode(req.url);
  }
  next();
};

type MatchedRequest = { openapi?: { pathParams?: Record<string, unknown> } };

/**
 * After the validator (which decoded the path parameters and coerced query parameters to their
 * schema's types): the body, query and path parameters hold no U+0000 and no non-finite number.
 */
export const enforceInputRules: RequestHandler = (req, _res, next) => {
  const issues = forbiddenValues((req as MatchedRequest).openapi?.pathParams, '/path');
  forbiddenValues(req.query, '/query', issues);
  forbiddenValues(req.body, '/body', issues);
  if (!issues.length) return next();
  throw badRequest(issues.map((issue) => `${issue.path} ${issue.message}`).join('; '), issues);
};
