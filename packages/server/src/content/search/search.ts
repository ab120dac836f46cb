// Searching the index (design/content-model.md §8): sections matching the query within a scope of
// spaces (one space, a list of (organization, space) pairs, or every space of an organization the
// caller reads, listed in bulk by the access expression before the search statement), ranked with the title first (weights A title, B heading, C description,
// D body), grouped by page — a page scores its best section, and a title match puts it before the
// others — and, for an organization, by space. One statement answers the total and the window asked
// for; snippets are built for the returned sections only. When nothing matches, a fuzzy pass widens
// each word to the organization's closest words (typos).
import { sql, type RawBuilder } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { hasPositiveTerm, parseQuery } from './query-parser.js';
import { canBeFuzzy, tsqueryOf } from './query-sql.js';
import { lexemesOf, snippet } from './snippet.js';

/** Matching sections considered per query: bounds the ranking work of very common words. */
export const MAX_MATCHED_SECTIONS = 2_000;
export const SECTIONS_PER_PAGE = 5;
export const PAGES_PER_SPACE = 5;
/** Trigram similarity a word needs to stand in for a misspelt one (pg_trgm's default 0.3 misses "serach"). */
const TYPO_SIMILARITY = 0.2;

export type SearchScope =
  /** These spaces (deleted ones are skipped); `publishedOnly` leaves out hidden and no-index pages. */
  | { kind: 'spaces'; spaces: Array<{ organizationId: string; spaceId: string }>; publishedOnly?: boolean }
  /**
   * Every live space of an organization for which `readable` holds: a condition on the space row `sp`
   * (the caller's access, from the access layer), so that permissions are computed in the statement.
   */
  | { kind: 'organization'; organizationId: string; readable: RawBuilder<boolean> };

export type SearchSectionHit = { id: string; title: string; body: string; ordinal: number };
export type SearchPageHit = { organizationId: string; spaceId: string; pageId: string; title: string; path: string; sections: SearchSectionHit[] };
export type SearchSpaceHit = { organizationId: string; spaceId: string; title: string; pages: SearchPageHit[] };

export type SearchWindow = { offset: number; limit: number };

function scopeQuery(scope: SearchScope, resolved: Resolved): RawBuilder<unknown> {
  if (scope.kind === 'organization') {
    return sql`
      SELECT sp.organization_id, sp.id AS space_id, sp.title FROM spaces sp
      WHERE sp.organization_id = ${scope.organizationId} AND sp.id = ANY(${resolved.spaceIds ?? []}::text[])`;
  }
  return sql`
    SELECT sp.organization_id, sp.id AS space_id, sp.title
    FROM unnest(${scope.spaces.map((s) => s.organizationId)}::text[], ${scope.spaces.map((s) => s.spaceId)}::text[]) AS t(organization_id, space_id)
    JOIN spaces sp ON sp.organization_id = t.organization_id AND sp.id = t.space_id
    WHERE sp.deleted_at IS NULL`;
}

/**
 * Which sections the search reads. Named spaces: their rows by primary key (a space is small). An
 * organization: the spaces the caller reads, as a list of ids known when the statement is planned, so
 * the planner weighs the GIN index (organization first) against reading those spaces' rows by primary
 * key with the true number of spaces: a rare word goes through the index, a very common one through
 * the rows until enough match. (With the readable spaces as a subquery the planner guessed a few
 * spaces and read every row of ninety to find a rare word: ~200 ms at 100,000 pages.)
 */
function candidateFilter(scope: SearchScope, resolved: Resolved): RawBuilder<unknown> {
  if (scope.kind === 'organization') {
    return sql`s.organization_id = ${scope.organizationId} AND s.space_id = ANY(${resolved.spaceIds ?? []}::text[])`;
  }
  // Constants, so that the planner sees how few rows a space has (the scope still drops a deleted one).
  if (scope.spaces.length === 1) {
    return sql`s.organization_id = ${scope.spaces[0]!.organizationId} AND s.space_id = ${scope.spaces[0]!.spaceId} AND EXISTS (SELECT 1 FROM scope)`;
  }
  return sql`(s.organization_id, s.space_id) IN (SELECT sc.organization_id, sc.space_id FROM scope sc)`;
}

