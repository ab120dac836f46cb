// `pnpm bench [api|cold-start|comments|content|merge|events|permissions|search|sites|all] [--rounds N] [--seconds S]`: the benchmarks of docs/design/budgets.md, each
// against its budget. Results are printed and written to bench/results/. `api` takes `--against <revision>`
// (repeated, or comma-separated) to run earlier commits as sides of the same run (bench/api/history.ts),
// `--history-only` to run that comparison alone, and `--history-spaces N` for its seed's size.
// `pnpm bench test-suite [--files-from <vitest json>]` times `pnpm test` step by step (not part of `all`:
// it runs the whole suite; bench/test-suite.ts). `pnpm bench startup [--against <revision>]` times one
// start of the built server, wall and CPU (not part of `all`; bench/startup.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runApiBenchmark } from './api.js';
import { verdictOf } from './api/history.js';
import { runColdStartBenchmark } from './cold-start.js';
import { runCommentsBenchmark } from './comments.js';
import { formatStartup, runStartupBenchmark } from './startup.js';
import { formatTestSuite, runTestSuite, summariseReport } from './test-suite.js';

const here = dirname(fileURLToPath(import.meta.url));
process.chdir(here);
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
/** Options followed by a value (which is not the benchmark's name). */
const VALUED = new Set(['--rounds', '--seconds', '--against', '--history-spaces', '--files-from']);
const which = args.find((arg, i) => !arg.startsWith('--') && !VALUED.has(args[i - 1]!)) ?? 'all';

const results: Record<string, unknown> = {};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const verdicts: string[] = [];

if (which === 'all' || which === 'api') {
  console.log('== API: GET /v1/spaces/{id} and 100-item lists vs a bare primary-key handler');
  const against = args.flatMap((arg, i) => (args[i - 1] === '--against' ? arg.split(',') : []));
  const api = await runApiBenchmark({
    rounds: option('rounds', 3),
    seconds: option('seconds', 10),
    against,
    historyOnly: args.includes('--history-only'),
    historySpaces: option('history-spaces', 2000),
  });
  results.api = api;
  const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
  if (api.rounds.length) {
    verdicts.push(`GET /v1/spaces/{id} at ${api.medianRatio.toFixed(2)} of the bare handler (median of paired rounds; target ≥ 0.75): ${api.medianRatio >= 0.75 ? 'met' : 'MISSED'}`);
    if (api.medianCpuPerGet) verdicts.push(`server CPU per GET ${api.medianCpuPerGet.toFixed(2)}× the bare handler's (target ≤ 1.5×): ${api.medianCpuPerGet <= 1.5 ? 'met' : 'MISSED'}`);
    if (api.medianDatabaseCpuPerGet) verdicts.push(`PostgreSQL CPU per GET ${api.medianDatabaseCpuPerGet.toFixed(2)}× the bare handler's (target ≤ 1.1×): ${api.medianDatabaseCpuPerGet <= 1.1 ? 'met' : 'MISSED'}`);
    verdicts.push(`GET /v1/spaces/{id} with rate limits on at ${(api.medianLimitedVsOff * 100).toFixed(1)}% of limits off (median of paired rounds; budget ≥ 95%): ${api.medianLimitedVsOff >= 0.95 ? 'met' : 'MISSED'}` +
        (api.medianLimitedCpuVsOff ? `; server CPU per request with limits on ${(api.medianLimitedCpuVsOff * 100).toFixed(1)}% of limits off` : ''));
    verdicts.push(`GET /v1/spaces/{id} of a space in a published site at ${percent(api.medianPublishedRatio)} of the bare handler (one more indexed query)`);
    verdicts.push(
      `100-item list at ${api.medianListRatio.toFixed(2)} (10,000 spaces) and ${api.medianListSmallRatio.toFixed(2)} (250 spaces) of a bare Kysely keyset list (medians; target ≥ 0.85): ` +
        (Math.min(api.medianListRatio, api.medianListSmallRatio) >= 0.85 ? 'met' : 'MISSED'),
    );
    verdicts.push(
      `100-item list p99 ${api.listP99Max} ms at 16 connections (worst round; budget < 25 ms where the bare list stays under it: bare ${api.bareListP99Max} ms): ` +
        (api.listP99Max < 25 ? 'met' : api.bareListP99Max >= 25 ? 'not applicable (the bare list misses it too)' : 'MISSED'),
    );
    if (api.medianWriteKeyedVsPlain !== undefined) {
      verdicts.push(
        `PATCH /v1/spaces/{id} with an Idempotency-Key at ${(api.medianWriteKeyedVsPlain * 100).toFixed(1)}% of the req/s without one (median of paired rounds; no budget)` +
          (api.medianWriteKeyedCpuVsPlain ? `; server CPU per request ×${api.medianWriteKeyedCpuVsPlain.toFixed(3)}` : ''),
      );
    }
    if (api.readCost) {
      verdicts.push(`idempotency middlewares on a GET: ${api.readCost.costNs.toFixed(0)} ns per request, i.e. ${((api.readCost.costNs / 1000 / median(api.rounds.map((r) => r.byId.cpuMicros ?? Number.NaN))) * 100).toFixed(3)}% of a GET /v1/spaces/{id}'s server CPU`);
    }
  }
  if (api.history) {
    // The control is the last side (api/history.ts): this tree against itself, what "no change" measures.
    const earlier = api.history.sides.slice(1, -1);
    for (const name of ['byId', 'list', 'listSmall'] as const) {
      const control = api.history.controlRatios[name];
      verdicts.push(`${name}: this tree ÷ its control (the same build) ${control.map((r) => r.toFixed(2)).join(', ')} by round`);
      for (const [i, side] of earlier.entries()) {
        const ratio = api.history.medianRatios[name][i]!;
        verdicts.push(
          `${name}: this tree at ${ratio.toFixed(2)} of ${side.label} by req/s, ${api.history.medianCpuRatios[name][i]!.toFixed(2)} by server CPU per request, ` +
            `${api.history.medianDatabaseCpuRatios[name][i]!.toFixed(2)} by PostgreSQL CPU per request (medians; required ≥ 1.00 against the foundation): ${verdictOf(ratio, control)}`,
        );
      }
    }
  }
}

