// Published sites (issue 20): page views of a 10,000-page published space (100 chapters of 99 topics,
// ~3 KB of Markdown each) through the full server at 16 connections, against the bare Express + pg
// primary-key handler in the same run:
// - cached: the same 200 pages over and over (the rendered-page cache answers, after the per-request
//   lookups: site, audience, structure, space heads);
// - first render: pages never shown before, each requested once in order (Markdown → sanitized,
//   highlighted HTML, navigation of the 10,000-page tree), until the time is up;
// - cached, rate limits on: the cached view on a second server that charges every view to the address
//   (limit high enough never to refuse): the cost of the charge;
// - search: the site's search page for a few words of the pages' text (the search service over the
//   site's one space, results linked to site addresses);
// - recording a view (issue 28): what the page endpoint adds per view for the insights — SiteInsights'
//   recordView over the 200 cached pages, 200,000 times, with the batched upserts it leads to written
//   out — per view, as a share of one cached view (1 ÷ the cached view's req/s on its one core);
// - long page: the first render of a long documentation page (bench/lib/long-page.ts, like the
//   longest page of issue 28's sample site), each time a new document, alone on the server; the same page
//   cached (16 connections); and what one page edit renders again (the server's `siteBodies` misses:
//   bodies are rendered once per document, body-template.ts) when every cached page is visited after it;
// - search as you type (issue 28): the dialog's JSON search (`_search?q=`) of a second site publishing a
//   space of 100,000 pages (bench/lib/sql-pages.ts: written in SQL, checked against the server's own
//   indexing, then read and searched through the server), for what a visitor types, a prefix at a time,
//   one request after the other: each round types words it has not typed before (the first pass: the
//   server has not seen these prefixes), then the same twice more (the recent-search cache answers);
//   latency p50 / p95 of the first pass and of all three (budget p95 < 30 ms), then at 16 connections.
// - agents (issue 31, measureAgents below): the cached `.md` of the 200 pages and the cached `llms.txt`
//   (10,000 links) against the cached HTML page, 16 connections, same run; then the first build of
//   `llms-full.txt` (every page's Markdown, streamed) on a server just started: time to its first and
//   last byte, its size, and the server process's resident memory before and at its peak (VmHWM).
// Rate limits are off on the main server (every request comes from one address).
// Server under test on core 0; load generator and PostgreSQL on core 1 (where taskset exists).
//
// - body renderer, before and after (issue 28 "Speed"): the long page's body rendered in one process by
//   this tree's renderer and by main's at 4f225e7 and 4a10c56 (their worktrees, bench/lib/builds.ts), in
//   turns, each time a new document (warm: three rendered first): wall and CPU time, medians, same run.
//   With --profile (and --renderer), each renderer's CPU per render by stage instead.
//
//   pnpm bench sites [--rounds N] [--seconds S] [--profile] [--agents] [--renderer] [--long-page] [--typing [--against REV]]
//
// (bench/run.ts starts this file without the options: for them, `cd bench && ./node_modules/.bin/tsx sites.ts …`.)
//
// --typing: only the search-as-you-type step (the 100,000-page space, without the 10,000-page one and
// the renderers), ROUNDS rounds; with --against REV, REV's server (its worktree, bench/lib/builds.ts)
// answers each round's words too, turn about with this tree's, on the same database: before and after
// in one run. SITES_BENCH_DATA=/some/dir keeps the seeded database there and reuses it on the next runs
// (`typing/` and `full/` beside each other: a typing-only world has no 10,000-page space); the full run's
// long-page step edits its space, so a kept full world grows by those edits. --explain (with --typing):
// instead of the rounds, EXPLAIN (ANALYZE, BUFFERS) of every statement the dialog's search runs
// (bench/lib/explain.ts) for a few prefixes, with the dialog's bound and the results page's, and how
// many of the dialog's eight results each bound gives alike, for every prefix of the rounds' words.
//
// --long-page: only the long page's first render in a site of the sample site's size (41 pages), without
// the 10,000- and 100,000-page worlds.
//
// --profile: instead of the rounds, a CPU profile (node --cpu-prof) of the server under the cached view,
// summarised by self time (module and function); the .cpuprofile is kept in bench/results/.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { Caller } from '../packages/server/src/auth/authenticate.js';
import type { AppContext } from '../packages/server/src/context.js';
import { SiteInsights } from '../packages/server/src/areas/sites/index.js';
import { createSite, setPublished } from '../packages/server/src/areas/sites/sites.service.js';
import { createLogger } from '../packages/server/src/logger.js';
import { CodeHighlighter, HIGHLIGHT_KEPT_CHARS } from '../packages/server/src/areas/sites/published/code-highlight.js';
import { renderBodyTemplate } from '../packages/server/src/areas/sites/published/markdown-html.js';
import { checkoutCommit } from './lib/builds.js';
import { canPin } from './lib/cpus.js';
import { runScript, startScript, stop } from './lib/processes.js';
import { applySpaceChanges } from '../packages/server/src/areas/content/space-content.service.js';
import { longPage } from './lib/long-page.js';
import { profileRenders } from './lib/renderer-profile.js';
import { body, quantile, seedTenThousandPages } from './lib/ten-thousand-pages.js';
import { checkSeededPages, seedPagesInSql, type SqlPage } from './lib/sql-pages.js';
import { explainingPool, type ExplainedStatement } from './lib/explain.js';
import { RESULTS_BOUND, searchPages, type SearchPageHit } from '../packages/server/src/content/search/search.js';
import { createDatabase } from '../packages/server/src/db/database.js';
import { DIALOG_BOUND, DIALOG_RESULTS } from '../packages/server/src/areas/sites/published/endpoints/search-json.js';
import { createSpace } from '../packages/server/src/areas/spaces/spaces.service.js';

// Scripts started below are named relative to bench/.
process.chdir(dirname(fileURLToPath(import.meta.url)));

