// The API's request path as one Express middleware: its steps (app.ts) run in order as Express would
// run them as separate `app.use` layers — a step passes on with `next()`, refuses with `next(error)` or
// by throwing (or rejecting, when async), or answers and stops — without the router's work between
// them: matching each layer's path, wrapping each call, and a promise chained per layer. A dozen
// layers of that were 5% of `GET /v1/spaces/{id}`'s CPU (bench/README.md, issue 30).
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function pipeline(steps: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next = (error?: unknown): void => {
      // Express's own escapes ('route', 'router') leave the chain, as they would leave a router.
      if (error === 'route' || error === 'router') return done();
      if (error !== undefined && error !== null) return done(error);
      const step = steps[index++];
      if (!step) return done();
      let returned: unknown;
      try {
        returned = step(req, res, next);
      } catch (thrown) {
        return done(thrown ?? new Error('A middleware threw a falsy value'));
      }
      if (returned instanceof Promise) returned.catch((rejected: unknown) => done(rejected ?? new Error('A middleware rejected with a falsy value')));
    };
    next();
  };
}