if (which === 'all' || which === 'cold-start') {
  console.log('\n== Cold start: spawn to first answered request, embedded PostgreSQL');
  const cold = await runColdStartBenchmark();
  results.coldStart = cold;
  const warm = Math.max(...cold.warmRunsMs);
  console.log(`first run (initdb, migrations, bootstrap): ${(cold.firstRunMs / 1000).toFixed(2)} s · initialised: ${cold.warmRunsMs.map((ms) => (ms / 1000).toFixed(2)).join(' s, ')} s`);
  verdicts.push(`cold start ${(warm / 1000).toFixed(2)} s (worst of 3; budget < 5 s): ${warm < 5000 ? 'met' : 'MISSED'}; first run ${(cold.firstRunMs / 1000).toFixed(2)} s (budget < 15 s): ${cold.firstRunMs < 15000 ? 'met' : 'MISSED'}`);
}

if (which === 'all' || which === 'comments') {
  console.log('\n== Comments: first page of 10,000 comments vs a bare primary-key handler; re-anchoring after an edit');
  const comments = await runCommentsBenchmark({ rounds: option('rounds', 3), seconds: option('seconds', 10) });
  results.comments = comments;
  verdicts.push(`first 100 of 10,000 comments p99 ${comments.listP99Max} ms at 16 connections (worst round; list budget < 25 ms): ${comments.listP99Max < 25 ? 'met' : 'MISSED'}`);
  verdicts.push(`re-anchoring a page's 100 comments after an edit: median ${comments.reanchor.serviceMs.median.toFixed(1)} ms, p95 ${comments.reanchor.serviceMs.p95.toFixed(1)} ms (no budget)`);
}

/**
 * Runs a standalone benchmark script (its own database and report) and streams its output; `options`
 * are its own (`pnpm bench sites --typing --rounds 2`: everything after the benchmark's name).
 */
function runStandalone(script: string, options: string[] = []): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(join(here, 'node_modules/.bin/tsx'), [join(here, script), ...options], { stdio: 'inherit', cwd: join(here, '..') });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

for (const [name, script] of [
  ['content', 'content-store.ts'],
  ['merge', 'merge.ts'],
  ['events', 'events.ts'],
  ['permissions', 'permissions.ts'],
  ['search', 'search.ts'],
  ['sites', 'sites.ts'],
] as const) {
  if ((which === 'all' || which === name) && existsSync(join(here, script))) {
    console.log(`\n== ${name}: ${script}`);
    // A benchmark run alone gets the options given after its name; `all` runs each with its defaults.
    const code = await runStandalone(script, which === name ? args.filter((arg) => arg !== name) : []);
    verdicts.push(`${name} benchmark: ${code === 0 ? 'ran (figures above, each against its budget)' : `FAILED (exit ${code})`}`);
  }
}

if (which === 'startup') {
  console.log('\n== Startup: one start of the built server, wall and CPU time (this tree beside --against commits)');
  const against = args.flatMap((arg, i) => (args[i - 1] === '--against' ? arg.split(',') : []));
  const startup = await runStartupBenchmark({ rounds: option('rounds', 5), against });
  results.startup = startup;
  console.log(formatStartup(startup));
}

if (which === 'test-suite') {
  console.log('\n== Test suite: `pnpm test` step by step, the slowest test files');
  const report = args.includes('--files-from') ? args[args.indexOf('--files-from') + 1] : undefined;
  // Relative to where `pnpm bench` was called (this script runs in bench/).
  const suite = report ? summariseReport(resolve(process.env.INIT_CWD ?? join(here, '..'), report)) : await runTestSuite();
  results.testSuite = suite;
  console.log(formatTestSuite(suite));
  if (suite.steps.length) {
    const minutes = suite.totalSeconds / 60;
    verdicts.push(`pnpm test ${minutes.toFixed(1)} min (budget < 15 min on a quiet machine; load average after: ${suite.steps.at(-1)!.loadAfter}): ${minutes < 15 ? 'met' : 'MISSED'}`);
  }
}

mkdirSync(join(here, 'results'), { recursive: true });
const file = join(here, 'results', `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(`\n== Verdicts\n${verdicts.map((v) => `- ${v}`).join('\n')}\n(results in ${file})`);