type LoadResult = { requestsPerSecond: number; p50: number; p99: number; total: number; non2xx: number; errors: number };

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const ROUNDS = option('rounds', 3);
const SECONDS = option('seconds', 10);
const PROFILE = args.includes('--profile');
/** `--agents`: only the agents' reads (measureAgents), after the seeding. */
const AGENTS_ONLY = args.includes('--agents');
/** `--renderer`: only the body renderer before and after (measureBodyRenderers), without seeding. */
const RENDERER_ONLY = args.includes('--renderer');
/** `--long-page`: only the long page's first render in a site of the sample site's size (measureLongPageInSmallSite), without the big worlds. */
const LONG_PAGE_ONLY = args.includes('--long-page');
/** Pages beside the long page in that site: the sample site of issue 28 has about 40. */
const SMALL_SITE_PAGES = 40;
/** The commits whose body renderers this tree's is compared with: main when issue 28's render work started, and main before the tokens-to-hast renderer. */
const RENDERER_BASELINES = ['4f225e7', '4a10c56'];
/** `--typing`: only the search-as-you-type step (measureTypingOnly). */
const TYPING_ONLY = args.includes('--typing');
/** `--against REV` (with --typing): an earlier commit's server measured beside this tree's. */
const AGAINST = args.includes('--against') ? args[args.indexOf('--against') + 1] : undefined;
/** `--explain` (with --typing): the statements' plans and the bounds' results compared (explainTyping). */
const EXPLAIN = args.includes('--explain');
/** SITES_BENCH_DATA: where the seeded worlds are kept between runs (see the file's header). */
const DATA_DIR = process.env.SITES_BENCH_DATA;
/** Documents each renderer renders for the figures (a median of 15 holds still on a shared machine where 9 did not). */
const RENDERER_DOCUMENTS = 15;

type ProfileNode = { id: number; callFrame: { functionName: string; url: string } };

/** Self time of the profile's last `seconds` (less a second at each end), by module and by function. */
function summarise(file: string, seconds: number) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const end = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  const [from, to] = [end - (seconds - 1) * 1e6, end - 1e6];
  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  let at = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at > to) return;
    const { functionName, url } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') return;
    busy += delta;
    const module = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url.includes('/packages/server/src/') ? `src/${url.replace(/.*\/packages\/server\/src\//, '').split('/').slice(0, -1).join('/')}` : url ? 'node core' : functionName);
    modules.set(module, (modules.get(module) ?? 0) + delta);
    const name = `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '').replace(/.*\/packages\//, '')}`;
    functions.set(name, (functions.get(name) ?? 0) + delta);
  });
  const share = (time: number) => `${((time / busy) * 100).toFixed(1)}%`.padStart(6);
  console.log(`\nself time by module (idle excluded; busy ${((busy / (to - from)) * 100).toFixed(0)}% of the window):`);
  for (const [name, time] of [...modules].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${share(time)}  ${name}`);
  console.log('\ntop functions by self time:');
  for (const [name, time] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${share(time)}  ${name}`);
}

const line = (label: string, r: LoadResult, bare: LoadResult) =>
  `${label} ${r.requestsPerSecond.toFixed(0)} req/s (p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.total} requests) · ratio to bare ${(r.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}` +
  (r.non2xx + r.errors ? ` · NON-2XX/ERRORS ${r.non2xx}/${r.errors}` : '');

