// The comments benchmark (issue 14, docs/design/budgets.md): a space with 10,000 comments (on blocks of 100 pages,
// with reactions and replies), and
// 1. the first page of its comment list (100 items: authors, reactions, targets) through the full stack,
//    p99 at 16 connections, against the bare Express + pg primary-key handler in the same run;
// 2. the cost of re-anchoring the comments of a page after an edit of that page (its 100 comments), in
//    process (the service, cache cold) and over HTTP (the first list read of the page after the edit,
//    then the next one, served from the anchor cache).
// Server under test on core 0; load generator and PostgreSQL on core 1.
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { anchorOf, documentBlocks, previewOf } from '../packages/server/src/areas/comments/anchoring.js';
import type { CommentContext } from '../packages/server/src/areas/comments/comments.repository.js';
import { commentsQuery } from '../packages/server/src/areas/comments/comments.repository.js';
import { resolveTargets } from '../packages/server/src/areas/comments/targets.js';
import { loadConfig } from '../packages/server/src/config.js';
import { createCaches } from '../packages/server/src/caches.js';
import { postgresBlobStore } from '../packages/server/src/content/blob-store.js';
import { createDatabase, createPool } from '../packages/server/src/db/database.js';
import type { SpaceRow } from '../packages/server/src/access/standing.repository.js';
import { createLogger } from '../packages/server/src/logger.js';
import { ParsePool } from '../packages/server/src/parsing/parse-pool.js';
import { applySpaceChanges } from '../packages/server/src/areas/content/space-content.service.js';
import { SYSTEM_ACTOR } from '../packages/server/src/areas/events/index.js';
import { createUrls } from '../packages/server/src/urls.js';
import { canPin, pin, processTreeCpuSeconds } from './lib/cpus.js';
import { loadavg } from 'node:os';
import { startBenchDatabase } from './lib/database.js';
import { runScript, startScript, stop } from './lib/processes.js';
import { seed } from './api/seed.js';

type LoadResult = { requestsPerSecond: number; p50: number; p99: number; total: number; non2xx: number; errors: number; cpuMicros?: number };

export const COMMENTS = 10_000;
const PAGES = 100;
const PARAGRAPHS = 12;

export type CommentsBenchmarkResult = {
  rounds: Array<{ bare: LoadResult; list: LoadResult; load: number }>;
  listP99Max: number;
  reanchor: { serviceMs: { median: number; p95: number }; firstReadMs: number[]; cachedReadMs: number[] };
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1)]!;

const paragraph = (page: number, i: number, variant = 0) =>
  `Paragraph ${i} of page ${page}${variant ? ` (revised ${variant})` : ''}: the installer takes the default options, then the service restarts and reads its settings file again.`;
const pageBody = (page: number, variant = 0) =>
  [`# Page ${page}`, ...Array.from({ length: PARAGRAPHS }, (_, i) => paragraph(page, i, i === 3 ? variant : 0))].join('\n\n') + '\n';

/** Members whose organization role (inherited by the space) reaches `comment` (api/seed.ts gives the rest `read`). */
const commenting = (g: number) => g <= 10 || g % 10 === 0 || g % 3 === 0;

