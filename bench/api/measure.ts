// What the API benchmark measures of one load: autocannon's rates and latencies (api/load.ts), the CPU
// time the server and PostgreSQL spent per request (from /proc: steadier than req/s on a shared
// machine).
import { loadavg } from 'node:os';
import { processTreeCpuSeconds } from '../lib/cpus.js';
import { runScript } from '../lib/processes.js';

export type LoadResult = {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  /** The server's CPU time per request, in microseconds (where /proc tells it). */
  cpuMicros?: number;
  /** PostgreSQL's CPU time per request (every process of the cluster), in microseconds. */
  databaseCpuMicros?: number;
};

export type LoadOptions = {
  url: string;
  paths: string[];
  tokens: string[];
  connections: number;
  seconds: number;
  /** A write: its method and JSON body (api/load.ts), each request with an `Idempotency-Key` of its own when `keyed`. */
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  keyed?: boolean;
};

/** Runs the load generator on core 1. */
export const load = (options: LoadOptions) => runScript<LoadResult>('api/load.ts', 1, options);

/** Runs `run` and adds the server's and the database's CPU time per request to its result. */
export async function measured(pids: { server: number; database?: number }, run: () => Promise<LoadResult>): Promise<LoadResult> {
  const cpu = () => ({ server: processTreeCpuSeconds(pids.server), database: pids.database ? processTreeCpuSeconds(pids.database) : undefined });
  const before = cpu();
  const result = await run();
  const after = cpu();
  if (!result.total) return result;
  const perRequest = (a?: number, b?: number) => (a === undefined || b === undefined ? {} : { value: ((b - a) / result.total) * 1e6 });
  const server = perRequest(before.server, after.server);
  const database = perRequest(before.database, after.database);
  return {
    ...result,
    ...(server.value === undefined ? {} : { cpuMicros: server.value }),
    ...(database.value === undefined ? {} : { databaseCpuMicros: database.value }),
  };
}

/** Runs of one load as one result: rates and medians averaged, the worst p99, CPU per request over all. */
export function combined(runs: LoadResult[]): LoadResult {
  const total = runs.reduce((sum, run) => sum + run.total, 0);
  const mean = (value: (run: LoadResult) => number) => runs.reduce((sum, run) => sum + value(run), 0) / runs.length;
  const weighted = (value: (run: LoadResult) => number | undefined) =>
    runs.every((run) => value(run) !== undefined) && total ? runs.reduce((sum, run) => sum + value(run)! * run.total, 0) / total : undefined;
  const cpuMicros = weighted((run) => run.cpuMicros);
  const databaseCpuMicros = weighted((run) => run.databaseCpuMicros);
  return {
    requestsPerSecond: mean((run) => run.requestsPerSecond),
    p50: mean((run) => run.p50),
    p99: Math.max(...runs.map((run) => run.p99)),
    total,
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    ...(cpuMicros === undefined ? {} : { cpuMicros }),
    ...(databaseCpuMicros === undefined ? {} : { databaseCpuMicros }),
  };
}

export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One line of a load's figures. */
export const line = (result: LoadResult) =>
  `${result.requestsPerSecond.toFixed(0)} req/s (p50 ${result.p50} ms, p99 ${result.p99} ms` +
  (result.cpuMicros ? `, ${result.cpuMicros.toFixed(0)} µs CPU/req` : '') +
  (result.databaseCpuMicros ? `, PostgreSQL ${result.databaseCpuMicros.toFixed(0)} µs/req` : '') +
  (result.non2xx ? `, ${result.non2xx} non-2xx` : '') +
  (result.errors ? `, ${result.errors} errors` : '') +
  ')';
