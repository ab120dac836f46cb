// Content store figures (DESIGN.md §9, issue 5): a one-page edit batch in a 10,000-page space (time per
// revision, storage added per revision), listing the pages of that space, duplicating it. Runs the
// services directly (no HTTP) on an embedded PostgreSQL of its own, durable, in a temporary folder.
//
//   npx tsx bench/content-store.ts            (from the repository root)
//   EDITS=100 npx tsx bench/content-store.ts  (more samples)
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../packages/server/src/config.js';
import { createDatabase, createPool } from '../packages/server/src/db/database.js';
import { startEmbeddedPostgres } from '../packages/server/src/db/embedded.js';
import type { SpaceRow } from '../packages/server/src/db/repositories/access.repository.js';
import { insertMember, insertOrganization } from '../packages/server/src/db/repositories/organizations.repository.js';
import { insertUser } from '../packages/server/src/db/repositories/users.repository.js';
import { createLogger } from '../packages/server/src/logger.js';
import { toApiPages } from '../packages/server/src/mappers/content.mapper.js';
import { createUrls } from '../packages/server/src/mappers/urls.js';
import { migrate } from '../packages/server/src/server.js';
import type { ContentChange } from '../packages/server/src/services/content/apply-changes.js';
import { applySpaceChanges, loadHeadPages } from '../packages/server/src/services/content/space-content.service.js';
import { clearTreeCache } from '../packages/server/src/services/content/tree-store.js';
import { duplicateSpace } from '../packages/server/src/services/duplicate.service.js';
import { createSpace } from '../packages/server/src/services/spaces.service.js';

const TOP = 100;
const CHILDREN = 99;
const EDITS = Number(process.env.EDITS ?? 50);
const BATCH = 50;
const CONTENT_TABLES = ['revisions', 'tree_nodes', 'documents', 'space_head_pages'];

const WORDS = 'the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part'.split(' ');

/** ~3 KB of markdown, different for every seed. */
function body(seed: number): string {
  let state = seed * 2654435761;
  const next = () => (state = (Math.imul(state ^ (state >>> 15), 2246822519) + 1) >>> 0);
  const paragraphs: string[] = [`# Section ${seed}`];
  while (paragraphs.join('\n\n').length < 3000) {
    paragraphs.push(Array.from({ length: 40 }, () => WORDS[next() % WORDS.length]).join(' ') + '.');
  }
  return paragraphs.join('\n\n');
}

function page(title: string, seed: number, extra: Partial<Extract<ContentChange, { type: 'insert_page' }>> = {}): ContentChange {
  return {
    type: 'insert_page',
    title,
    emoji: '📄',
    description: `A synthetic page used by the content-store benchmark, number ${seed}.`,
    layout: { cover: false, coverSize: 'full', tableOfContents: true, outline: false },
    markdown: body(seed),
    ...extra,
  };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const log = createLogger({ logLevel: 'warn' });
  const dir = mkdtempSync(join(tmpdir(), 'cw-bench-'));
  chmodSync(dir, 0o755); // embedded PostgreSQL runs as user postgres when we are root
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), database: 'bench', log, durability: 'durable' });
  const pool = createPool(postgres.url, 4, log);
  const db = createDatabase(pool);
  const app = { db, config: loadConfig({}) };
  const bytes = async (query: string, params: unknown[] = []) => Number((await pool.query(query, params)).rows[0].bytes ?? 0);
  const relationBytes = async () => {
    let total = 0;
    for (const table of CONTENT_TABLES) total += await bytes(`SELECT pg_total_relation_size($1) AS bytes`, [table]);
    return total;
  };

  try {
    await migrate(postgres.url, log);
    const user = await insertUser(db, { email: 'bench@example.com', displayName: 'Bench' });
    const organization = await insertOrganization(db, { title: 'Bench' });
    await insertMember(db, { organizationId: organization.id, userId: user.id, role: 'admin' });
    let space: SpaceRow = await createSpace(db, { organizationId: organization.id, creatorId: user.id, parentId: null, body: { title: 'Ten thousand pages' } });

    // Seed: 100 top-level pages with 99 children each, through the batch service, 50 changes a batch.
    let started = performance.now();
    const tops: string[] = [];
    for (let i = 0; i < TOP; i += BATCH) {
      const applied = await applySpaceChanges(app, space, user.id, Array.from({ length: BATCH }, (_, j) => page(`Chapter ${i + j}`, i + j, { ref: `t${j}` })));
      space = applied.space;
      for (let j = 0; j < BATCH; j++) tops.push(applied.refs[`t${j}`]!);
    }
    const children: Array<{ id: string; parent: string }> = [];
    const pending: Array<{ change: ContentChange; parent: string }> = [];
    tops.forEach((parent, t) => {
      for (let c = 0; c < CHILDREN; c++) pending.push({ parent, change: page(`Topic ${t}.${c}`, TOP + t * CHILDREN + c, { parent, ref: `c${c}` }) });
    });
    for (let i = 0; i < pending.length; i += BATCH) {
      const slice = pending.slice(i, i + BATCH).map((item, k) => ({ ...item, change: { ...item.change, ref: `r${k}` } as ContentChange }));
      const applied = await applySpaceChanges(app, space, user.id, slice.map((item) => item.change));
      space = applied.space;
      slice.forEach((item, k) => children.push({ id: applied.refs[`r${k}`]!, parent: item.parent }));
    }
    const seeded = TOP + children.length;
    console.log(`seeded ${seeded} pages (${TOP} × ${CHILDREN + 1}) in ${(performance.now() - started) / 1000} s`);
    await pool.query('VACUUM ANALYZE');

    // One-page edits: a new title and body for one random child page per batch, one revision each.
    const nodesBefore = new Set((await pool.query(`SELECT encode(hash, 'hex') AS hash FROM tree_nodes`)).rows.map((row) => row.hash as string));
    const documentsBefore = new Set((await pool.query(`SELECT encode(hash, 'hex') AS hash FROM documents`)).rows.map((row) => row.hash as string));
    const revisionsBefore = new Set((await pool.query(`SELECT id FROM revisions`)).rows.map((row) => row.id as string));
    const sizeBefore = await relationBytes();
    const timings: number[] = [];
    for (let i = 0; i < EDITS; i++) {
      const target = children[(i * 7919) % children.length]!;
      started = performance.now();
      const applied = await applySpaceChanges(app, space, user.id, [{ type: 'update_page', page: target.id, title: `Edited topic ${i}`, markdown: body(1_000_000 + i) }]);
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
      const tree = await loadHeadPages(db, space);
      const pages = toApiPages(tree, { urls, spaceId: space.id, fileKey: Buffer.alloc(32) });
      const json = JSON.stringify({ pages });
      return { elapsed: performance.now() - begin, bytes: json.length };
    };
    clearTreeCache();
    const cold = await list();
    const warm: number[] = [];
    for (let i = 0; i < 10; i++) warm.push((await list()).elapsed);
    warm.sort((a, b) => a - b);

    // Duplicate: a new space sharing the roots, plus a bulk copy of the head rows.
    const duplicates: number[] = [];
    for (let i = 0; i < 5; i++) {
      started = performance.now();
      await duplicateSpace(db, space, user.id);
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
    await db.destroy();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
