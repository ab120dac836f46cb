// Builds the Express app. The middleware order lives here and only here.
import compression from 'compression';
import express, { type Express, type RequestHandler } from 'express';
import { createAccessResolver } from './access/resolve.js';
import { resolveCaller } from './auth/authenticate.js';
import type { AppContext } from './context.js';
import { createAccessGate } from './http/access-gate.js';
import { createBodyParser } from './http/body.js';
import { createErrorMiddleware, notFoundMiddleware } from './http/error-middleware.js';
import { createIdempotency } from './http/idempotency.js';
import { acceptRawSubDelimsInQuery, BODY_METHODS, enforceInputRules } from './http/input-rules.js';
import type { HandlerMap } from './http/handler.js';
import { cors } from './http/cors.js';
import { apiHeaders, EventLoopWatch, mountHealth, observe, type Metrics } from './http/observability.js';
import { loadSpec } from './http/operations.js';
import { rateLimit } from './http/rate-limit.js';
import { mountReference } from './http/reference.js';
import { pipeline } from './http/pipeline.js';
import { createApiDispatcher } from './http/router.js';
import { createValidator, type Validator } from './http/validator.js';
import { accessRules, areaRoutes, handlers as allHandlers, knownConflicts, scopeLookups } from './areas/index.js';
import { mountAgentMcp } from './agents/mcp/agent-server.js';

export type AppOptions = {
  handlers?: HandlerMap;
  /** Reports a response that does not match the spec (tests fail on it). */
  onResponseError?: (error: Error, body: unknown) => void;
  isShuttingDown?: () => boolean;
};

/** The app, its metrics, and its event-loop lag alarm (stopped by whoever closes the server). */
export function createApp(context: AppContext, options: AppOptions = {}): { app: Express; metrics: Metrics; loop: EventLoopWatch; validator: Validator } {
  const app = express();
  const { metrics } = context;
  const loop = new EventLoopWatch();
  app.disable('x-powered-by');
  // Express's automatic ETag hashes every body (~35 µs a request, more on lists): off for the API.
  app.set('etag', false);
  app.set('query parser', 'extended');
  // The client's address (per-address rate limits) from the proxies the configuration trusts.
  app.set('trust proxy', context.config.trustProxy);

  // Every step below runs in one Express layer (http/pipeline.ts): the router's work between layers
  // was a tenth of a read's CPU (bench/README.md, issue 30).
  const front: RequestHandler[] = [observe(context.log, metrics, loop, context.config.accessLog), apiHeaders, cors(context.config.corsOrigins)];
  // Only for clients that accept it: the middleware otherwise still wraps every response.
  const compress = compression({ threshold: 2048 });
  front.push((req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next()));
  // The health endpoints and the API reference (/docs/: outside the spec, no token, its own content
  // security policy), on a router that only their paths enter: the API's requests do not try their
  // routes one by one.
  const operations = express.Router();
  mountHealth(operations, context.db, metrics, options.isShuttingDown ?? (() => false));
  mountReference(operations);
  front.push((req, res, next) => (OPERATIONS_PATHS.test(req.path) ? operations(req, res, next) : next()));
  // The areas' routes outside the spec, before the caller is resolved (areas/area.ts `routes`): the
  // published sites' HTML for their visitors, on their hostnames and under /s/ (visitors carry no token).
  front.push(...areaRoutes(context, 'beforeApi'));

  // The request's path: who calls and whether they may call now (rate limits), which operation it is
  // (401 when it needs a token), and whether the caller may do it (404/403: access/resolve.ts) — all
  // before any body is read; then the body, the validation of the whole request, the handler. One
  // Express layer (http/pipeline.ts), its steps in this order.
  const validator = createValidator(loadSpec(), { validateResponses: context.config.validateResponses, onResponseError: options.onResponseError });
  // Writes sent with an Idempotency-Key run once (http/idempotency.ts): a DELETE is claimed or replayed
  // before its access is decided (its own success removes what the gate resolves), a write with a body
  // once the body is read and valid, just before its handler.
  const idempotency = createIdempotency(context);
  // The MCP server for agents (agents/mcp): outside the spec, its tools call the API's operations back
  // with the caller's token, so they pass every step below as REST calls. On a router only its path enters.
  const agentMcp = express.Router();
  mountAgentMcp(agentMcp);
  const access = createAccessResolver(context, accessRules, scopeLookups);
  app.use(
    pipeline([
      ...front,
      resolveCaller(context),
      rateLimit(context.rateLimits),
      (req, res, next) => (MCP_PATHS.test(req.path) ? agentMcp(req, res, next) : next()),
      acceptRawSubDelimsInQuery,
      ...validator.match,
      idempotency.beforeAccess,
      createAccessGate(access),
      createBodyParser({
        defaultLimitBytes: DEFAULT_BODY_BYTES,
        largeBodies: {
          // Content batches carry files (base64); imports may carry an archive inline (base64).
          applySpaceContentChanges: CONTENT_BATCH_BYTES,
          applyChangeRequestContentChanges: CONTENT_BATCH_BYTES,
          importSpaceContent: importBodyBytes(context),
          importChangeRequestContent: importBodyBytes(context),
        },
        // The SAML assertion consumer service receives the identity provider's HTML form post: the only
        // form; every other operation takes JSON.
        forms: { consumeSamlResponse: DEFAULT_BODY_BYTES },
        largeBodyConcurrency: context.config.largeBodyConcurrency,
        registry: metrics.registry,
        onRawBody: idempotency.digestBody,
      }),
      // A JSON request with an empty body counts as `{}`.
      (req, _res, next) => {
        if (req.body === undefined && BODY_METHODS.has(req.method)) {
          req.body = {};
          if (!req.headers['content-type']) req.headers['content-type'] = 'application/json';
        }
        next();
      },
      ...validator.validate,
      enforceInputRules,
      idempotency.beforeHandler,
      createApiDispatcher(context, options.handlers ?? allHandlers, access),
    ]),
  );
  app.use(notFoundMiddleware);
  app.use(createErrorMiddleware(knownConflicts));
  return { app, metrics, loop, validator };
}

/** The paths of the health endpoints and of the API reference (mountHealth, mountReference). */
const OPERATIONS_PATHS = /^\/(healthz|readyz|metrics|docs)(\/|$)/i;
/** The paths the MCP router's route (agents/mcp/agent-server.ts) matches, case-insensitive as Express's routes. */
const MCP_PATHS = /^\/mcp\/?$/i;

const DEFAULT_BODY_BYTES = 1024 * 1024;
const CONTENT_BATCH_BYTES = 20 * 1024 * 1024;

/** An import's inline archive travels as base64: up to the import's byte limit once decoded. */
function importBodyBytes(context: AppContext): number {
  return Math.ceil((context.config.import.maxBytes * 4) / 3) + 64 * 1024;
}
