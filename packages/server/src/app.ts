// Builds the Express app. The middleware order lives here and only here.
import compression from 'compression';
import express, { type Express } from 'express';
import { createAccessResolver } from './access/resolve.js';
import { resolveCaller } from './auth/authenticate.js';
import type { AppContext } from './context.js';
import { errorMiddleware, notFoundMiddleware } from './http/error-middleware.js';
import { acceptRawSubDelimsInQuery, BODY_METHODS, enforceInputRules, verifyJsonDepth, withBodyOnly } from './http/input-rules.js';
import type { HandlerMap } from './http/handler.js';
import { apiHeaders, createMetrics, mountHealth, observe, type Metrics } from './http/observability.js';
import { loadSpec } from './http/operations.js';
import { mountReference } from './http/reference.js';
import { createApiDispatcher } from './http/router.js';
import { createValidator } from './http/validator.js';
import { accessRules, handlers as allHandlers, scopeLookups } from './areas/index.js';

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

  app.use(observe(context.log, metrics));
  app.use(apiHeaders);
  // Only for clients that accept it: the middleware otherwise still wraps every response.
  const compress = compression({ threshold: 2048 });
  app.use((req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next()));
  mountHealth(app, context.db, metrics, options.isShuttingDown ?? (() => false));
  // The API reference (/docs/): outside the spec, no token, its own content security policy.
  mountReference(app);

  // Content batches carry files (base64): a larger body limit on those routes only.
  app.use(/^\/v1\/spaces\/[^/]+(\/change-requests\/[^/]+)?\/content$/, withBodyOnly(express.json({ limit: '20mb', verify: verifyJsonDepth })));
  // Imports may carry an archive inline (base64): up to the import's byte limit once decoded.
  const importLimit = Math.ceil((context.config.import.maxBytes * 4) / 3) + 64 * 1024;
  app.use(/^\/v1\/spaces\/[^/]+(\/change-requests\/[^/]+)?\/content\/import$/, withBodyOnly(express.json({ limit: importLimit, verify: verifyJsonDepth })));
  // The SAML assertion consumer service receives the identity provider's HTML form post: the only
  // route that parses a form; every other route takes JSON only.
  app.use(/^\/sso\/orgs\/[^/]+\/saml\/[^/]+\/acs$/, withBodyOnly(express.urlencoded({ extended: false, limit: '1mb', parameterLimit: 10 })));
  app.use(withBodyOnly(express.json({ limit: '1mb', verify: verifyJsonDepth })));
  // A JSON request with an empty body counts as `{}`.
  app.use((req, _res, next) => {
    if (req.body === undefined && BODY_METHODS.has(req.method)) {
      req.body = {};
      if (!req.headers['content-type']) req.headers['content-type'] = 'application/json';
    }
    next();
  });

  app.use(resolveCaller(context));
  app.use(acceptRawSubDelimsInQuery);
  app.use(createValidator(loadSpec(), { validateResponses: context.config.validateResponses, onResponseError: options.onResponseError }));
  app.use(enforceInputRules);
  app.use(createApiDispatcher(context, options.handlers ?? allHandlers, createAccessResolver(context, accessRules, scopeLookups)));
  app.use(notFoundMiddleware);
  app.use(errorMiddleware);
  return { app, metrics };
}
