// What idempotency keys cost a read: the two middlewares of src/http/idempotency.ts as Express layers in
// front of a final handler, against the final handler alone, dispatched in-process by Express's router
// with GET requests. The read path of the middlewares touches no socket and no database (they return at
// once for any method they do not claim), so what is left to measure is their share of the dispatch:
// far below the noise of a load test, hence counted here in nanoseconds. Prints one JSON line.
import express, { type Request, type Response } from 'express';
import { createIdempotency } from '../../packages/server/src/http/idempotency.js';

const ROUNDS = 7;
const DISPATCHES = 300_000;

// A GET never reaches the database or the log: neither is given.
const idempotency = createIdempotency({ db: undefined, log: undefined } as never);

function router(withIdempotency: boolean) {
  const layers = express.Router();
  if (withIdempotency) layers.use(idempotency.beforeAccess);
  layers.use((_req, _res, next) => next()); // stands for the layers between (access gate, body, validator)
  if (withIdempotency) layers.use(idempotency.beforeHandler);
  layers.use((_req, res) => {
    (res as Response & { answered: number }).answered++;
  });
  return layers;
}

/** Nanoseconds per dispatch of `DISPATCHES` GET requests (with a key, which a read ignores). */
function measure(layers: ReturnType<typeof router>): number {
  const res = { answered: 0 } as unknown as Response & { answered: number };
  const failed = (error?: unknown) => {
    if (error) throw error;
  };
  const started = process.hrtime.bigint();
  for (let i = 0; i < DISPATCHES; i++) {
    const req = { method: 'GET', url: '/v1/spaces/s1', headers: { 'idempotency-key': 'k' } } as unknown as Request;
    layers(req, res, failed);
  }
  const elapsed = Number(process.hrtime.bigint() - started);
  if (res.answered !== DISPATCHES) throw new Error(`${DISPATCHES - res.answered} requests did not reach the handler`);
  return elapsed / DISPATCHES;
}

const withKeys = router(true);
const without = router(false);
measure(withKeys); // warm-up (JIT)
measure(without);
const withNs: number[] = [];
const withoutNs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternating order: neither side gains from going first.
  if (round % 2) {
    withNs.push(measure(withKeys));
    withoutNs.push(measure(without));
  } else {
    withoutNs.push(measure(without));
    withNs.push(measure(withKeys));
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(JSON.stringify({ withNs: median(withNs), withoutNs: median(withoutNs), costNs: median(withNs.map((value, i) => value - withoutNs[i]!)) }));
