// Search figures (docs/design/budgets.md, issue 16): 100,000 pages over 1,000 spaces of 10 organizations, each
// page a few sections of text drawn from a Zipf-distributed vocabulary (a few very common words, a long
// tail of rare ones). Queries in space and organization scope, for a rare word, a common word, a
// type-ahead prefix and a misspelt word (the fuzzy pass), each timed through the search service the
// handlers call, p95 against the 50 ms budget; the index's size; and what indexing adds to a one-page
// edit (the same edits written through the engine with and without the search hook).
//
// Then the same searches over HTTP (the full server, one organization's reader) against the bare
// primary-key handler in the same run: requests/s, p50 and p99 at CONNECTIONS connections.
//
//   pnpm bench search          SPACES_PER_ORG=100 PAGES_PER_SPACE=100 RUNS=200 CONNECTIONS=4 SECONDS=10 (defaults)
//
// SEARCH_BENCH_DATA=/some/dir keeps the seeded database there and reuses it on the next runs (the
// seed takes minutes; migrations added since are applied to it); SERVICE_ONLY=1 stops after the
// service calls (no HTTP, no edits); SCENARIOS=organization,misspelt runs only the scenarios whose
// names contain every one of the words.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { CamelCasePlugin, Kysely, PostgresDialect, sql } from 'kysely';
import { loadConfig } from '../packages/server/src/config.js';
import { createCaches } from '../packages/server/src/caches.js';
import { postgresBlobStore } from '../packages/server/src/content/blob-store.js';
import { insertSections, type SectionRow } from '../packages/server/src/content/search/index.repository.js';
import { fallbackText } from '../packages/server/src/content/search/text-analysis.js';
import { searchPages, searchSpaces, type SearchScope } from '../packages/server/src/content/search/search.js';
import { createDatabase, createPool, type Database } from '../packages/server/src/db/database.js';
import type { DB } from '../packages/server/src/db/schema.js';
import { insertMember, insertOrganization } from '../packages/server/src/areas/organizations/organizations.repository.js';
import { updateSpace } from '../packages/server/src/areas/spaces/spaces.repository.js';
import { insertUser } from '../packages/server/src/auth/users.repository.js';
import { memberViewer } from '../packages/server/src/access/items.js';
import { readableSpacesOf } from '../packages/server/src/areas/search/search-scope.js';
import { newId } from '../packages/server/src/ids.js';
import { createLogger } from '../packages/server/src/logger.js';
import { ParsePool } from '../packages/server/src/parsing/parse-pool.js';
import { applyChanges } from '../packages/server/src/content/apply-changes.js';
import { moveHeadIndex } from '../packages/server/src/content/head-index.js';
import { writeRevision } from '../packages/server/src/content/revision-writer.js';
import { spaceHeadPointer } from '../packages/server/src/content/space-head.js';
import { applySpaceChanges } from '../packages/server/src/areas/content/space-content.service.js';
import { SYSTEM_ACTOR } from '../packages/server/src/areas/events/index.js';
import { createUrls } from '../packages/server/src/urls.js';
import { createSpace } from '../packages/server/src/areas/spaces/spaces.service.js';
import { hashToken, newTokenSecret } from '../packages/server/src/auth/tokens.js';
import { canPin, pin } from './lib/cpus.js';
import { startBenchDatabase } from './lib/database.js';
import { runScript, startScript, stop } from './lib/processes.js';

const ORGS = Number(process.env.ORGS ?? 10);
const SPACES_PER_ORG = Number(process.env.SPACES_PER_ORG ?? 100);
const PAGES_PER_SPACE = Number(process.env.PAGES_PER_SPACE ?? 100);
const RUNS = Number(process.env.RUNS ?? 200);
const EDITS = Number(process.env.EDITS ?? 50);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 4);
const SECONDS = Number(process.env.SECONDS ?? 10);
const BUDGET_MS = 50;
const DATA_DIR = process.env.SEARCH_BENCH_DATA;
const SERVICE_ONLY = process.env.SERVICE_ONLY === '1';
const SCENARIO_FILTER = process.env.SCENARIOS?.split(',').map((word) => word.trim()).filter(Boolean);

type Seeded = { orgs: Array<{ id: string; spaces: string[]; readerId: string }>; rare: Array<{ org: number; space: string; word: string }> };

