// Merge figures (DESIGN.md §9, issue 6): merging a change request that touches 100 pages of a
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
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../packages/server/src/config.js';
import { createDatabase, createPool } from '../packages/server/src/db/database.js';
import { startEmbeddedPostgres } from '../packages/server/src/db/embedded.js';
import type { SpaceRow } from '../packages/server/src/db/repositories/access.repository.js';
import { insertMember, insertOrganization } from '../packages/server/src/db/repositories/organizations.repository.js';
import { insertUser } from '../packages/server/src/db/repositories/users.repository.js';
import { createLogger } from '../packages/server/src/logger.js';
import { migrate } from '../packages/server/src/server.js';
import { createChangeRequest } from '../packages/server/src/services/change-requests.service.js';
import type { ContentChange } from '../packages/server/src/services/content/apply-changes.js';
import { applyChangeRequestChanges } from '../packages/server/src/services/content/change-request-content.service.js';
import { mergeChangeRequest } from '../packages/server/src/services/content/change-request-merge.js';
import { applySpaceChanges } from '../packages/server/src/services/content/space-content.service.js';
import { createSpace } from '../packages/server/src/services/spaces.service.js';

const TOP = 100;
const CHILDREN = 99;
const BATCH = 50;
const TOUCHED = 100;
const BOTH_SIDES = 10;
export const MERGE_BUDGET_MS = 300;

const WORDS = 'the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part'.split(' ');

/** ~3 KB of markdown in paragraphs, different for every seed; `edits` replaces some paragraphs. */
function body(seed: number, edits: Record<number, string> = {}): string {
  let state = seed * 2654435761;
  const next = () => (state = (Math.imul(state ^ (state >>> 15), 2246822519) + 1) >>> 0);
  const paragraphs: string[] = [`# Section ${seed}`];
  while (paragraphs.join('\n\n').length < 3000) paragraphs.push(Array.from({ length: 40 }, () => WORDS[next() % WORDS.length]).join(' ') + '.');
  for (const [index, text] of Object.entries(edits)) paragraphs[Number(index)] = text;
  return paragraphs.join('\n\n');
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

export type MergeBenchmarkResult = { pages: number; runs: number[]; median: number; p95: number; max: number; conflicts: number; budgetMs: number };

export async function runMergeBenchmark(options: { runs?: number; log?: (line: string) => void } = {}): Promise<MergeBenchmarkResult> {
  const runs = options.runs ?? Number(process.env.RUNS ?? 9);
  const say = options.log ?? ((line: string) => console.log(line));
  const log = createLogger({ logLevel: 'warn' });
  const dir = mkdtempSync(join(tmpdir(), 'cw-bench-'));
  chmodSync(dir, 0o755); // embedded PostgreSQL runs as user postgres when we are root
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), database: 'bench', log, durability: 'durable' });
  const pool = createPool(postgres.url, 4, log);
  const db = createDatabase(pool);
  const app = { db, config: loadConfig({}) };
  try {
    await migrate(postgres.url, log);
    const user = await insertUser(db, { email: 'bench@example.com', displayName: 'Bench' });
    const organization = await insertOrganization(db, { title: 'Bench' });
    await insertMember(db, { organizationId: organization.id, userId: user.id, role: 'admin' });
    let space: SpaceRow = await createSpace(db, { organizationId: organization.id, creatorId: user.id, parentId: null, body: { title: 'Ten thousand pages' } });

    // Seed: 100 top-level pages with 99 children each, 50 changes a batch.
    let started = performance.now();
    const page = (title: string, seed: number, extra: Partial<Extract<ContentChange, { type: 'insert_page' }>> = {}): ContentChange => ({
      type: 'insert_page',
      title,
      description: `A synthetic page of the merge benchmark, number ${seed}.`,
      markdown: body(seed),
      ...extra,
    });
    const tops: string[] = [];
    for (let i = 0; i < TOP; i += BATCH) {
      const applied = await applySpaceChanges(app, space, user.id, Array.from({ length: BATCH }, (_, j) => page(`Chapter ${i + j}`, i + j, { ref: `t${j}` })));
      space = applied.space;
      for (let j = 0; j < BATCH; j++) tops.push(applied.refs[`t${j}`]!);
    }
    const children: Array<{ id: string; seed: number }> = [];
    const pending = tops.flatMap((parent, t) => Array.from({ length: CHILDREN }, (_, c) => ({ parent, seed: TOP + t * CHILDREN + c, title: `Topic ${t}.${c}` })));
    for (let i = 0; i < pending.length; i += BATCH) {
      const slice = pending.slice(i, i + BATCH);
      const applied = await applySpaceChanges(app, space, user.id, slice.map((item, k) => page(item.title, item.seed, { parent: item.parent, ref: `r${k}` })));
      space = applied.space;
      slice.forEach((item, k) => children.push({ id: applied.refs[`r${k}`]!, seed: item.seed }));
    }
    const pages = TOP + children.length;
    say(`seeded ${pages} pages (${TOP} × ${CHILDREN + 1}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await pool.query('VACUUM ANALYZE');

    const timings: number[] = [];
    let conflicts = 0;
    for (let run = 0; run < runs; run++) {
      // Pages spread over the whole tree, different in every run.
      const pick = (offset: number) => children[(run * 7919 + offset * 97) % children.length]!;
      const requested = Array.from({ length: TOUCHED }, (_, i) => pick(i));
      const direct = Array.from({ length: TOUCHED }, (_, i) => pick(TOUCHED + i));
      const changeRequest = await createChangeRequest(db, space, user.id, { subject: `Run ${run}` });
      for (let i = 0; i < TOUCHED; i += BATCH) {
        await applyChangeRequestChanges(
          app,
          space,
          changeRequest.id,
          user.id,
          requested.slice(i, i + BATCH).map((target): ContentChange => ({ type: 'update_page', page: target.id, title: `Topic ${target.seed}, run ${run}`, markdown: body(target.seed, { 1: `Request paragraph, run ${run}.` }) })),
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
          )
        ).space;
      }
      started = performance.now();
      const merged = await mergeChangeRequest(db, space, changeRequest.id, user.id);
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
    await db.destroy();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runMergeBenchmark().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
