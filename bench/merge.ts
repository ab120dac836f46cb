// Merge figures (docs/design/budgets.md, issue 6): merging a change request that touches 100 pages of a
// 10,000-page space, budget < 300 ms. Each run opens a request at the space head, edits 100 pages in it
// (title and one paragraph), edits 100 other pages and 10 of the request's pages (another paragraph)
// on the space itself, so the merge is 3-way (tree diff, field merge, 10 line merges, head-index diff)
// and not a fast-forward, then times `mergeChangeRequest` alone. Services are called directly (no
// HTTP) on an embedded PostgreSQL of its own, durable, in a temporary folder.
//
//   npx tsx bench/merge.ts            (from the repository root)
//   RUNS=20 npx tsx bench/merge.ts    (more samples)
//
// `runMergeBenchmark()` is exported for the root runner (bench/run.ts).
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createChangeRequest } from '../packages/server/src/areas/change-requests/change-requests.service.js';
import type { ContentChange } from '../packages/server/src/content/apply-changes.js';
import { applyChangeRequestChanges } from '../packages/server/src/areas/change-requests/change-request-content.service.js';
import { mergeChangeRequest, recordingMerges } from '../packages/server/src/areas/change-requests/change-request-merge.js';
import { applySpaceChanges } from '../packages/server/src/areas/content/space-content.service.js';
import { BATCH, body, quantile, seedTenThousandPages } from './lib/ten-thousand-pages.js';

const TOUCHED = 100;
const BOTH_SIDES = 10;
export const MERGE_BUDGET_MS = 300;


export type MergeBenchmarkResult = { pages: number; runs: number[]; median: number; p95: number; max: number; conflicts: number; budgetMs: number };

export async function runMergeBenchmark(options: { runs?: number; log?: (line: string) => void } = {}): Promise<MergeBenchmarkResult> {
  const runs = options.runs ?? Number(process.env.RUNS ?? 9);
  const say = options.log ?? ((line: string) => console.log(line));
  const world = await seedTenThousandPages();
  const { pool, db, app, user, actor, children } = world;
  let { space } = world;
  try {
    const pages = world.tops.length + children.length;
    say(`seeded ${pages} pages in ${(world.seededInMs / 1000).toFixed(1)} s`);
    let started = 0;
    const timings: number[] = [];
    let conflicts = 0;
    for (let run = 0; run < runs; run++) {
      // Pages spread over the whole tree, different in every run.
      const pick = (offset: number) => children[(run * 7919 + offset * 97) % children.length]!;
      const requested = Array.from({ length: TOUCHED }, (_, i) => pick(i));
      const direct = Array.from({ length: TOUCHED }, (_, i) => pick(TOUCHED + i));
      const changeRequest = await createChangeRequest(db, space, user.id, { subject: `Run ${run}` }, { actor, urls: app.urls });
      for (let i = 0; i < TOUCHED; i += BATCH) {
        await applyChangeRequestChanges(
          app,
          space,
          changeRequest.id,
          user.id,
          requested.slice(i, i + BATCH).map((target): ContentChange => ({ type: 'update_page', page: target.id, title: `Topic ${target.seed}, run ${run}`, markdown: body(target.seed, { 1: `Request paragraph, run ${run}.` }) })),
          { actor },
        );
      }
      // The space moves on meanwhile: other pages, and another paragraph of some of the request's pages.
      const onSpace = [...direct, ...requested.slice(0, BOTH_SIDES)];
      for (let i = 0; i < onSpace.length; i += BATCH) {
        space = (
          await applySpaceChanges(
            app,
            space,
            user.id,
            onSpace.slice(i, i + BATCH).map((target): ContentChange => ({ type: 'update_page', page: target.id, markdown: body(target.seed, { 3: `Primary paragraph, run ${run}.` }) })),
            { actor },
          )
        ).space;
      }
      started = performance.now();
      const merged = await mergeChangeRequest(app, space, changeRequest.id, user.id, app.parsing, recordingMerges({ actor, urls: app.urls }, changeRequest.id, space));
      timings.push(performance.now() - started);
      conflicts += merged.conflicts.length;
      if (merged.result !== 'merge') throw new Error(`run ${run}: expected a clean merge, got ${merged.result}`);
    }
    const sorted = [...timings].sort((a, b) => a - b);
    const result = { pages, runs: timings, median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted.at(-1)!, conflicts, budgetMs: MERGE_BUDGET_MS };
    const version = (await pool.query('SHOW server_version')).rows[0].server_version;
    say(`\nMerge, ${pages}-page space (PostgreSQL ${version}, durable), ${runs} runs`);
    say(
      `merging a change request touching ${TOUCHED} pages (${BOTH_SIDES} also edited on the space, ${TOUCHED} other pages edited on the space): ` +
        `median ${result.median.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, max ${result.max.toFixed(1)} ms (budget < ${MERGE_BUDGET_MS} ms): ` +
        `${result.p95 < MERGE_BUDGET_MS ? 'met' : 'MISSED'}`,
    );
    return result;
  } finally {
    await world.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runMergeBenchmark().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
