// Dispatches each request to its operation's handler, and writes the reply. The validator in front has
// already matched the request to a spec operation (`req.openapi`) and decoded its path parameters, so
// dispatch is one map lookup rather than Express testing every route's pattern in turn. The
// operation's declared access is enforced here, before the handler (access/resolve.ts).
import type { Request, RequestHandler, Response } from 'express';
import type { AccessResolver } from '../access/resolve.js';
import type { AppContext } from '../context.js';
import type { Handler, HandlerMap, OperationId } from './handler.js';
import { listOperations, type SpecOperation } from './operations.js';

type AnyReply = {
  status: number;
  body?: unknown;
  raw?: { contentType: string; data: Buffer | string };
  headers?: Record<string, string>;
};

function send(res: Response, reply: AnyReply) {
  if (reply.headers) res.set(reply.headers);
  res.status(reply.status);
  if (reply.raw) res.type(reply.raw.contentType).send(reply.raw.data);
  else if (reply.body !== undefined) res.json(reply.body);
  else res.end();
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
        req,
        res,
      })) as AnyReply;
      send(res, reply);
    });
  }
  return async (req, res, next) => {
    const key = matchedOperationKey(req);
    const run = key === undefined ? undefined : byOperation.get(key);
    if (!run) return next();
    await run(req, res);
  };
}