const organizationsOf = (scope: SearchScope) =>
  scope.kind === 'organization' ? [scope.organizationId] : [...new Set(scope.spaces.map((s) => s.organizationId))];

type Row = {
  organizationId: string;
  spaceId: string;
  spaceTitle: string;
  pageId: string;
  pageTitle: string;
  pagePath: string;
  ordinal: number;
  sectionId: string;
  sectionTitle: string;
  body: string;
};

/** The matching sections, ranked, as the CTEs both kinds of search start from. */
function matches(scope: SearchScope, tsquery: Resolved): RawBuilder<unknown> {
  const published = scope.kind === 'spaces' && scope.publishedOnly ? sql`AND NOT s.hidden AND NOT s.no_index` : sql``;
  const excluded = tsquery.exclude
    ? sql`WHERE NOT EXISTS (
        SELECT 1 FROM search_sections x, q
        WHERE x.organization_id = h.organization_id AND x.space_id = h.space_id AND x.page_id = h.page_id AND x.tsv @@ q.exclude)`
    : sql``;
  return sql`
    q AS MATERIALIZED (SELECT ${tsquery.match}::tsquery AS query, ${tsquery.exclude}::tsquery AS exclude),
    scope AS MATERIALIZED (${scopeQuery(scope, tsquery)}),
    hits AS MATERIALIZED (
      SELECT s.organization_id, s.space_id, s.page_id, s.ordinal,
        ts_rank('{0.1, 0.2, 0.4, 1.0}', s.tsv, q.query) AS rank,
        (s.ordinal = 0 AND ts_filter(s.tsv, '{a}') @@ q.query) AS title_hit
      FROM q, search_sections s
      WHERE ${candidateFilter(scope, tsquery)} AND s.tsv @@ ${tsquery.match}::tsquery ${published}
      -- The primary key's order: the same sections are ranked for every window of a result (a cursor's
      -- next page ranks what the first did), and a common word is read through that index until enough
      -- match (unordered, the planner chose to scan the table, whose rows mix organizations).
      ORDER BY s.organization_id, s.space_id, s.page_id, s.ordinal
      LIMIT ${MAX_MATCHED_SECTIONS}
    ),
    pages AS MATERIALIZED (
      SELECT organization_id, space_id, page_id, bool_or(title_hit) AS title_hit, max(rank) AS rank
      FROM hits h ${excluded}
      GROUP BY organization_id, space_id, page_id
    ),
    best AS MATERIALIZED (
      SELECT organization_id, space_id, page_id, ordinal, rank FROM (
        SELECT h.organization_id, h.space_id, h.page_id, h.ordinal, h.rank,
          row_number() OVER (PARTITION BY h.organization_id, h.space_id, h.page_id ORDER BY h.rank DESC, h.ordinal) AS n
        FROM hits h
      ) r
      WHERE n <= ${SECTIONS_PER_PAGE}
    )`;
}

/**
 * The best sections of the chosen pages, with their texts: `best` ranks each page's sections once
 * (a window over the hits), so the chosen pages join it by hash instead of scanning every hit per page.
 */
const sectionsOf = (chosen: string) => sql`
  SELECT p.*, sc.title AS space_title, s.ordinal, s.section_id, s.section_title, s.page_title, s.page_path, s.body, b.rank AS section_rank
  FROM ${sql.raw(chosen)} p
  JOIN scope sc ON sc.organization_id = p.organization_id AND sc.space_id = p.space_id
  JOIN best b ON b.organization_id = p.organization_id AND b.space_id = p.space_id AND b.page_id = p.page_id
  JOIN search_sections s
    ON s.organization_id = b.organization_id AND s.space_id = b.space_id AND s.page_id = b.page_id AND s.ordinal = b.ordinal`;

