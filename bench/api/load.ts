// The load generator, in its own process: autocannon with a random path and token per request.
// Prints one JSON line of results.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

type Args = {
  url: string;
  paths: string[];
  tokens: string[];
  connections: number;
  seconds: number;
  sequential?: boolean;
  /** A write: its method and JSON body (the same for every request). */
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Each request with an `Idempotency-Key` of its own. */
  keyed?: boolean;
};
const args = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Args;
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
// `sequential`: each path once, in order, before any repeats (first requests of each, e.g. first renders).
let cursor = 0;
const nextPath = () => (args.sequential ? args.paths[cursor++ % args.paths.length]! : pick(args.paths));

const result = await autocannon({
  url: args.url,
  connections: args.connections,
  duration: args.seconds,
  requests: [
    {
      setupRequest: (request) => ({
        ...request,
        path: nextPath(),
        ...(args.method ? { method: args.method, body: JSON.stringify(args.body ?? {}) } : {}),
        headers: {
          ...request.headers,
          ...(args.tokens.length ? { authorization: `Bearer ${pick(args.tokens)}` } : {}),
          ...(args.method ? { 'content-type': 'application/json' } : {}),
          ...(args.keyed ? { 'idempotency-key': randomUUID() } : {}),
        },
      }),
    },
  ],
});
console.log(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  }),
);
