// Content store figures (docs/design/budgets.md, issue 5): a one-page edit batch in a 10,000-page space (time per
// revision, storage added per revision), listing the pages of that space, duplicating it. Runs the
// services directly (no HTTP) on an embedded PostgreSQL of its own, durable, in a temporary folder.
//
//   npx tsx bench/content-store.ts            (from the repository root)
//   EDITS=100 npx tsx bench/content-store.ts  (more samples)
import { performance } from 'node:perf_hooks';
import { toApiPages } from '../packages/server/src/areas/content/content.mapper.js';
import { createUrls } from '../packages/server/src/urls.js';
import { applySpaceChanges, loadHeadPages } from '../packages/server/src/areas/content/space-content.service.js';
import { lifecycle } from '../packages/server/src/areas/index.js';
import { duplicateSpace } from '../packages/server/src/areas/spaces/duplicate.service.js';
import { body, quantile, seedTenThousandPages } from './lib/ten-thousand-pages.js';

const EDITS = Number(process.env.EDITS ?? 50);
const CONTENT_TABLES = ['revisions', 'tree_nodes', 'documents', 'space_head_pages'];

const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const world = await seedTenThousandPages();
  const { pool, db, app, user, actor, children } = world;
  let { space } = world;
  const bytes = async (query: string, params: unknown[] = []) => Number((await pool.query(query, params)).rows[0].bytes ?? 0);
  const relationBytes = async () => {
    let total = 0;
    for (const table of CONTENT_TABLES) total += await bytes(`SELECT pg_total_relation_size($1) AS bytes`, [table]);
    return total;
  };

  try {
    const seeded = world.tops.length + children.length;
    console.log(`seeded ${seeded} pages in ${(world.seededInMs / 1000).toFixed(1)} s`);
    let started = 0;

    // One-page edits: a new title and body for one random child page per batch, one revision each.
    const nodesBefore = new Set((await pool.query(`SELECT encode(hash, 'hex') AS hash FROM tree_nodes`)).rows.map((row) => row.hash as string));
    const documentsBefore = new Set((await pool.query(`SELECT encode(hash, 'hex') AS hash FROM documents`)).rows.map((row) => row.hash as string));
    const revisionsBefore = new Set((await pool.query(`SELECT id FROM revisions`)).rows.map((row) => row.id as string));
    const sizeBefore = await relationBytes();
    const timings: number[] = [];
    for (let i = 0; i < EDITS; i++) {
      const target = children[(i * 7919) % children.length]!;
      started = performance.now();
      const applied = await applySpaceChanges(app, space, user.id, [{ type: 'update_page', page: target.id, title: `Edited topic ${i}`, markdown: body(1_000_000 + i) }], { actor });
      timings.push(performance.now() - started);
      space = applied.space;
    }
    const sizeAfter = await relationBytes();
    const newRows = async (table: string, key: string, known: Set<string>) =>
      (await pool.query(`SELECT ${key} AS key, pg_column_size(t.*) AS bytes FROM ${table} t`)).rows
        .filter((row) => !known.has(row.key as string))
        .reduce((sum, row) => sum + Number(row.bytes), 0);
    const nodeBytes = await newRows('tree_nodes', `encode(hash, 'hex')`, nodesBefore);
    const documentBytes = await newRows('documents', `encode(hash, 'hex')`, documentsBefore);
    const revisionBytes = await newRows('revisions', 'id', revisionsBefore);
    const newNodes = (await pool.query(`SELECT count(*)::int AS n FROM tree_nodes`)).rows[0].n - nodesBefore.size;
    timings.sort((a, b) => a - b);

    // Listing: the whole tree as API objects (what GET …/content/pages answers), cold then warm cache.
    const urls = createUrls({ publicUrl: 'http://localhost:8080', appUrl: 'http://localhost:8080/app' });
    const list = async () => {
      const begin = performance.now();
      const tree = await loadHeadPages(app, space);
      const pages = toApiPages(tree, { urls, spaceId: space.id, fileKey: Buffer.alloc(32) });
      const json = JSON.stringify({ pages });
      return { elapsed: performance.now() - begin, bytes: json.length };
    };
    app.caches.trees.clear();
    const cold = await list();
    const warm: number[] = [];
    for (let i = 0; i < 10; i++) warm.push((await list()).elapsed);
    warm.sort((a, b) => a - b);

    // Duplicate: a new space sharing the roots, plus a bulk copy of the head rows.
    const duplicates: number[] = [];
    for (let i = 0; i < 5; i++) {
      started = performance.now();
      await duplicateSpace(db, lifecycle, app.caches, space, user.id);
      duplicates.push(performance.now() - started);
    }
    duplicates.sort((a, b) => a - b);

    const perEditLogical = (nodeBytes + documentBytes + revisionBytes) / EDITS;
    console.log(`\nContent store, ${seeded}-page space (PostgreSQL ${(await pool.query('SHOW server_version')).rows[0].server_version}, durable)`);
    console.log(`one-page edit batch, per revision (${EDITS} edits): median ${ms(quantile(timings, 0.5))}, p95 ${ms(quantile(timings, 0.95))}, max ${ms(timings.at(-1)!)} (budget < 20 ms)`);
    console.log(
      `storage added per revision: ${kb(perEditLogical)} of new rows (${(newNodes / EDITS).toFixed(1)} tree nodes ${kb(nodeBytes / EDITS)}, ` +
        `body ${kb(documentBytes / EDITS)}, revision row ${kb(revisionBytes / EDITS)}); relations incl. indexes, TOAST and dead head-index tuples: ${kb((sizeAfter - sizeBefore) / EDITS)}`,
    );
    console.log(`list all pages (tree → API objects → JSON, ${kb(cold.bytes)}): cold cache ${ms(cold.elapsed)}, warm median ${ms(quantile(warm, 0.5))}`);
    console.log(`duplicate the space: median ${ms(quantile(duplicates, 0.5))}, max ${ms(duplicates.at(-1)!)}`);
  } finally {
    await world.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
