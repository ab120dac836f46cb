// Builds the Express app. The middleware order lives here and only here.
import compression from 'compression';
import express, { type Express } from 'express';
import { createAccessResolver } from './access/resolve.js';
import { bearerSecurityHandler, resolveCaller } from './auth/authenticate.js';
import type { AppContext } from './context.js';
import { createErrorMiddleware, notFoundMiddleware } from './http/error-middleware.js';
import type { HandlerMap } from './http/handler.js';
import { apiHeaders, createMetrics, mountHealth, observe, type Metrics } from './http/observability.js';
import { loadSpec } from './http/operations.js';
import { rateLimit } from './http/rate-limit.js';
import { mountReference } from './http/reference.js';
import { createApiDispatcher } from './http/router.js';
import { createValidator } from './http/validator.js';
import { accessRules, handlers as allHandlers, knownConflicts, scopeLookups } from './areas/index.js';

export type AppOptions = {
  handlers?: HandlerMap;
  /** Reports a response that does not match the spec (tests fail on it). */
  onResponseError?: (error: Error, body: unknown) => void;
  isShuttingDown?: () => boolean;
};

export function createApp(context: AppContext, options: AppOptions = {}): { app: Express; metrics: Metrics } {
  const app = express();
  const metrics = createMetrics();
  app.disable('x-powered-by');
  // Express's automatic ETag hashes every body (~35 µs a request, more on lists): off for the API.
  app.set('etag', false);
  app.set('query parser', 'extended');
  // The client's address (per-address rate limits) from the proxies the configuration trusts.
  app.set('trust proxy', context.config.trustProxy);

  app.use(observe(context.log, metrics));
  app.use(apiHeaders);
  // Only for clients that accept it: the middleware otherwise still wraps every response.
  const compress = compression({ threshold: 2048 });
  app.use((req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next()));
  mountHealth(app, context.db, metrics, options.isShuttingDown ?? (() => false));
  // The API reference (/docs/): outside the spec, no token, its own content security policy.
  mountReference(app);

  // Who calls, and whether they may call now, before any body is read.
  app.use(resolveCaller(context));
  app.use(rateLimit(context.rateLimits));
  // Content batches carry files (base64): a larger body limit on those routes only, and only for a caller
  // with a valid token (every operation there requires one).
  app.use(/^\/v1\/spaces\/[^/]+(\/change-requests\/[^/]+)?\/content$/, refuseAnonymousBody, express.json({ limit: '20mb' }));
  // Imports may carry an archive inline (base64): up to the import's byte limit once decoded.
  const importLimit = Math.ceil((context.config.import.maxBytes * 4) / 3) + 64 * 1024;
  app.use(/^\/v1\/spaces\/[^/]+(\/change-requests\/[^/]+)?\/content\/import$/, refuseAnonymousBody, express.json({ limit: importLimit }));
  // The SAML assertion consumer service receives the identity provider's HTML form post: the only
  // route that parses a form; every other route takes JSON only.
  app.use(/^\/sso\/orgs\/[^/]+\/saml\/[^/]+\/acs$/, express.urlencoded({ extended: false, limit: '1mb', parameterLimit: 10 }));
  app.use(express.json({ limit: '1mb' }));
  // A JSON request with an empty body counts as `{}`.
  app.use((req, _res, next) => {
    if (req.body === undefined && ['POST', 'PUT', 'PATCH'].includes(req.method)) {
      req.body = {};
      if (!req.headers['content-type']) req.headers['content-type'] = 'application/json';
    }
    next();
  });

  app.use(createValidator(loadSpec(), { validateResponses: context.config.validateResponses, onResponseError: options.onResponseError }));
  app.use(createApiDispatcher(context, options.handlers ?? allHandlers, createAccessResolver(context, accessRules, scopeLookups)));
  app.use(notFoundMiddleware);
  app.use(createErrorMiddleware(knownConflicts));
  return { app, metrics };
}

/** 401 before reading a body the caller could not send anyway; the connection closes instead of reading it. */
const refuseAnonymousBody: express.RequestHandler = (req, res, next) => {
  if (!req.caller && (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined)) {
    res.setHeader('Connection', 'close');
    bearerSecurityHandler(req);
  }
  next();
};