async function run<T>(db: Database, fuzzy: boolean, query: (trx: Executor) => Promise<T>): Promise<T> {
  if (!fuzzy) return query(db);
  return db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('pg_trgm.similarity_threshold', ${String(TYPO_SIMILARITY)}, true)`.execute(trx);
    return query(trx);
  });
}

// The CamelCasePlugin renames the keys inside the aggregated JSON too.
type Answer = { total: number; lexemes: string | null; rows: Row[] | null };

function toPages(rows: Row[], lexemes: string | null): SearchPageHit[] {
  const words = lexemesOf(lexemes ?? '');
  const pages = new Map<string, SearchPageHit>();
  for (const row of rows) {
    const key = `${row.organizationId}/${row.spaceId}/${row.pageId}`;
    let page = pages.get(key);
    if (!page) {
      page = { organizationId: row.organizationId, spaceId: row.spaceId, pageId: row.pageId, title: row.pageTitle, path: row.pagePath, sections: [] };
      pages.set(key, page);
    }
    page.sections.push({ id: row.sectionId, title: row.sectionTitle, body: snippet(row.body, words), ordinal: row.ordinal });
  }
  return [...pages.values()];
}

const PAGE_ORDER = sql`title_hit DESC, rank DESC, space_id, page_id`;

/** The query's tsqueries as text, computed first: the main statement then gets them as values, so
 * the planner estimates how many sections match (a rare word goes through the GIN index, a very
 * common one through the organization's rows) instead of guessing. For an organization, the same
 * statement lists the spaces the caller reads (the lists' access expression, evaluated in bulk). */
type Resolved = { match: string; exclude: string | null; spaceIds: string[] | null };

async function resolve(trx: Executor, scope: SearchScope, text: string, fuzzy: boolean): Promise<Resolved> {
  const tsquery = tsqueryOf(parseQuery(text), organizationsOf(scope), fuzzy);
  const readable =
    scope.kind === 'organization'
      ? sql`(SELECT coalesce(array_agg(sp.id), '{}') FROM spaces sp
          WHERE sp.organization_id = ${scope.organizationId} AND sp.deleted_at IS NULL AND (${scope.readable}))`
      : sql`NULL::text[]`;
  const { rows } = await sql<Resolved>`
    SELECT (${tsquery.match})::text AS match, (${tsquery.exclude ?? sql`NULL::tsquery`})::text AS exclude, ${readable} AS space_ids`.execute(trx);
  return rows[0]!;
}

async function pagesPass(db: Database, scope: SearchScope, text: string, window: SearchWindow, fuzzy: boolean) {
  const answer = await run(db, fuzzy, async (trx) => {
    const tsquery = await resolve(trx, scope, text, fuzzy);
    const { rows } = await sql<Answer>`
      WITH ${matches(scope, tsquery)},
      chosen AS (SELECT * FROM pages ORDER BY ${PAGE_ORDER} OFFSET ${window.offset} LIMIT ${window.limit})
      SELECT
        (SELECT count(*)::int FROM pages) AS total,
        (SELECT querytree(query) FROM q) AS lexemes,
        (SELECT json_agg(t ORDER BY t.title_hit DESC, t.rank DESC, t.space_id, t.page_id, t.section_rank DESC, t.ordinal) FROM (${sectionsOf('chosen')}) t) AS rows`.execute(trx);
    return rows[0]!;
  });
  return { total: answer.total, pages: toPages(answer.rows ?? [], answer.lexemes) };
}

async function spacesPass(db: Database, scope: SearchScope, text: string, window: SearchWindow, fuzzy: boolean) {
  const answer = await run(db, fuzzy, async (trx) => {
    const tsquery = await resolve(trx, scope, text, fuzzy);
    const { rows } = await sql<Answer>`
      WITH ${matches(scope, tsquery)},
      spaces AS MATERIALIZED (
        SELECT organization_id, space_id, bool_or(title_hit) AS title_hit, max(rank) AS rank FROM pages
        GROUP BY organization_id, space_id
      ),
      chosen_spaces AS (SELECT *, row_number() OVER (ORDER BY title_hit DESC, rank DESC, space_id) AS space_order FROM spaces
        ORDER BY title_hit DESC, rank DESC, space_id OFFSET ${window.offset} LIMIT ${window.limit}),
      chosen AS (
        SELECT p.*, cs.space_order FROM chosen_spaces cs CROSS JOIN LATERAL (
          SELECT * FROM pages p WHERE p.organization_id = cs.organization_id AND p.space_id = cs.space_id
          ORDER BY ${PAGE_ORDER} LIMIT ${PAGES_PER_SPACE}
        ) p
      )
      SELECT
        (SELECT count(*)::int FROM spaces) AS total,
        (SELECT querytree(query) FROM q) AS lexemes,
        (SELECT json_agg(t ORDER BY t.space_order, t.title_hit DESC, t.rank DESC, t.page_id, t.section_rank DESC, t.ordinal) FROM (${sectionsOf('chosen')}) t) AS rows`.execute(trx);
    return rows[0]!;
  });
  const rows = answer.rows ?? [];
  const titles = new Map(rows.map((row) => [`${row.organizationId}/${row.spaceId}`, row.spaceTitle]));
  const spaces = new Map<string, SearchSpaceHit>();
  for (const page of toPages(rows, answer.lexemes)) {
    const key = `${page.organizationId}/${page.spaceId}`;
    let space = spaces.get(key);
    if (!space) {
      space = { organizationId: page.organizationId, spaceId: page.spaceId, title: titles.get(key)!, pages: [] };
      spaces.set(key, space);
    }
    space.pages.push(page);
  }
  return { total: answer.total, spaces: [...spaces.values()] };
}

/** How a result window was found: the exact pass, or the fuzzy one (nothing matched exactly). */
export type SearchMode = 'exact' | 'fuzzy';

/**
 * Pages matching `text` in `scope`, best first: `mode` decides the pass (undefined: exact, then fuzzy
 * when the exact pass finds nothing), so that a result's next windows continue with the same pass.
 */
export async function searchPages(
  db: Database,
  scope: SearchScope,
  text: string,
  window: SearchWindow,
  mode?: SearchMode,
): Promise<{ total: number; pages: SearchPageHit[]; mode: SearchMode }> {
  if (!hasPositiveTerm(parseQuery(text))) return { total: 0, pages: [], mode: 'exact' };
  if (mode !== 'fuzzy') {
    const exact = await pagesPass(db, scope, text, window, false);
    if (exact.total > 0 || mode === 'exact' || !canBeFuzzy(parseQuery(text))) return { ...exact, mode: 'exact' };
  }
  return { ...(await pagesPass(db, scope, text, window, true)), mode: 'fuzzy' };
}

/** Spaces with pages matching `text` in `scope`, each with its best pages; `mode` as for searchPages. */
export async function searchSpaces(
  db: Database,
  scope: SearchScope,
  text: string,
  window: SearchWindow,
  mode?: SearchMode,
): Promise<{ total: number; spaces: SearchSpaceHit[]; mode: SearchMode }> {
  if (!hasPositiveTerm(parseQuery(text))) return { total: 0, spaces: [], mode: 'exact' };
  if (mode !== 'fuzzy') {
    const exact = await spacesPass(db, scope, text, window, false);
    if (exact.total > 0 || mode === 'exact' || !canBeFuzzy(parseQuery(text))) return { ...exact, mode: 'exact' };
  }
  return { ...(await spacesPass(db, scope, text, window, true)), mode: 'fuzzy' };
}
