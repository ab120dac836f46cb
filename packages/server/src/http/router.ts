// Mounts the handler of every spec operation on an Express router, and writes its reply.
import { Router, type Request, type Response } from 'express';
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

export function createApiRouter(app: AppContext, handlers: HandlerMap, operations: SpecOperation[] = listOperations()): Router {
  const router = Router();
  for (const operation of operations) {
    const handler = handlers[operation.operationId as OperationId] as Handler<OperationId> | undefined;
    if (!handler) throw new Error(`No handler for operation ${operation.operationId}`);
    router[operation.method](operation.expressPath, async (req: Request, res: Response) => {
      const reply = (await handler({
        params: req.params as never,
        query: req.query as never,
        body: req.body as never,
        caller: req.caller as never,
        app,
        req,
        res,
      })) as AnyReply;
      send(res, reply);
    });
  }
  return router;
}
