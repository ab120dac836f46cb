// Dispatches each request to its operation's handler, and writes the reply. The validator in front has
// already matched the request to a spec operation (`req.openapi`) and decoded its path parameters, so
// dispatch is one map lookup rather than Express testing every route's pattern in turn. The
// operation's declared access is enforced here, before the handler (access/resolve.ts).
import { isDeepStrictEqual } from 'node:util';
import type { Request, RequestHandler, Response } from 'express';
import type { AccessResolver } from '../access/resolve.js';
import type { AppContext } from '../context.js';
import type { Handler, HandlerMap, OperationId } from './handler.js';
import { listOperations, loadSpec, type SpecOperation } from './operations.js';
import { createSerializers, type Serialize } from './serializers.js';

type AnyReply = {
  status: number;
  body?: unknown;
  raw?: { contentType: string; data: Buffer | string };
  headers?: Record<string, string>;
};

/**
 * Writes a reply. A JSON body goes out through its serializer (http/serializers.ts), written directly:
 * Express's `res.json`/`res.send` would re-derive the content type and charset, test freshness and look
 * for an ETag on every response (both off here). With response validation on (tests), the body goes
 * through `res.json`, where the validator checks it as the handler made it, and the serializer must
 * say the same as JSON.stringify (a property it would drop or change fails the request).
 */
function send(res: Response, reply: AnyReply, serialize: Serialize, validating: boolean) {
  if (reply.headers) res.set(reply.headers);
  if (reply.raw) res.status(reply.status).type(reply.raw.contentType).send(reply.raw.data);
  else if (reply.body === undefined) res.status(reply.status).end();
  else if (validating) {
    if (serialize !== JSON.stringify && !isDeepStrictEqual(JSON.parse(serialize(reply.body)), JSON.parse(JSON.stringify(reply.body)))) {
      throw new Error('The compiled serializer does not say what JSON.stringify says of this body');
    }
    res.status(reply.status).json(reply.body);
  } else {
    // Encoded once: measuring a string's length in bytes and then writing it encodes it twice (9% of a
    // comment list's CPU went to Buffer.byteLength alone).
    const bytes = Buffer.from(serialize(reply.body));
    res.statusCode = reply.status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', bytes.length);
    res.end(bytes);
  }
}

type OpenApiMatch = { openapi?: { openApiRoute?: string; pathParams?: Record<string, string>; schema?: { operationId?: string } } };

/** `METHOD /spec/path` of the operation the validator matched, e.g. `GET /v1/spaces/{spaceId}`. */
export function matchedOperationKey(req: Request): string | undefined {
  const route = (req as Request & OpenApiMatch).openapi?.openApiRoute;
  return route ? `${req.method} ${route}` : undefined;
}

/** The operation the validator matched: its id, spec path and decoded path parameters. */
export function matchedOperation(req: Request): { operationId?: string; route: string; params: Record<string, string> } | undefined {
  const match = (req as Request & OpenApiMatch).openapi;
  return match?.openApiRoute ? { operationId: match.schema?.operationId, route: match.openApiRoute, params: match.pathParams ?? {} } : undefined;
}

export function createApiDispatcher(
  app: AppContext,
  handlers: HandlerMap,
  access: AccessResolver,
  operations: SpecOperation[] = listOperations(),
): RequestHandler {
  const byOperation = new Map<string, (req: Request, res: Response) => Promise<void>>();
  const serializerOf = createSerializers(loadSpec());
  const validating = app.config.validateResponses;
  for (const operation of operations) {
    const operationId = operation.operationId;
    const handler = handlers[operationId as OperationId] as Handler<OperationId> | undefined;
    if (!handler) throw new Error(`No handler for operation ${operationId}`);
    byOperation.set(`${operation.method.toUpperCase()} ${operation.path}`, async (req, res) => {
      // The validator's decoded (and validated) path parameters: Express resets `req.params` per layer.
      const params = ((req as Request & OpenApiMatch).openapi?.pathParams ?? req.params) as Record<string, string>;
      // Resolved before the body was read (http/access-gate.ts); the rules that read the body run now.
      const pending = req.pendingAccess ?? (await access.resolve(operationId, req.caller, params));
      const resolved = await access.complete(operationId, pending, req.body);
      const reply = (await handler({
        params: params as never,
        query: req.query as never,
        body: req.body as never,
        caller: req.caller as never,
        access: resolved as never,
        app,
        res,
      })) as AnyReply;
      send(res, reply, reply.body === undefined ? JSON.stringify : serializerOf(operation, reply.status), validating);
    });
  }
  return async (req, res, next) => {
    const key = matchedOperationKey(req);
    const run = key === undefined ? undefined : byOperation.get(key);
    if (!run) return next();
    await run(req, res);
  };
}