export async function runCommentsBenchmark(options: { rounds: number; seconds: number }): Promise<CommentsBenchmarkResult> {
  const database = await startBenchDatabase();
  const log = createLogger({ logLevel: 'warn' });
  const pool = createPool(database.url, 4, log);
  const db = createDatabase(pool);
  const parsing = new ParsePool();
  const servers: Array<Awaited<ReturnType<typeof startScript>>> = [];
  try {
    const postmaster = database.postmasterPid();
    if (postmaster) pin(postmaster, 1);
    const seeded = await seed(db as never);
    const spaceId = seeded.spaceIds[0]!;
    const tokens = seeded.tokens.filter((_, i) => commenting(i + 1));
    const authors = Array.from({ length: 1000 }, (_, i) => i + 1).filter(commenting).map((g) => `benchuser${String(g).padStart(11, '0')}`);

    // 100 pages with bodies, written through the content service (the head index included).
    let space = (await db.selectFrom('spaces').selectAll().where('id', '=', spaceId).executeTakeFirstOrThrow()) as unknown as SpaceRow;
    const config = loadConfig({});
    const app = { db, config, parsing, urls: createUrls(config), caches: createCaches(), blobs: postgresBlobStore };
    const pageIds: string[] = [];
    for (let i = 0; i < PAGES; i += 50) {
      const applied = await applySpaceChanges(app, space, authors[0]!, Array.from({ length: 50 }, (_, j) => ({ type: 'insert_page' as const, title: `Page ${i + j}`, ref: `p${j}`, markdown: pageBody(i + j) })), { actor: SYSTEM_ACTOR });
      space = applied.space;
      for (let j = 0; j < 50; j++) pageIds.push(applied.refs[`p${j}`]!);
    }
    const head = space.headRevisionId;
    const hashes = new Map((await db.selectFrom('spaceHeadPages').select(['pageId', 'documentHash']).where('spaceId', '=', spaceId).execute()).map((row) => [row.pageId, row.documentHash]));

    // 10,000 comments, 100 a page, each on one of its blocks; a fifth resolved; reactions and replies on some.
    const rows = Array.from({ length: COMMENTS }, (_, n) => {
      const page = n % PAGES;
      const blocks = documentBlocks(pageBody(page));
      const block = blocks[1 + (n % PARAGRAPHS)]!;
      const anchor = anchorOf(blocks, block.id)!;
      const resolved = n % 5 === 0;
      return {
        id: `benchcomment${String(n).padStart(8, '0')}`,
        page_id: pageIds[page],
        page_title: `Page ${page}`,
        page_path: `page-${page}`,
        hash: hashes.get(pageIds[page]!)!.toString('hex'),
        node_id: block.id,
        node_preview: previewOf(block.text),
        quote: anchor.quote,
        prefix: anchor.prefix,
        suffix: anchor.suffix,
        body: `Comment ${n}: does this still hold?`,
        status: resolved ? 'resolved' : 'open',
        resolved_at: resolved ? new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString() : null,
        resolved_by: resolved ? authors[(n * 7) % authors.length] : null,
        posted_by: authors[n % authors.length],
        posted_at: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
        replies: n % 4 === 0 ? 2 : 0,
      };
    });
    for (let i = 0; i < rows.length; i += 1000) {
      await sql`
        INSERT INTO comments (organization_id, id, space_id, revision_id, page_id, page_title, page_path, target_document_hash, node_id,
          node_preview, anchor_quote, anchor_prefix, anchor_suffix, body_markdown, status, resolved_at, resolved_by, posted_by, posted_at, replies_count)
        SELECT ${seeded.organizationId}, r.id, ${spaceId}, ${head}, r.page_id, r.page_title, r.page_path, decode(r.hash, 'hex'), r.node_id,
          r.node_preview, r.quote, r.prefix, r.suffix, r.body, r.status, r.resolved_at, r.resolved_by, r.posted_by, r.posted_at, r.replies
        FROM jsonb_to_recordset(${JSON.stringify(rows.slice(i, i + 1000))}::jsonb) AS r(id text, page_id text, page_title text, page_path text,
          hash text, node_id text, node_preview text, quote text, prefix text, suffix text, body text, status text, resolved_at timestamptz,
          resolved_by text, posted_by text, posted_at timestamptz, replies int)`.execute(db);
    }
    await sql`
      INSERT INTO comment_replies (organization_id, id, comment_id, body_markdown, posted_by, posted_at)
      SELECT c.organization_id, c.id || 'r' || k, c.id, 'Checked.', c.posted_by, c.posted_at + k * interval '1 minute'
      FROM comments c, generate_series(1, 2) k WHERE c.replies_count = 2`.execute(db);
    await sql`
      INSERT INTO comment_reactions (organization_id, comment_id, emoji, user_id)
      SELECT c.organization_id, c.id, e.emoji, a.user_id
      FROM comments c, unnest(ARRAY['👍', '🎉']) AS e(emoji), unnest(${authors.slice(0, 3)}::text[]) AS a(user_id)
      WHERE c.id LIKE '%0' OR c.id LIKE '%5'`.execute(db);
    await sql`UPDATE spaces SET comments_count = (SELECT count(*) FROM comments WHERE space_id = ${spaceId} AND status = 'open') WHERE id = ${spaceId}`.execute(db);
    await sql`VACUUM ANALYZE`.execute(db);
    console.log(`seeded ${COMMENTS} comments on ${PAGES} pages of one space, ${tokens.length} commenting members; pinning ${canPin ? 'on (server: core 0; load + database: core 1)' : 'unavailable'}`);

    // COMMENTS_CPU_PROF=<folder>: the server under test writes a CPU profile there when it stops.
    const profileDir = process.env.COMMENTS_CPU_PROF;
    const full = await startScript('api/full-server.ts', 0, { DATABASE_URL: database.url }, profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : undefined);
    const bare = await startScript('api/bare-server.ts', 0, { DATABASE_URL: database.url, ORGANIZATION_ID: seeded.organizationId });
    servers.push(full, bare);
    const fullUrl = `http://127.0.0.1:${full.port}`;
    const bareUrl = `http://127.0.0.1:${bare.port}`;
    const listPaths = [`/v1/spaces/${spaceId}/comments?limit=100`];
    const barePaths = seeded.spaceIds.map((id) => `/bare/spaces/${id}`);
    const load = (url: string, paths: string[], withTokens: string[], seconds = options.seconds) =>
      runScript<LoadResult>('api/load.ts', 1, { url, paths, tokens: withTokens, connections: 16, seconds });
    /** `load`, with the server's CPU time per request (the figure a shared machine moves least). */
    const measured = async (pid: number | undefined, url: string, paths: string[], withTokens: string[]) => {
      const before = pid === undefined ? undefined : processTreeCpuSeconds(pid);
      const result = await load(url, paths, withTokens);
      const after = pid === undefined ? undefined : processTreeCpuSeconds(pid);
      return before === undefined || after === undefined || !result.total ? result : { ...result, cpuMicros: ((after - before) / result.total) * 1e6 };
    };

    // 2. Re-anchoring after an edit, in process: edit a page (a paragraph revised, another moved), then
    // resolve the targets of its 100 comments with the anchor cache cold.
    const serviceMs: number[] = [];
    const ctxOf = (headRevisionId: string): CommentContext => ({ organizationId: seeded.organizationId, spaceId, changeRequestId: null, headRevisionId });
    for (let page = 0; page < 20; page++) {
      const blocks = pageBody(page, 1).split('\n\n');
      const moved = [blocks[0], blocks[5], ...blocks.slice(1, 5), ...blocks.slice(6)].join('\n\n');
      space = (await applySpaceChanges(app, space, authors[0]!, [{ type: 'update_page', page: pageIds[page]!, markdown: moved }], { actor: SYSTEM_ACTOR })).space;
      const ofPage = await commentsQuery(db, ctxOf(space.headRevisionId), authors[0]!).where('c.pageId', '=', pageIds[page]!).execute();
      const started = performance.now();
      await resolveTargets(app, ctxOf(space.headRevisionId), ofPage);
      serviceMs.push(performance.now() - started);
    }

    // Warm-up, then the HTTP side of re-anchoring: the first read of an edited page's comments, then the next.
    await load(bareUrl, barePaths, [], 3);
    await load(fullUrl, listPaths, tokens, 3);
    const firstReadMs: number[] = [];
    const cachedReadMs: number[] = [];
    const read = async (page: number) => {
      const started = performance.now();
      const response = await fetch(`${fullUrl}/v1/spaces/${spaceId}/comments?limit=100&targetPage=${pageIds[page]}`, { headers: { authorization: `Bearer ${tokens[0]}` } });
      if (response.status !== 200) throw new Error(`list answered ${response.status}`);
      await response.json();
      return performance.now() - started;
    };
    for (let page = 20; page < 30; page++) {
      await read(page); // the page's tree and bodies cached by the server, as in steady use
      space = (await applySpaceChanges(app, space, authors[0]!, [{ type: 'update_page', page: pageIds[page]!, markdown: pageBody(page, 2) }], { actor: SYSTEM_ACTOR })).space;
      firstReadMs.push(await read(page));
      cachedReadMs.push(await read(page));
    }

    // 1. The first page of the whole list, in rounds, against the bare handler.
    const rounds: CommentsBenchmarkResult['rounds'] = [];
    const line = (r: LoadResult) => `${r.requestsPerSecond.toFixed(0)} req/s (p50 ${r.p50} ms, p99 ${r.p99} ms${r.cpuMicros ? `, ${r.cpuMicros.toFixed(0)} µs CPU/req` : ''})`;
    for (let round = 1; round <= options.rounds; round++) {
      const loadAverage = loadavg()[0]!;
      const bareResult = await measured(bare.child.pid, bareUrl, barePaths, []);
      const list = await measured(full.child.pid, fullUrl, listPaths, tokens);
      rounds.push({ bare: bareResult, list, load: loadAverage });
      console.log(
        `round ${round} (load ${loadAverage.toFixed(1)}): bare ${line(bareResult)} · first 100 of ${COMMENTS} comments ${line(list)} · ` +
          `throughput ratio ${(list.requestsPerSecond / bareResult.requestsPerSecond).toFixed(2)}` +
          (list.cpuMicros && bareResult.cpuMicros ? `, CPU ratio ${(bareResult.cpuMicros / list.cpuMicros).toFixed(3)}` : '') +
          (list.non2xx + list.errors ? ` · NON-2XX/ERRORS ${list.non2xx}/${list.errors}` : ''),
      );
    }
    const fmt = (values: number[]) => values.map((v) => v.toFixed(1)).join(', ');
    console.log(`re-anchoring a page's 100 comments after an edit (service, cache cold): median ${median(serviceMs).toFixed(1)} ms, p95 ${p95(serviceMs).toFixed(1)} ms`);
    console.log(`first list read of an edited page's 100 comments: ${fmt(firstReadMs)} ms; next read (cached anchors): ${fmt(cachedReadMs)} ms`);
    return {
      rounds,
      listP99Max: Math.max(...rounds.map((r) => r.list.p99)),
      reanchor: { serviceMs: { median: median(serviceMs), p95: p95(serviceMs) }, firstReadMs, cachedReadMs },
    };
  } finally {
    for (const server of servers) await stop(server.child);
    await parsing.close();
    await db.destroy();
    await database.stop();
  }
}

