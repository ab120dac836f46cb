// What idempotency keys cost a read: the two middlewares of src/http/idempotency.ts as steps of the API's
// one layer (src/http/pipeline.ts, as app.ts runs them) in front of a final handler, against the final
// handler alone, dispatched in-process with GET requests. The read path of the middlewares touches no socket and no database (they return at
// once for any method they do not claim), so what is left to measure is their share of the dispatch:
// far below the noise of a load test, hence counted here in nanoseconds. Prints one JSON line.
import type { Request, RequestHandler, Response } from 'express';
import { createIdempotency } from '../../packages/server/src/http/idempotency.js';
import { pipeline } from '../../packages/server/src/http/pipeline.js';

const ROUNDS = 7;
const DISPATCHES = 300_000;

// A GET never reaches the database or the log: neither is given.
const idempotency = createIdempotency({ db: undefined, log: undefined } as never);

function router(withIdempotency: boolean) {
  const between: RequestHandler = (_req, _res, next) => next(); // stands for the steps between (access gate, body, validator)
  const answer: RequestHandler = (_req, res) => {
    (res as Response & { answered: number }).answered++;
  };
  return pipeline(withIdempotency ? [idempotency.beforeAccess, between, idempotency.beforeHandler, answer] : [between, answer]);
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