async function main() {
  if (TYPING_ONLY) return await measureTypingOnly();
  await measureBodyRenderers();
  if (RENDERER_ONLY) return;
  if (LONG_PAGE_ONLY) return await longPageOnly();
  console.log('seeding a 10,000-page space …');
  const world = await seedTenThousandPages(DATA_DIR ? { keepIn: join(DATA_DIR, 'full') } : {});
  const servers: Array<Awaited<ReturnType<typeof startScript>>> = [];
  try {
    const { db, organizationId, space, user, tops, children } = world;
    // The services record events with the actor's addresses: the seeded app context has them.
    const app = { ...world.app, db } as unknown as AppContext;
    const caller = { user: { id: user.id } } as unknown as Caller;
    const { siteId, many } = await keptSites(world, async () => {
      const siteId = await createSite(app, caller, organizationId, { title: 'Bench docs', spaces: [space.id] }, new Map([[space.id, space]]));
      await setPublished(app, organizationId, siteId, true);
      // The 100,000-page space of the search-as-you-type step, and a site publishing it.
      return { siteId, many: await seedManyPages(app, caller, world) };
    });
    console.log(`seeded in ${(world.seededInMs / 1000).toFixed(0)} s; site ${siteId} published; pinning ${canPin ? 'on (server: core 0; load + database: core 1)' : 'unavailable'}`);

    if (PROFILE) return await profileCached(world.url, siteId, world);
    const full = await startScript('api/full-server.ts', 0, { DATABASE_URL: world.url, RATE_LIMIT_ENABLED: 'false' });
    const limited = await startScript('api/full-server.ts', 0, { DATABASE_URL: world.url, RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_ADDRESS: '1000000' });
    const bare = await startScript('api/bare-server.ts', 0, { DATABASE_URL: world.url, ORGANIZATION_ID: organizationId });
    servers.push(full, limited, bare);
    const fullUrl = `http://127.0.0.1:${full.port}`;
    const limitedUrl = `http://127.0.0.1:${limited.port}`;
    const bareUrl = `http://127.0.0.1:${bare.port}`;
    const load = (url: string, paths: string[], seconds = SECONDS, sequential = false) =>
      runScript<LoadResult>('api/load.ts', 1, { url, paths, tokens: [], connections: 16, seconds, sequential });

    // Paths as the site shows them: chapter-N/topic-N-M (slugs from the titles).
    const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    const titleOf = new Map<string, string>();
    tops.forEach((id, t) => titleOf.set(id, `Chapter ${t}`));
    const childPath = (child: (typeof children)[number], index: number) => {
      const t = tops.indexOf(child.parent);
      return `/s/${siteId}/${slug(titleOf.get(child.parent)!)}/${slug(`Topic ${t}.${index % 99}`)}`;
    };
    const allPaths = children.map(childPath);
    const probe = await fetch(`${fullUrl}${allPaths[0]}`);
    if (probe.status !== 200) throw new Error(`the site answered ${probe.status} for ${allPaths[0]}`);
    const bytes = (await probe.text()).length;
    const cached = allPaths.slice(0, 200);
    const barePaths = [`/bare/spaces/${space.id}`];
    const searchPaths = ['water', 'oil people', 'topic', 'section 4521'].map((q) => `/s/${siteId}/search?q=${encodeURIComponent(q)}`);

    if (AGENTS_ONLY) {
      await load(fullUrl, cached, 5);
      return await measureAgents(world.url, fullUrl, siteId, cached, load);
    }
    // Warm-up: the JIT, the page tree, and the 200 cached pages rendered once.
    await load(bareUrl, barePaths, 3);
    await load(fullUrl, cached, 5);
    await load(limitedUrl, cached, 5);
    await load(fullUrl, searchPaths, 3);
    await checkManyPages(fullUrl, many);
    await load(fullUrl, typingPaths(many.siteId, TYPED[0]!), 3);
    let unseen = allPaths.slice(200);
    const rounds: Array<{ bare: LoadResult; cached: LoadResult; first: LoadResult; limited: LoadResult; search: LoadResult; recordMs: number; typing: LoadResult; latency: TypingLatency }> = [];
    // What recording costs the server: the calls on the hot path and the batched writes they lead to.
    const insights = new SiteInsights(db, createLogger({ logLevel: 'warn' }));
    const recordViews = async () => {
      const pages = children.slice(0, 200);
      const views = 200_000;
      const started = process.hrtime.bigint();
      for (let i = 0; i < views; i++) insights.recordView({ organizationId, siteId, spaceId: space.id, pageId: pages[i % pages.length]!.id, kind: 'page' });
      await insights.flush();
      return Number(process.hrtime.bigint() - started) / 1e6 / views;
    };
    await recordViews();
    for (let round = 1; round <= ROUNDS; round++) {
      const bareResult = await load(bareUrl, barePaths);
      const cachedResult = await load(fullUrl, cached);
      // Pages this round has not seen: each requested once, in order.
      const first = await load(fullUrl, unseen, SECONDS, true);
      unseen = unseen.slice(Math.min(unseen.length - 1, first.total));
      const limitedResult = await load(limitedUrl, cached);
      const search = await load(fullUrl, searchPaths);
      const recordMs = await recordViews();
      const typed = typingPaths(many.siteId, TYPED[1 + ((round - 1) % (TYPED.length - 1))]!);
      const latency = await typingLatency(fullUrl, typed);
      const typing = await load(fullUrl, typed);
      rounds.push({ bare: bareResult, cached: cachedResult, first, limited: limitedResult, search, recordMs, typing, latency });
      console.log(`round ${round}: bare ${bareResult.requestsPerSecond.toFixed(0)} req/s (p50 ${bareResult.p50} ms, p99 ${bareResult.p99} ms)`);
      console.log(`  ${line('cached page view', cachedResult, bareResult)}`);
      console.log(`  ${line('first render', first, bareResult)}`);
      console.log(`  ${line('cached, rate limits on', limitedResult, bareResult)}`);
      console.log(`  ${line('search', search, bareResult)}`);
      console.log(`  recording a view: ${(recordMs * 1000).toFixed(2)} µs = ${((recordMs * cachedResult.requestsPerSecond) / 10).toFixed(2)}% of a cached view`);
      console.log(
        `  search as you type, 100,000 pages, one at a time: first pass p50 ${latency.first.p50.toFixed(1)} ms, p95 ${latency.first.p95.toFixed(1)} ms; ` +
          `all three passes p50 ${latency.all.p50.toFixed(1)} ms, p95 ${latency.all.p95.toFixed(1)} ms (${typed.length} prefixes × 3)`,
      );
      console.log(`  ${line('search as you type, 16 connections', typing, bareResult)}`);
    }
    await insights.stop();
    // The agents' reads before the long page, whose edits change the site's content.
    await measureAgents(world.url, fullUrl, siteId, cached, load);
    await measureLongPage(world, fullUrl, siteId, cached, load);
    await measureLongPageInSmallSite(world, app, caller, fullUrl, load);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.log(
      `\nPublished site, 10,000-page space, 16 connections, page of ~${(bytes / 1024).toFixed(0)} KB: ` +
        `cached median ratio ${median(rounds.map((r) => r.cached.requestsPerSecond / r.bare.requestsPerSecond)).toFixed(2)}, ` +
        `first render median ratio ${median(rounds.map((r) => r.first.requestsPerSecond / r.bare.requestsPerSecond)).toFixed(2)}, ` +
        `rate limits on ÷ off (cached) ${median(rounds.map((r) => r.limited.requestsPerSecond / r.cached.requestsPerSecond)).toFixed(2)}, ` +
        `search median ${median(rounds.map((r) => r.search.requestsPerSecond)).toFixed(0)} req/s, ` +
        `recording a view median ${median(rounds.map((r) => (r.recordMs * r.cached.requestsPerSecond) / 10)).toFixed(2)}% of a cached view (budget 5%), ` +
        `worst p99 cached ${Math.max(...rounds.map((r) => r.cached.p99))} ms, first render ${Math.max(...rounds.map((r) => r.first.p99))} ms, ` +
        `search as you type (100,000 pages) p95 median: first pass ${median(rounds.map((r) => r.latency.first.p95)).toFixed(1)} ms, all passes ${median(rounds.map((r) => r.latency.all.p95)).toFixed(1)} ms (budget 30); load average ${loadavg().map((value) => value.toFixed(1)).join(', ')}`,
    );
  } finally {
    for (const server of servers) await stop(server.child);
    await world.stop();
  }
}

type RenderBody = (markdown: string) => unknown;

/** A commit's body renderer, imported from its worktree's sources (bench/lib/builds.ts) into this process. */
async function rendererOf(revision: string): Promise<{ label: string; render: RenderBody }> {
  const { commit, dir } = await checkoutCommit(revision);
  const published = join(dir, 'packages/server/src/areas/sites/published');
  const { renderBodyTemplate: render } = (await import(join(published, 'markdown-html.ts'))) as { renderBodyTemplate: (markdown: string, highlighter?: unknown) => unknown };
  // Commits before the kept highlighting (4f225e7) take the Markdown alone.
  const kept = existsSync(join(published, 'code-highlight.ts'))
    ? ((await import(join(published, 'code-highlight.ts'))) as { CodeHighlighter: new (maxChars: number) => unknown; HIGHLIGHT_KEPT_CHARS: number })
    : undefined;
  const highlighter = kept && new kept.CodeHighlighter(kept.HIGHLIGHT_KEPT_CHARS);
  return { label: commit.slice(0, 7), render: (markdown) => render(markdown, highlighter) };
}

