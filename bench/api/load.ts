// The load generator, in its own process: autocannon with a random path and token per request.
// Prints one JSON line of results.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

type Args = { url: string; paths: string[]; tokens: string[]; connections: number; seconds: number; sequential?: boolean };
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
        headers: { ...request.headers, ...(args.tokens.length ? { authorization: `Bearer ${pick(args.tokens)}` } : {}) },
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
