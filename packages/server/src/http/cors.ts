// CORS for the API: which web pages may call it from a browser (`CORS_ORIGINS`, config.ts). None by
// default: a page's script reaches the API only from an origin the operator lists, or from any with
// `*`. Browsers send no credentials the API would honour (bearer tokens only, never cookies), so
// `Access-Control-Allow-Credentials` is never sent: a page must hold a token to act, and a listed origin
// gains nothing a script elsewhere could not do with the same token — the list keeps unknown pages
// from using tokens a browser has been given.
import type { RequestHandler } from 'express';
import { HttpError } from '../errors.js';

/** `'*'`: any origin; otherwise the origins (`https://app.example.com`) whose pages may call the API. */
export type CorsOrigins = '*' | readonly string[];

// What a page's script may read of an answer besides the simple headers: the request id to quote,
// rate limits and retries, and the idempotency headers of a replayed or refused write.
const EXPOSED_HEADERS =
  'X-Request-Id, Retry-After, WWW-Authenticate, RateLimit, RateLimit-Policy, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Idempotent-Replayed, Idempotency-Key-Status';

const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, HEAD, PUT, POST, PATCH, DELETE',
  // Idempotency-Key: the SDK sends one with every write (http/idempotency.ts).
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Request-Id, Idempotency-Key',
  'Access-Control-Max-Age': '86400',
};

/**
 * Adds the CORS headers to answers for a request from an allowed origin, and answers its preflights
 * (204). A preflight from any other origin is refused with a 403 that names the setting, so whoever
 * sees it in the browser's network panel knows what to change; a simple request from another origin is
 * served without CORS headers (the browser keeps the answer from the page).
 */
export function cors(origins: CorsOrigins): RequestHandler {
  const anyOrigin = origins === '*';
  const allowed = new Set(anyOrigin ? [] : origins);
  return (req, res, next) => {
    const origin = req.headers.origin;
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    // The answer depends on the Origin unless every origin gets the same: caches must keep them apart.
    if (!anyOrigin) res.setHeader('Vary', 'Origin');
    const admitted = origin !== undefined && (anyOrigin || allowed.has(origin));
    if (admitted) {
      res.setHeader('Access-Control-Allow-Origin', anyOrigin ? '*' : origin);
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    if (!preflight) return next();
    if (!admitted) {
      return next(new HttpError(403, `The origin ${origin === undefined ? '(none)' : JSON.stringify(origin.slice(0, 200))} may not call this API from a browser: the server's CORS_ORIGINS does not list it`));
    }
    res.set(PREFLIGHT_HEADERS).status(204).end();
  };
}