// ---- Synthetic text: a Zipf vocabulary of made-up words over a handful of real ones ----

let randomState = 42;
const random = () => {
  randomState = (Math.imul(randomState ^ (randomState >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
  return randomState / 2 ** 32;
};
const SYLLABLES = 'ka lo mi ren sa tor vel qui dan bro ste pha nix gul ter ow am ix ul zen cor lat mun pre sic'.split(' ');
const COMMON = 'server install configure space page content search index query user token change request merge revision file link'.split(' ');
const FILLER = 'the of and to in is that it for on with as by this be are from or at'.split(' ');
const VOCABULARY = [
  ...COMMON,
  ...Array.from({ length: 30_000 }, (_, i) => {
    let word = '';
    for (let n = 2 + (i % 3); n > 0; n--) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    return `${word}${i % 7 === 0 ? 'ing' : ''}`;
  }),
];
// Zipf(1.05) over the vocabulary by inverse CDF on precomputed weights.
const weights = VOCABULARY.map((_, rank) => 1 / (rank + 1) ** 1.05);
const cumulative: number[] = [];
weights.reduce((sum, weight, i) => (cumulative[i] = sum + weight), 0);
const total = cumulative.at(-1)!;
function word(): string {
  if (random() < 0.35) return FILLER[Math.floor(random() * FILLER.length)]!;
  const target = random() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo]!;
}
const words = (n: number) => Array.from({ length: n }, word).join(' ');
const title = () => words(2 + Math.floor(random() * 4)).replace(/^\w/, (c) => c.toUpperCase());

/** A page body: a lead paragraph and 2–6 sections of 1–3 paragraphs (~60–400 words each). */
function markdown(): string {
  const parts = [words(30 + Math.floor(random() * 60))];
  for (let s = 2 + Math.floor(random() * 5); s > 0; s--) {
    parts.push(`## ${title()}`);
    for (let p = 1 + Math.floor(random() * 3); p > 0; p--) parts.push(words(40 + Math.floor(random() * 100)) + '.');
  }
  return parts.join('\n\n');
}

/**
 * A page's rows as the index writes them, built from the same kind of text without a markdown round
 * trip (parsing 100,000 bodies would make the seed, not the index, the slow part): section 0 with the
 * title, description and lead paragraph, then 2–6 sections of 1–3 paragraphs under a heading.
 */
function pageSectionRows(path: string, rareWord: string | undefined): SectionRow[] {
  const pageId = newId();
  const pageTitle = title();
  const description = words(8);
  const sections: Array<{ head: string; text: string }> = [{ head: pageTitle, text: words(30 + Math.floor(random() * 60)) }];
  for (let s = 2 + Math.floor(random() * 5); s > 0; s--) {
    const paragraphs = Array.from({ length: 1 + Math.floor(random() * 3) }, () => words(40 + Math.floor(random() * 100)) + '.');
    sections.push({ head: title(), text: paragraphs.join('\n') });
  }
  if (rareWord) sections.at(-1)!.text += `\nUnique marker ${rareWord}.`;
  return sections.map(({ head, text }, ordinal): SectionRow => {
    const first = ordinal === 0;
    const rest = first ? `${description}\n${text}` : text;
    return {
      pageId,
      ordinal,
      documentHash: null,
      sectionId: first ? pageId : head.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      sectionTitle: head,
      pageTitle,
      pagePath: path,
      hidden: false,
      noIndex: false,
      body: rest,
      head,
      headWeight: first ? 'A' : 'B',
      description: first ? description : '',
      text,
      headFallback: fallbackText(head),
      fallback: fallbackText(rest),
    };
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Organizations, spaces and their search rows, written in bulk with the index's own SQL. */
async function seed(db: Database): Promise<Seeded> {
  const started = performance.now();
  // The search tables' secondary indexes (whatever the migrations made) are built once after the rows.
  const { rows: indexes } = await sql<{ indexname: string; indexdef: string }>`
    SELECT i.indexname, i.indexdef FROM pg_indexes i
    WHERE i.tablename IN ('search_sections', 'search_titles', 'search_words')
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`.execute(db);
  for (const index of indexes) await sql`DROP INDEX ${sql.id(index.indexname)}`.execute(db);
  const orgs: Array<{ id: string; spaces: string[]; readerId: string }> = [];
  const rare: Array<{ org: number; space: string; word: string }> = [];
  let seededSpaces = 0;
  // Organizations are seeded three at a time (three connections of the pool).
  const seedOrganization = async (o: number) => {
    const admin = await insertUser(db, { email: `admin${o}@example.com`, displayName: `Admin ${o}` });
    const reader = await insertUser(db, { email: `reader${o}@example.com`, displayName: `Reader ${o}` });
    const organization = await insertOrganization(db, { title: `Organization ${o}` });
    await insertMember(db, { organizationId: organization.id, userId: admin.id, role: 'admin' });
    await insertMember(db, { organizationId: organization.id, userId: reader.id, role: 'read' });
    const spaces: string[] = [];
    for (let s = 0; s < SPACES_PER_ORG; s++) {
      const space = await createSpace(db, { organizationId: organization.id, creatorId: admin.id, parentId: null, body: { title: `Space ${o}.${s}` } });
      // One space in ten is closed to members without a grant: the reader's search must skip it.
      if (s % 10 === 9) await updateSpace(db, organization.id, space.id, { defaultLevel: null });
      spaces.push(space.id);
      const rows = Array.from({ length: PAGES_PER_SPACE }, (_, p) => {
        const extra = p % 10 === 3 && s % 10 === 1 ? `zorblax${o}q${s}` : undefined;
        if (extra) rare.push({ org: o, space: space.id, word: extra });
        return pageSectionRows(`page-${p}`, extra);
      }).flat();
      await insertSections(db, organization.id, space.id, rows);
      await sql`INSERT INTO search_index_heads (organization_id, space_id, pages_root) VALUES (${organization.id}, ${space.id}, NULL)`.execute(db);
      if (++seededSpaces % 50 === 0) process.stdout.write(`\rseeded ${seededSpaces} spaces`);
    }
    orgs[o] = { id: organization.id, spaces, readerId: reader.id };
  };
  let nextOrg = 0;
  await Promise.all(Array.from({ length: 3 }, async () => {
    while (nextOrg < ORGS) await seedOrganization(nextOrg++);
  }));
  for (const index of indexes) await sql.raw(index.indexdef).execute(db);
  await sql`VACUUM ANALYZE`.execute(db);
  const { rows: counts } = await sql<{ sections: number; pages: number }>`SELECT count(*)::int AS sections, count(DISTINCT page_id)::int AS pages FROM search_sections`.execute(db);
  console.log(`\nseeded ${counts[0]!.pages} pages (${counts[0]!.sections} sections) in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { orgs, rare };

}

async function main() {
  const log = createLogger({ logLevel: 'warn' });
  const database = await startBenchDatabase(DATA_DIR ? { keepIn: DATA_DIR } : {});
  const statePath = DATA_DIR ? join(DATA_DIR, 'state.json') : undefined;
  const pool = createPool(database.url, 4, log);
  const db = createDatabase(pool);
  const parsing = new ParsePool();
  // The database on one core, this process (the queries' client) on the other; PIN=0 leaves them to
  // the scheduler (on a machine shared with other work, pinning only halves the share each gets).
  if (process.env.PIN !== '0') {
    const postmaster = database.postmasterPid();
    if (postmaster) pin(postmaster, 1);
    pin(process.pid, 0);
  }
  try {
    // ---- Seed: organizations, spaces, and their search rows (the index's own SQL, in bulk) ----
    let seeded: Seeded;
    if (statePath && existsSync(statePath)) {
      seeded = JSON.parse(readFileSync(statePath, 'utf8')) as Seeded;
      console.log(`reusing the database seeded in ${DATA_DIR}`);
    } else {
      seeded = await seed(db);
      if (statePath) writeFileSync(statePath, JSON.stringify(seeded));
    }
    const { orgs, rare } = seeded;
    randomState = 4242; // the same picks whether the database was seeded now or before

    // ---- Queries ----
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
    const commonWord = COMMON[0]!; // "server": in most pages
    const { rows: frequency } = await pool.query(
      `SELECT (SELECT count(*) FROM search_sections WHERE tsv @@ to_tsquery('cw_english', $1))::int AS common,
              (SELECT count(*) FROM search_sections WHERE tsv @@ to_tsquery('cw_english', $2))::int AS rare`,
      [commonWord, rare[0]!.word],
    );
    console.log(`"${commonWord}" is in ${frequency[0].common} sections; each rare word in ~${frequency[0].rare}`);
    const midWord = VOCABULARY[800]!; // a mid-frequency made-up word, to misspell and to type the start of
    const misspelt = midWord.length > 4 ? `${midWord.slice(0, 2)}${midWord[3]}${midWord[2]}${midWord.slice(4)}` : `${midWord}x`;
    console.log(`misspelt "${midWord}" as "${misspelt}"; prefix "${midWord.slice(0, 5)}"`);

    const organizationScopes = await Promise.all(orgs.map(async (org) => readableSpacesOf((await memberViewer({ db, caches: createCaches() }, org.id, org.readerId))!)));
    const spaceScope = (): SearchScope => {
      const org = pick(orgs);
      return { kind: 'spaces', spaces: [{ organizationId: org.id, spaceId: pick(org.spaces) }] };
    };
    const window = { offset: 0, limit: 20 };
    const allScenarios: Array<{ name: string; run: (d: Database) => Promise<number> }> = [
      { name: 'space, rare word', run: async (d) => { const r = pick(rare); return (await searchPages(d, { kind: 'spaces', spaces: [{ organizationId: orgs[r.org]!.id, spaceId: r.space }] }, r.word, window)).total; } },
      { name: 'space, common word', run: async (d) => (await searchPages(d, spaceScope(), commonWord, window)).total },
      { name: 'space, two words', run: async (d) => (await searchPages(d, spaceScope(), `${commonWord} ${COMMON[3]}`, window)).total },
      { name: 'space, type-ahead prefix', run: async (d) => (await searchPages(d, spaceScope(), midWord.slice(0, 5), window)).total },
      { name: 'space, misspelt word', run: async (d) => (await searchPages(d, spaceScope(), `${misspelt} `, window)).total },
      { name: 'organization, rare word', run: async (d) => { const r = pick(rare); return (await searchSpaces(d, organizationScopes[r.org]!, r.word, window)).total; } },
      { name: 'organization, common word', run: async (d) => (await searchSpaces(d, pick(organizationScopes), commonWord, window)).total },
      { name: 'organization, misspelt word', run: async (d) => (await searchSpaces(d, pick(organizationScopes), `${misspelt} `, window)).total },
    ];
    const scenarios = allScenarios.filter((scenario) => !SCENARIO_FILTER || SCENARIO_FILTER.every((word) => scenario.name.includes(word)));
    if (process.env.EXPLAIN === '1') {
      // The plans of each scenario's statements (EXPLAIN=1): the queries as the search sends them,
      // captured through Kysely's log, then explained with their parameters; nothing else is measured.
      for (const scenario of scenarios) {
        const captured: Array<{ sql: string; parameters: readonly unknown[] }> = [];
        const logged = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()], log: (event) => void captured.push(event.query) });
        await scenario.run(logged);
        console.log(`\n---- ${scenario.name}`);
        for (const query of captured.filter((q) => !/set_config|^\s*(begin|commit|rollback)\b/i.test(q.sql))) {
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            await client.query(`SELECT set_config('pg_trgm.similarity_threshold', '0.2', true)`);
            const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`, query.parameters as unknown[]);
            console.log(rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n'));
          } finally {
            await client.query('ROLLBACK');
            client.release();
          }
        }
      }
      return;
    }
    const verdicts: string[] = [];
    for (const scenario of scenarios) {
      for (let i = 0; i < 10; i++) await scenario.run(db); // warm-up
      const timings: number[] = [];
      let found = 0;
      for (let i = 0; i < RUNS; i++) {
        const begin = performance.now();
        found += await scenario.run(db);
        timings.push(performance.now() - begin);
      }
      timings.sort((a, b) => a - b);
      const p95 = quantile(timings, 0.95);
      verdicts.push(
        `${scenario.name.padEnd(30)} p50 ${ms(quantile(timings, 0.5)).padStart(8)}  p95 ${ms(p95).padStart(8)}  max ${ms(timings.at(-1)!).padStart(8)}  ` +
          `(avg ${(found / RUNS).toFixed(0)} matches) ${p95 < BUDGET_MS ? 'met' : 'MISSED'}`,
      );
      console.log(verdicts.at(-1));
    }
    if (SERVICE_ONLY) {
      console.log(`\n== Search (budget p95 < ${BUDGET_MS} ms; load average ${loadavg().map((value) => value.toFixed(1)).join(', ')})\n${verdicts.join('\n')}`);
      return;
    }

    const { rows: widths } = await pool.query(
      `SELECT avg(pg_column_size(tsv))::int AS tsv, avg(octet_length(tsv::text))::int AS tsv_text, avg(pg_column_size(body))::int AS body, avg(octet_length(body))::int AS body_text FROM search_sections`,
    );
    console.log(`average stored (raw) bytes per section: tsv ${widths[0].tsv} (${widths[0].tsv_text} as text), body ${widths[0].body} (${widths[0].body_text})`);
    const size = async (relation: string) => Number((await pool.query(`SELECT pg_total_relation_size($1) AS bytes`, [relation])).rows[0].bytes);
    const indexSize = async (relation: string) => Number((await pool.query(`SELECT pg_relation_size($1) AS bytes`, [relation])).rows[0].bytes);
    console.log(
      `index: search_sections ${mb(await size('search_sections'))} in all (GIN ${mb(await indexSize('search_sections_tsv_idx'))}), ` +
        `search_words ${mb(await size('search_words'))} (${(await pool.query('SELECT count(*)::int AS n FROM search_words')).rows[0].n} words)`,
    );

    // ---- Over HTTP: organization 0's reader through the full server, against the bare handler ----
    type LoadResult = { requestsPerSecond: number; p50: number; p99: number; total: number; non2xx: number; errors: number };
    const org0 = orgs[0]!;
    const secret = newTokenSecret();
    await sql`INSERT INTO api_tokens (id, user_id, label, token_hash) VALUES (${newId()}, ${org0.readerId}, 'bench', ${hashToken(secret)})`.execute(db);
    const here = dirname(fileURLToPath(import.meta.url));
    // Rate limits off: one token sends every request (the limits are measured by the api benchmark).
    const full = await startScript(join(here, 'api/full-server.ts'), 0, { DATABASE_URL: database.url, RATE_LIMIT_ENABLED: 'false' });
    const bare = await startScript(join(here, 'api/bare-server.ts'), 0, { DATABASE_URL: database.url, ORGANIZATION_ID: org0.id });
    const httpLines: string[] = [];
    try {
      const readable = org0.spaces.filter((_, s) => s % 10 !== 9);
      const q = (text: string) => encodeURIComponent(text);
      const rare0 = rare.filter((r) => r.org === 0);
      const httpScenarios: Array<{ name: string; url: string; paths: string[]; tokens: string[] }> = [
        { name: 'bare primary-key handler', url: `http://127.0.0.1:${bare.port}`, paths: org0.spaces.map((id) => `/bare/spaces/${id}`), tokens: [] },
        { name: 'space, rare word', url: '', paths: rare0.map((r) => `/v1/spaces/${r.space}/search?query=${q(r.word)}&limit=20`), tokens: [secret] },
        { name: 'space, common word', url: '', paths: readable.map((id) => `/v1/spaces/${id}/search?query=${q(commonWord)}&limit=20`), tokens: [secret] },
        { name: 'space, misspelt word', url: '', paths: readable.map((id) => `/v1/spaces/${id}/search?query=${q(`${misspelt} `)}&limit=20`), tokens: [secret] },
        { name: 'organization, rare word', url: '', paths: rare0.map((r) => `/v1/orgs/${org0.id}/search?query=${q(r.word)}&limit=20`), tokens: [secret] },
        { name: 'organization, common word', url: '', paths: [`/v1/orgs/${org0.id}/search?query=${q(commonWord)}&limit=20`], tokens: [secret] },
        { name: 'organization, misspelt word', url: '', paths: [`/v1/orgs/${org0.id}/search?query=${q(`${misspelt} `)}&limit=20`], tokens: [secret] },
      ];
      let baseline = 0;
      for (const scenario of httpScenarios) {
        const url = scenario.url || `http://127.0.0.1:${full.port}`;
        const args = { url, paths: scenario.paths, tokens: scenario.tokens, connections: CONNECTIONS };
        await runScript<LoadResult>(join(here, 'api/load.ts'), 1, { ...args, seconds: 2 }); // warm-up
        const result = await runScript<LoadResult>(join(here, 'api/load.ts'), 1, { ...args, seconds: SECONDS });
        if (!baseline) baseline = result.requestsPerSecond;
        httpLines.push(
          `${scenario.name.padEnd(30)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s (${((result.requestsPerSecond / baseline) * 100).toFixed(0).padStart(3)}% of bare)` +
            `  p50 ${String(result.p50).padStart(4)} ms  p99 ${String(result.p99).padStart(4)} ms` +
            (result.non2xx + result.errors ? `  NON-2XX/ERRORS ${result.non2xx}/${result.errors}` : ''),
        );
        console.log(httpLines.at(-1));
      }
    } finally {
      await stop(full.child);
      await stop(bare.child);
    }

    // ---- What indexing adds to a one-page edit: a 1,000-page space, the same edits with and without the hook ----
    const org = orgs[0]!;
    const adminId = (await pool.query(`SELECT user_id FROM organization_members WHERE organization_id = $1 AND role = 'admin'`, [org.id])).rows[0].user_id as string;
    const config = loadConfig({});
    const app = { db, config, parsing, urls: createUrls(config), caches: createCaches(), blobs: postgresBlobStore };
    // Two like spaces, one edited with the hook and one without, edits alternating so drift hits both alike.
    const seedSpace = async (name: string) => {
      let space = await createSpace(db, { organizationId: org.id, creatorId: adminId, parentId: null, body: { title: name } });
      const pageIds: string[] = [];
      for (let b = 0; b < 20; b++) {
        const applied = await applySpaceChanges(app, space, adminId, Array.from({ length: 50 }, (_, i) => ({ type: 'insert_page' as const, title: title(), markdown: markdown(), ref: `p${i}` })), { actor: SYSTEM_ACTOR });
        space = applied.space;
        for (let i = 0; i < 50; i++) pageIds.push(applied.refs[`p${i}`]!);
      }
      return { space, pageIds };
    };
    const spaces = { with: await seedSpace('With search'), without: await seedSpace('Without search') };
    const edit = async (which: 'with' | 'without', i: number) => {
      const subject = spaces[which];
      const pointer = spaceHeadPointer(subject.space);
      const { organizationId, id } = subject.space;
      const target = which === 'with' ? pointer : { ...pointer, afterMove: async (trx: never, before: never, after: never) => void (await moveHeadIndex(trx, organizationId, id, before, after)) };
      const changes = [{ type: 'update_page' as const, page: subject.pageIds[(i * 7919) % subject.pageIds.length]!, markdown: markdown() }];
      const begin = performance.now();
      const written = await writeRevision(app, target, (base, now) => applyChanges(base, changes, { now: now.toISOString(), files: new Map(), newId }), { type: 'edits', createdBy: adminId, parsing: { pool: parsing } });
      subject.space = written.moved;
      return performance.now() - begin;
    };
    const timed = { with: [] as number[], without: [] as number[] };
    for (let i = 0; i < EDITS; i++) {
      timed.with.push(await edit('with', i));
      timed.without.push(await edit('without', i));
    }
    timed.with.sort((a, b) => a - b);
    timed.without.sort((a, b) => a - b);
    console.log(
      `one-page edit, 1,000-page space (${EDITS} each): with search indexing median ${ms(quantile(timed.with, 0.5))} p95 ${ms(quantile(timed.with, 0.95))}; ` +
        `without median ${ms(quantile(timed.without, 0.5))} p95 ${ms(quantile(timed.without, 0.95))}; added ≈ ${ms(quantile(timed.with, 0.5) - quantile(timed.without, 0.5))} (median)`,
    );
    const load = loadavg().map((value) => value.toFixed(1)).join(', ');
    console.log(`\n== Search (budget p95 < ${BUDGET_MS} ms; load average ${load}; pinning ${canPin && process.env.PIN !== '0' ? 'on' : 'off'})\n${verdicts.join('\n')}`);
    console.log(`\n== Search over HTTP (${CONNECTIONS} connections, ${SECONDS} s each, organization 0's reader)\n${httpLines.join('\n')}`);
  } finally {
    await parsing.close();
    await db.destroy();
    await database.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