/**
 * The long page's body rendered by this tree and by each of RENDERER_BASELINES, in turns (the order
 * rotating), in this process (see the file's header). With --profile, where each side's CPU goes instead
 * (bench/lib/renderer-profile.ts).
 */
async function measureBodyRenderers() {
  const highlighter = new CodeHighlighter(HIGHLIGHT_KEPT_CHARS);
  const sides: Array<{ label: string; render: RenderBody; wall: number[]; cpu: number[] }> = [];
  for (const revision of RENDERER_BASELINES) sides.push({ ...(await rendererOf(revision)), wall: [], cpu: [] });
  sides.push({ label: 'this tree', render: (markdown) => renderBodyTemplate(markdown, highlighter), wall: [], cpu: [] });
  // Warm: each side's modules loaded and compiled, its highlighter's grammars built.
  for (let seed = 1000; seed < 1003; seed++) for (const side of sides) side.render(longPage(seed));
  if (PROFILE) {
    for (const [index, side] of sides.entries()) {
      const stages = await profileRenders(side.render, Array.from({ length: 9 }, (_, seed) => longPage(2000 + index * 100 + seed)));
      const total = stages.reduce((sum, [, ms]) => sum + ms, 0);
      console.log(`body renderer ${side.label}, CPU per render of the long page by stage (9 new documents, load average ${loadavg()[0]!.toFixed(1)}): ${total.toFixed(0)} ms`);
      for (const [stage, ms] of stages) console.log(`  ${ms.toFixed(1).padStart(6)} ms  ${((ms / total) * 100).toFixed(0).padStart(3)} %  ${stage}`);
    }
    return;
  }
  for (let seed = 1; seed <= RENDERER_DOCUMENTS; seed++) {
    for (let turn = 0; turn < sides.length; turn++) {
      const index = (seed + turn) % sides.length;
      const side = sides[index]!;
      // A new document for each side: nothing of it highlighted before.
      const markdown = longPage(seed * sides.length + index);
      const cpu = process.cpuUsage();
      const started = performance.now();
      side.render(markdown);
      side.wall.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      side.cpu.push((used.user + used.system) / 1000);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`body renderer, long page (${(longPage(9).length / 1024).toFixed(0)} KB of Markdown), ${RENDERER_DOCUMENTS} new documents each, in turns, one process (load average ${loadavg()[0]!.toFixed(1)}):`);
  for (const side of sides) console.log(`  ${side.label}: wall median ${median(side.wall).toFixed(0)} ms (min ${Math.min(...side.wall).toFixed(0)}), CPU median ${median(side.cpu).toFixed(0)} ms (min ${Math.min(...side.cpu).toFixed(0)})`);
  const tree = sides.at(-1)!;
  for (const side of sides.slice(0, -1)) console.log(`  this tree ÷ ${side.label}: wall ${(median(tree.wall) / median(side.wall)).toFixed(2)}, CPU ${(median(tree.cpu) / median(side.cpu)).toFixed(2)}`);
}

/** Bodies the server has rendered so far (its `siteBodies` cache's misses, from /metrics). */
async function bodiesRendered(url: string): Promise<number> {
  const metrics = await (await fetch(`${url}/metrics`)).text();
  return Number(/^cache_misses_total\{cache="siteBodies"\} (\d+)/m.exec(metrics)?.[1] ?? NaN);
}

/** The long page (see the file's header): first renders, the cached view, and what one edit renders again. */
async function measureLongPage(
  world: Awaited<ReturnType<typeof seedTenThousandPages>>,
  url: string,
  siteId: string,
  cachedPaths: string[],
  load: (url: string, paths: string[], seconds?: number) => Promise<LoadResult>,
) {
  let space = world.space;
  const { app, user, actor } = world;
  // A slug of its own in each run: a kept world (SITES_BENCH_DATA) still holds the long pages of earlier runs.
  const slug = `long-reference-${Date.now().toString(36)}`;
  const applied = await applySpaceChanges(app, space, user.id, [{ type: 'insert_page', ref: 'long', title: 'Long reference', slug, markdown: longPage(0) }], { actor });
  space = applied.space;
  const longId = applied.refs.long!;
  const path = `/s/${siteId}/${slug}`;
  // The first document rendered warms the renderer's modules in a worker: not a first render of a page.
  await (await fetch(`${url}${path}`)).arrayBuffer();
  const sorted = await firstRenders(url, path, [1, 2, 3, 4, 5, 6, 7, 8, 9], async (markdown) => {
    space = (await applySpaceChanges(app, space, user.id, [{ type: 'update_page', page: longId, markdown }], { actor })).space;
  });
  const cachedView = await load(url, [path], SECONDS);
  console.log(
    `\nlong page (${(longPage(9).length / 1024).toFixed(0)} KB of Markdown): first render median ${sorted[4]!.toFixed(0)} ms (min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)}; 9 new documents, one request at a time); ` +
      `cached ${cachedView.requestsPerSecond.toFixed(0)} req/s (p50 ${cachedView.p50} ms, p99 ${cachedView.p99} ms)`,
  );
  // One page edited, then every cached page and the long one visited: what is rendered again.
  for (const visited of cachedPaths) await (await fetch(`${url}${visited}`)).arrayBuffer();
  const before = await bodiesRendered(url);
  const edited = world.children[0]!;
  // Words of this run's own: the same edit as a kept world's last run would be the same document, already rendered.
  await applySpaceChanges(app, space, user.id, [{ type: 'update_page', page: edited.id, markdown: body(edited.seed, { 1: `An edited paragraph (${slug}).` }) }], { actor });
  for (const visited of [...cachedPaths, path]) await (await fetch(`${url}${visited}`)).arrayBuffer();
  const rendered = (await bodiesRendered(url)) - before;
  console.log(`one page edited, then ${cachedPaths.length + 1} pages of the site visited: ${rendered} page bod${rendered === 1 ? 'y' : 'ies'} rendered again`);
}

/** First renders of the long page at `path`: for each seed a new version of it (`edit`), then one request (ms, sorted). */
async function firstRenders(url: string, path: string, seeds: number[], edit: (markdown: string) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (const seed of seeds) {
    await edit(longPage(seed));
    const started = performance.now();
    const response = await fetch(`${url}${path}`);
    await response.text();
    if (response.status !== 200) throw new Error(`the long page answered ${response.status}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

type World = Awaited<ReturnType<typeof seedTenThousandPages>>;
type Load = (url: string, paths: string[], seconds?: number) => Promise<LoadResult>;

/** `--long-page`: the world without its 10,000 pages, one server, the small site's long page only. */
async function longPageOnly() {
  const world = await seedTenThousandPages({ pages: 0 });
  const app = { ...world.app, db: world.db } as unknown as AppContext;
  const caller = { user: { id: world.user.id } } as unknown as Caller;
  const full = await startScript('api/full-server.ts', 0, { DATABASE_URL: world.url, RATE_LIMIT_ENABLED: 'false' });
  try {
    const load: Load = (url, paths, seconds = SECONDS) => runScript<LoadResult>('api/load.ts', 1, { url, paths, tokens: [], connections: 16, seconds, sequential: false });
    await measureLongPageInSmallSite(world, app, caller, `http://127.0.0.1:${full.port}`, load);
  } finally {
    await stop(full.child);
    await world.stop();
  }
}

/**
 * The long page's first render as issue 28 states it — in a site of the sample site's size (40 pages of
 * ~3 KB beside it), so that a new version of the page re-assembles a small navigation, as a docs team's
 * edit does; measureLongPage above does the same inside the 10,000-page site, where each edit also
 * rebuilds that site's model and navigation. Each first render is of a new document (nothing of it
 * highlighted or rendered before), one request at a time, on a warm server.
 */
async function measureLongPageInSmallSite(world: World, app: AppContext, caller: Caller, url: string, load: Load) {
  const { user, actor, organizationId } = world;
  let space = await createSpace(app.db, { organizationId, creatorId: user.id, parentId: null, body: { title: 'Sample-sized docs' } });
  const pages = Array.from({ length: SMALL_SITE_PAGES }, (_, i) => ({ type: 'insert_page' as const, ref: `p${i}`, title: `Guide ${i}`, slug: `guide-${i}`, markdown: body(500_000 + i) }));
  const applied = await applySpaceChanges(app, space, user.id, [...pages, { type: 'insert_page', ref: 'long', title: 'Long reference', slug: 'long-reference', markdown: longPage(0) }], { actor });
  space = applied.space;
  const longId = applied.refs.long!;
  const siteId = await createSite(app, caller, organizationId, { title: 'Sample-sized docs', spaces: [space.id] }, new Map([[space.id, space]]));
  await setPublished(app, organizationId, siteId, true);
  const path = `/s/${siteId}/long-reference`;
  // The first documents warm the renderer's modules in the workers and the server's JIT.
  for (const visited of [path, ...pages.slice(0, 5).map((page) => `/s/${siteId}/${page.slug}`)]) await (await fetch(`${url}${visited}`)).arrayBuffer();
  const sorted = await firstRenders(url, path, Array.from({ length: 15 }, (_, i) => 101 + i), async (markdown) => {
    space = (await applySpaceChanges(app, space, user.id, [{ type: 'update_page', page: longId, markdown }], { actor })).space;
  });
  const cached = await load(url, [path], SECONDS);
  console.log(
    `\nlong page in a site of ${SMALL_SITE_PAGES + 1} pages (${(longPage(101).length / 1024).toFixed(0)} KB of Markdown): first render median ${sorted[7]!.toFixed(0)} ms ` +
      `(min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)}; 15 new documents, one request at a time; budget 100 ms); ` +
      `cached ${cached.requestsPerSecond.toFixed(0)} req/s (p50 ${cached.p50} ms, p99 ${cached.p99} ms); load average ${loadavg().map((value) => value.toFixed(1)).join(', ')}`,
  );
}

/** The process a started script's server runs in: tsx runs node as its child (the last of the chain). */
function serverPid(child: ChildProcess): number {
  let pid = child.pid!;
  for (;;) {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    if (children.length === 0) return pid;
    pid = children[0]!;
  }
}

/** A process's resident memory now and at its peak so far, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  return { rss: mb('VmRSS'), peak: mb('VmHWM') };
}

/** The agents' reads (see the file's header): cached `.md` and `llms.txt` against the cached HTML, then `llms-full.txt` built once. */
async function measureAgents(databaseUrl: string, url: string, siteId: string, cachedPaths: string[], load: (url: string, paths: string[], seconds?: number) => Promise<LoadResult>) {
  const markdownPaths = cachedPaths.map((path) => `${path}.md`);
  const llmsPaths = [`/s/${siteId}/llms.txt`];
  await load(url, markdownPaths, 5);
  await load(url, llmsPaths, 3);
  const rounds: Array<{ html: LoadResult; markdown: LoadResult; llms: LoadResult }> = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const html = await load(url, cachedPaths);
    const markdown = await load(url, markdownPaths);
    const llms = await load(url, llmsPaths);
    rounds.push({ html, markdown, llms });
    const versus = (label: string, r: LoadResult) =>
      `${label} ${r.requestsPerSecond.toFixed(0)} req/s (p50 ${r.p50} ms, p99 ${r.p99} ms) · ÷ cached HTML ${(r.requestsPerSecond / html.requestsPerSecond).toFixed(2)}` + (r.non2xx + r.errors ? ` · NON-2XX/ERRORS ${r.non2xx}/${r.errors}` : '');
    console.log(`agents, round ${round}: cached HTML page ${html.requestsPerSecond.toFixed(0)} req/s (p50 ${html.p50} ms, p99 ${html.p99} ms)`);
    console.log(`  ${versus('cached .md', markdown)}`);
    console.log(`  ${versus('cached llms.txt', llms)}`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const llmsBytes = (await (await fetch(`${url}${llmsPaths[0]}`)).text()).length;

  // llms-full.txt on a server just started: nothing of the site cached, every page read and rendered.
  const fresh = await startScript('api/full-server.ts', 0, { DATABASE_URL: databaseUrl, RATE_LIMIT_ENABLED: 'false' });
  try {
    const pid = serverPid(fresh.child);
    const before = memoryOf(pid);
    const fetchFull = async () => {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${fresh.port}/s/${siteId}/llms-full.txt`);
      if (response.status !== 200 || !response.body) throw new Error(`llms-full.txt answered ${response.status}`);
      let firstByte: number | undefined;
      let bytes = 0;
      const reader = response.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        firstByte ??= performance.now() - started;
        bytes += read.value.length;
      }
      return { firstByte: firstByte ?? NaN, total: performance.now() - started, bytes };
    };
    const first = await fetchFull();
    const after = memoryOf(pid);
    const again = await fetchFull();
    console.log(
      `\nagents, 10,000-page site: cached .md ÷ cached HTML median ${median(rounds.map((r) => r.markdown.requestsPerSecond / r.html.requestsPerSecond)).toFixed(2)}, ` +
        `cached llms.txt (${(llmsBytes / 1024).toFixed(0)} KB) ÷ cached HTML median ${median(rounds.map((r) => r.llms.requestsPerSecond / r.html.requestsPerSecond)).toFixed(2)}; ` +
        `llms-full.txt first build (fresh server): ${(first.total / 1000).toFixed(1)} s to the last byte (first byte ${first.firstByte.toFixed(0)} ms), ${(first.bytes / 1024 / 1024).toFixed(1)} MB; ` +
        `server resident memory ${before.rss.toFixed(0)} MB before, peak ${after.peak.toFixed(0)} MB (peak before ${before.peak.toFixed(0)} MB); ` +
        `second request ${(again.total / 1000).toFixed(1)} s`,
    );
  } finally {
    await stop(fresh.child);
  }
}

type Quantiles = { p50: number; p95: number };
/** `slowest`: the first pass's five slowest prefixes, with their ms (where a p95 comes from). */
type TypingLatency = { first: Quantiles; all: Quantiles; slowest: string };

/** What visitors type in the search-as-you-type step: the warm-up's words, then new words for each round. */
const TYPED = [
  ['release notes', 'session'],
  ['webhook', 'configure token', 'pagination cursor', 'install docker', 'kubernetes', 'permision'],
  ['deploy cluster', 'search index', 'billing invoice', 'terraform', 'saml provider', 'idempotency'],
  ['export csv', 'rate limit', 'translation locale', 'profiling', 'onboarding guide', 'retry backoff'],
];

/**
 * --typing --profile: the server's CPU (node --cpu-prof) while it answers every prefix of the rounds'
 * words once, one request at a time, each new to it (the first pass), summarised by self time.
 */
async function profileTyping(url: string, many: ManyPages) {
  const directory = mkdtempSync(join(tmpdir(), 'cw-typing-profile-'));
  const server = await startScript('api/full-server.ts', 0, { DATABASE_URL: url, RATE_LIMIT_ENABLED: 'false' }, ['--cpu-prof', `--cpu-prof-dir=${directory}`]);
  try {
    const base = `http://127.0.0.1:${server.port}`;
    await checkManyPages(base, many);
    await runScript<LoadResult>('api/load.ts', 1, { url: base, paths: typingPaths(many.siteId, TYPED[0]!), tokens: [], connections: 16, seconds: 3, sequential: false });
    const paths = typingPaths(many.siteId, TYPED.slice(1).flat());
    const started = performance.now();
    const times: Array<[number, string]> = [];
    for (const path of paths) {
      const before = performance.now();
      await (await fetch(`${base}${path}`)).arrayBuffer();
      times.push([performance.now() - before, decodeURIComponent(path.replace(/.*q=/, ''))]);
    }
    const seconds = (performance.now() - started) / 1000;
    times.sort((a, b) => b[0] - a[0]);
    console.log(`${paths.length} prefixes new to the server in ${seconds.toFixed(1)} s (profiled); slowest: ${times.slice(0, 10).map(([ms, q]) => `"${q}" ${ms.toFixed(0)} ms`).join(', ')}`);
    await stop(server.child);
    summarise(readdirSync(directory).map((name) => join(directory, name))[0]!, Math.floor(seconds) + 2);
  } finally {
    await stop(server.child);
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Prefixes whose statements --explain shows: short and common, mid, two words, a rare word, the same misspelt (the fuzzy pass). */
const EXPLAINED = ['co', 'inst', 'kube', 'webh', 'install doc', 'deprovisioning', 'deprovisoning', 'qzxv'];

/**
 * --explain: each EXPLAINED text searched in the 100,000-page space as the dialog searches it, with its
 * bound and with the results page's (RESULTS_BOUND): each statement's execution time and the scans of
 * the main one (the whole plans in bench/results/); then, for every prefix of the rounds' words, how
 * many of the eight first results the two bounds share.
 */
async function explainTyping(world: World, many: ManyPages) {
  const scope = { kind: 'spaces' as const, spaces: [{ organizationId: many.organizationId, spaceId: many.spaceId }], publishedOnly: true };
  const window = { offset: 0, limit: DIALOG_RESULTS };
  const plans: ExplainedStatement[] = [];
  const explained = createDatabase(explainingPool(world.pool, plans));
  // `--bound SECTIONS/TITLES`: another dialog bound, to compare.
  const asked = args.includes('--bound') ? args[args.indexOf('--bound') + 1]!.split('/').map(Number) : undefined;
  const dialogBound = asked ? { ...DIALOG_BOUND, sections: asked[0]!, titles: asked[1]! } : DIALOG_BOUND;
  const bounds = [
    ['dialog', dialogBound],
    ['results page', RESULTS_BOUND],
  ] as const;
  const report: string[] = [];
  console.log(`EXPLAIN (ANALYZE, BUFFERS) of the dialog's search, 100,000 pages (load average ${loadavg().map((value) => value.toFixed(1)).join(', ')}):`);
  // `--texts a,b`: other texts than EXPLAINED.
  const texts = args.includes('--texts') ? args[args.indexOf('--texts') + 1]!.split(',') : EXPLAINED;
  for (const text of texts) {
    for (const [label, bound] of bounds) {
      plans.length = 0;
      const found = await searchPages(explained, scope, text, window, undefined, bound);
      const times = plans.map((statement) => `${statement.executionMs.toFixed(1)}`).join(' + ');
      console.log(`  "${text}", ${label} bound (${bound.sections} sections, ${bound.titles} titles): ${found.mode}, total ${found.total}${found.totalIsLowerBound ? '+' : ''}; statements ${times} ms (execution; planning ${plans.map((statement) => statement.planningMs.toFixed(1)).join(' + ')} ms)`);
      const main = plans.filter((statement) => /search_sections/.test(statement.sql));
      for (const statement of main) {
        for (const planLine of statement.plan) if (/on search_(sections|titles) |Rows Removed by Filter/.test(planLine)) console.log(`      ${planLine.trim().slice(0, 170)}`);
      }
      report.push(`== "${text}", ${label} bound`, ...plans.flatMap((statement) => [statement.sql, ...statement.plan, '']));
    }
  }
  mkdirSync('results', { recursive: true });
  const file = join('results', `explain-typing-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`);
  writeFileSync(file, report.join('\n'));
  console.log(`(the whole plans in bench/${file})`);
  // The eight first results of each bound, for what visitors type in the rounds.
  const prefixes = TYPED.slice(1).flat().flatMap((q) => Array.from({ length: q.length - 1 }, (_, i) => q.slice(0, i + 2)));
  const shared: number[] = [];
  const differing: string[] = [];
  // Results whose page title has every typed word (the last as a prefix): the ranking puts title matches first.
  const titled = { dialog: 0, full: 0, results: 0 };
  for (const text of prefixes) {
    const [dialog, full] = await Promise.all(bounds.map(([, bound]) => searchPages(world.db, scope, text, window, undefined, bound)));
    const key = (page: SearchPageHit) => `${page.pageId}#${page.sections[0]?.id ?? ''}`;
    const fullKeys = new Set(full!.pages.map(key));
    const alike = dialog!.pages.filter((page) => fullKeys.has(key(page))).length;
    const words = text.toLowerCase().split(/\s+/).filter(Boolean);
    const hasWords = (page: SearchPageHit) => words.every((word) => page.title.toLowerCase().includes(word));
    titled.dialog += dialog!.pages.filter(hasWords).length;
    titled.full += full!.pages.filter(hasWords).length;
    titled.results += full!.pages.length;
    shared.push(full!.pages.length === 0 ? 1 : alike / full!.pages.length);
    if (alike < full!.pages.length) differing.push(`"${text}" ${alike}/${full!.pages.length} (dialog: ${dialog!.pages.slice(0, 3).map((page) => page.title).join(', ')}; results page: ${full!.pages.slice(0, 3).map((page) => page.title).join(', ')})`);
  }
  const identical = shared.filter((share) => share === 1).length;
  console.log(
    `\nthe dialog's eight results with its bound against the results page's bound, ${prefixes.length} prefixes: ${identical} the same eight, ` +
      `mean share ${((shared.reduce((sum, share) => sum + share, 0) / shared.length) * 100).toFixed(0)}%; ` +
      `results whose title has the typed words: ${titled.dialog} with the dialog's bound, ${titled.full} with the results page's (of ${titled.results})`,
  );
  for (const line of differing.slice(0, 12)) console.log(`  ${line}`);
  if (differing.length > 12) console.log(`  … and ${differing.length - 12} more`);
}

/** What the dialog of site `siteId` asks while a visitor types `words`: each prefix of two letters or more. */
const typingPaths = (siteId: string, words: string[]) =>
  words.flatMap((q) => Array.from({ length: q.length - 1 }, (_, i) => q.slice(0, i + 2))).map((q) => `/s/${siteId}/_search?q=${encodeURIComponent(q)}`);

/** Each path requested in turn, three times over (one visitor typing): latency p50 and p95 in ms, of the first pass and of all. */
async function typingLatency(url: string, paths: string[]): Promise<TypingLatency> {
  const times: number[][] = [];
  for (let pass = 0; pass < 3; pass++) {
    const passTimes: number[] = [];
    for (const path of paths) {
      const started = performance.now();
      const answer = await fetch(`${url}${path}`);
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`the site's JSON search answered ${answer.status} for ${path}`);
      passTimes.push(performance.now() - started);
    }
    times.push(passTimes);
  }
  const quantiles = (values: number[]): Quantiles => {
    const sorted = [...values].sort((a, b) => a - b);
    return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
  };
  const slowest = paths
    .map((path, i) => ({ q: new URL(path, 'http://x').searchParams.get('q')!, ms: times[0]![i]! }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map(({ q, ms }) => `${q} ${ms.toFixed(0)}`)
    .join(', ');
  return { first: quantiles(times[0]!), all: quantiles(times.flat()), slowest };
}

type ManyPages = { siteId: string; organizationId: string; spaceId: string; pages: SqlPage[] };

/**
 * The sites of a world: `seed` them, or read them from the kept folder's `sites.json` when the world was
 * reused from it (and written there once seeded).
 */
async function keptSites<T>(world: { reused: boolean }, seed: () => Promise<T>): Promise<T> {
  const file = DATA_DIR ? join(DATA_DIR, TYPING_ONLY ? 'typing' : 'full', 'sites.json') : undefined;
  if (file && world.reused && existsSync(file)) {
    console.log(`reusing the worlds kept in ${dirname(file)}`);
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  }
  if (world.reused) throw new Error(`the world kept in ${DATA_DIR} has no sites.json: remove the folder to seed it again`);
  const seeded = await seed();
  if (file) writeFileSync(file, JSON.stringify(seeded));
  return seeded;
}

/**
 * `--typing`: the search-as-you-type step alone (see the file's header): the 100,000-page site, one
 * server (and REV's with --against), ROUNDS rounds of new words, each typed one request at a time
 * (first pass p50/p95) then at 16 connections; with REV, each side takes each round's words new to it.
 */
async function measureTypingOnly() {
  const world = await seedTenThousandPages({ pages: 0, ...(DATA_DIR ? { keepIn: join(DATA_DIR, 'typing') } : {}) });
  const app = { ...world.app, db: world.db } as unknown as AppContext;
  const caller = { user: { id: world.user.id } } as unknown as Caller;
  const servers: Array<{ label: string; child: ChildProcess; url: string }> = [];
  try {
    const { many } = await keptSites(world, async () => ({ many: await seedManyPages(app, caller, world) }));
    if (EXPLAIN) return await explainTyping(world, many);
    if (PROFILE) return await profileTyping(world.url, many);
    const sides: Array<{ label: string; script: string }> = [{ label: 'this tree', script: 'api/full-server.ts' }];
    if (AGAINST) {
      const { commit, dir } = await checkoutCommit(AGAINST);
      sides.unshift({ label: commit.slice(0, 7), script: join(dir, 'bench/api/full-server.ts') });
    }
    for (const side of sides) {
      const started = await startScript(side.script, 0, { DATABASE_URL: world.url, RATE_LIMIT_ENABLED: 'false' });
      servers.push({ label: side.label, child: started.child, url: `http://127.0.0.1:${started.port}` });
    }
    const load = (url: string, paths: string[], seconds = SECONDS) => runScript<LoadResult>('api/load.ts', 1, { url, paths, tokens: [], connections: 16, seconds, sequential: false });
    // Warm-up of each server: the site model, the JIT, on the warm-up's words only.
    for (const server of servers) {
      await checkManyPages(server.url, many);
      await load(server.url, typingPaths(many.siteId, TYPED[0]!), 3);
    }
    const results = new Map<string, Array<{ latency: TypingLatency; typing: LoadResult }>>(servers.map((server) => [server.label, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      // Both sides answer the same words, each new to it (their caches are their own); the order turns.
      const typed = typingPaths(many.siteId, TYPED[1 + ((round - 1) % (TYPED.length - 1))]!);
      for (const server of round % 2 === 0 ? [...servers].reverse() : servers) {
        const latency = await typingLatency(server.url, typed);
        const typing = await load(server.url, typed);
        results.get(server.label)!.push({ latency, typing });
        console.log(
          `round ${round}, ${server.label}: first pass p50 ${latency.first.p50.toFixed(1)} ms, p95 ${latency.first.p95.toFixed(1)} ms; all three passes p50 ${latency.all.p50.toFixed(1)} ms, ` +
            `p95 ${latency.all.p95.toFixed(1)} ms (${typed.length} prefixes × 3; slowest first: ${latency.slowest}); 16 connections ${typing.requestsPerSecond.toFixed(0)} req/s (p50 ${typing.p50} ms, p99 ${typing.p99} ms)` +
            (typing.non2xx + typing.errors ? ` · NON-2XX/ERRORS ${typing.non2xx}/${typing.errors}` : '') +
            `; load average ${loadavg().map((value) => value.toFixed(1)).join(', ')}`,
        );
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    for (const [label, rounds] of results) {
      console.log(
        `
search as you type, 100,000 pages, ${label}: first pass p95 median ${median(rounds.map((r) => r.latency.first.p95)).toFixed(1)} ms (p50 ${median(rounds.map((r) => r.latency.first.p50)).toFixed(1)} ms; budget 30), ` +
          `16 connections ${median(rounds.map((r) => r.typing.requestsPerSecond)).toFixed(0)} req/s (p50 ${median(rounds.map((r) => r.typing.p50))} ms, p99 ${median(rounds.map((r) => r.typing.p99))} ms); ` +
          `load average ${loadavg().map((value) => value.toFixed(1)).join(', ')}`,
      );
    }
  } finally {
    for (const server of servers) await stop(server.child);
    await world.stop();
  }
}

/** The 100,000-page space (100 chapters of 999 topics) written in SQL, checked, and a second site publishing it. */
async function seedManyPages(app: AppContext, caller: Caller, world: Awaited<ReturnType<typeof seedTenThousandPages>>): Promise<ManyPages> {
  const { db, organizationId, user } = world;
  console.log('seeding a 100,000-page space in SQL …');
  const empty = await createSpace(db, { organizationId, creatorId: user.id, parentId: null, body: { title: 'Hundred thousand pages' } });
  const seeded = await seedPagesInSql(db, organizationId, empty, user.id, { chapters: 100, topics: 999, log: (text) => console.log(`  ${text}`) });
  await checkSeededPages(db, organizationId, empty.id, seeded.pages.filter((_, i) => i % 4999 === 0).map((page) => page.id));
  const siteId = await createSite(app, caller, organizationId, { title: 'Search bench docs', spaces: [empty.id] }, new Map([[empty.id, seeded.space]]));
  await setPublished(app, organizationId, siteId, true);
  console.log(`  ${seeded.pages.length} pages in ${(seeded.seededInMs / 1000).toFixed(0)} s, 21 sampled pages indexed as the server indexes them; site ${siteId} published`);
  return { siteId, organizationId, spaceId: empty.id, pages: seeded.pages };
}

/** A few of the 100,000 pages read through the server, and each found by its title through the dialog's search. */
async function checkManyPages(url: string, many: ManyPages): Promise<void> {
  for (const page of [many.pages[1]!, many.pages[50_000]!, many.pages.at(-1)!]) {
    const read = await fetch(`${url}/s/${many.siteId}/${page.path}`);
    const html = await read.text();
    if (read.status !== 200 || !html.includes(page.title)) throw new Error(`the 100,000-page site answered ${read.status} for ${page.path}`);
    const found = await fetch(`${url}/s/${many.siteId}/_search?q=${encodeURIComponent(`"${page.title}"`)}`);
    const answer = (await found.json()) as { total: number; results: Array<{ href: string }> };
    if (found.status !== 200 || answer.total === 0) throw new Error(`the 100,000-page site's search found nothing for "${page.title}" (${found.status})`);
  }
  console.log('100,000-page site: 3 pages read and searched by their titles through the server');
}

/** The cached view under a CPU profile (see --profile above). */
async function profileCached(url: string, siteId: string, world: Awaited<ReturnType<typeof seedTenThousandPages>>) {
  const directory = mkdtempSync(join(tmpdir(), 'cw-sites-profile-'));
  const server = await startScript('api/full-server.ts', 0, { DATABASE_URL: url, RATE_LIMIT_ENABLED: 'false' }, ['--cpu-prof', `--cpu-prof-dir=${directory}`]);
  try {
    const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    const paths = world.children.slice(0, 200).map((child, index) => {
      const t = world.tops.indexOf(child.parent);
      return `/s/${siteId}/${slug(`Chapter ${t}`)}/${slug(`Topic ${t}.${index % 99}`)}`;
    });
    const load = (seconds: number) => runScript<LoadResult>('api/load.ts', 1, { url: `http://127.0.0.1:${server.port}`, paths, tokens: [], connections: 16, seconds, sequential: false });
    await load(5);
    const result = await load(SECONDS);
    console.log(`cached page view (profiled, slower than unprofiled): ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, non-2xx ${result.non2xx}`);
    await stop(server.child);
    const file = readdirSync(directory).map((name) => join(directory, name))[0]!;
    summarise(file, SECONDS);
    mkdirSync('results', { recursive: true });
    const kept = join('results', `profile-sites-cached-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
    renameSync(file, kept);
    console.log(`\n(profile in bench/${kept})`);
  } finally {
    await stop(server.child);
    rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
