// Searching the index (docs/design/content-model.md, "Search index"): pages matching the query within a scope of spaces
// (one space, a list of (organization, space) pairs, or every space of an organization the caller
// reads, listed in bulk by the access expression before the search statement). Pages whose title
// matches come first, by how well the title matches (read from the small titles table, so none is
// lost to a common word), then the others by their best section (weights A title, B heading, C
// description, D body); for an organization, grouped by space. One statement answers the total and the
// window asked for, and ranks the sections of the returned pages only; snippets are built for the
// returned sections only. When nothing matches, a fuzzy pass widens each word to the organization's
// closest words (typos).
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { rawQuery, value } from '../../db/raw-query.js';
import type { DB, SpacesTable } from '../../db/schema.js';
import { hasPositiveTerm, parseQuery } from './query-parser.js';
import { canBeFuzzy, tsqueryOf } from './query-sql.js';
import { lexemesOf, snippet } from './snippet.js';

/** Pages whose title matches, per query: all of them unless a word is in more titles than this. */
export const MAX_TITLE_MATCHES = 5_000;
/** Matching sections considered per query: bounds the ranking work of very common words. */
export const MAX_MATCHED_SECTIONS = 2_000;
export const SECTIONS_PER_PAGE = 5;
export const PAGES_PER_SPACE = 5;

/**
 * How much a search reads: the title matches (`titles`) and the matching sections in primary-key
 * order (`sections`) it ranks, and the best sections it returns per page (`sectionsPerPage`). The cost
 * of a common word is the rows read to find `sections` matches, so a caller that shows a few results
 * (the site's search dialog) asks for fewer; `total` then counts the pages among those read, and
 * `totalIsLowerBound` says when more may match.
 */
export type SearchBound = {
  sections: number;
  titles: number;
  sectionsPerPage: number;
  /**
   * Rows of each table read at most before the index is asked instead (unset: read until `sections` and
   * `titles` match). Two words each common but rare together made the search read tens of thousands
   * of sections to find its matches, and a word in one title of a hundred as many titles; bounded, it
   * reads these many (`sections`, `titles`) and keeps what matched there, unless fewer than `enough`
   * did: then the GIN index gives them all (they are rare). Sections: for two words or more only
   * (readBoundOf).
   */
  read?: { sections?: number; titles?: number; enough: number };
  /**
   * Sections are read only when fewer pages than this match by their title (unset: always). Title
   * matches rank first, so with this many of them the window asked for (the dialog's eight) is title
   * matches whatever the sections hold: reading sections would only count more pages and break ties
   * between titles that rank alike. Skipped, `total` counts the title matches and is a lower bound;
   * the returned pages' best sections are still read (sectionsOf).
   */
  titlesSuffice?: number;
};
/** The bound of a ranked list of results (the API, a site's results page). */
export const RESULTS_BOUND: SearchBound = { sections: MAX_MATCHED_SECTIONS, titles: MAX_TITLE_MATCHES, sectionsPerPage: SECTIONS_PER_PAGE };

/** ts_rank's weights of D (body), C (description), B (heading) and A (title). */
const WEIGHTS = sql`'{0.1, 0.2, 0.4, 1.0}'::real[]`;

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
function candidateFilter(scope: SearchScope, resolved: Resolved, table: 's' | 't'): RawBuilder<unknown> {
  const t = sql.raw(table);
  if (scope.kind === 'organization') {
    return sql`${t}.organization_id = ${scope.organizationId} AND ${t}.space_id = ANY(${resolved.spaceIds ?? []}::text[])`;
  }
  // Constants, so that the planner sees how few rows a space has (the scope still drops a deleted one).
  if (scope.spaces.length === 1) {
    return sql`${t}.organization_id = ${scope.spaces[0]!.organizationId} AND ${t}.space_id = ${scope.spaces[0]!.spaceId} AND EXISTS (SELECT 1 FROM scope)`;
  }
  return sql`(${t}.organization_id, ${t}.space_id) IN (SELECT sc.organization_id, sc.space_id FROM scope sc)`;
}

/** Published-site search leaves out hidden and no-index pages (both tables carry the flags). */
const publishedFilter = (scope: SearchScope, table: 's' | 't' | 'x') =>
  scope.kind === 'spaces' && scope.publishedOnly ? sql`AND NOT ${sql.raw(table)}.hidden AND NOT ${sql.raw(table)}.no_index` : sql``;

const organizationsOf = (scope: SearchScope) =>
  scope.kind === 'organization' ? [scope.organizationId] : [...new Set(scope.spaces.map((s) => s.organizationId))];

/** A returned section, as `json_agg` of sectionsOf's rows gives it (the CamelCasePlugin renames its keys too). */
type Row = Pick<Selectable<DB['searchSections']>, 'organizationId' | 'spaceId' | 'pageId' | 'pageTitle' | 'pagePath' | 'ordinal' | 'sectionId' | 'sectionTitle' | 'body'> & {
  spaceTitle: Selectable<SpacesTable>['title'];
};

/** Where the matches of one table are read: its alias, its tsvector column and its primary key. */
type Matched = { table: 'search_titles' | 'search_sections'; alias: 't' | 's'; vector: 'title' | 'tsv'; key: string[]; rank: 'title_rank' | 'rank' };
const TITLES: Matched = { table: 'search_titles', alias: 't', vector: 'title', key: ['organization_id', 'space_id', 'page_id'], rank: 'title_rank' };
const SECTIONS: Matched = { table: 'search_sections', alias: 's', vector: 'tsv', key: ['organization_id', 'space_id', 'page_id', 'ordinal'], rank: 'rank' };
const keyOf = (m: Matched, alias: string) => sql.raw(m.key.map((column) => `${alias}.${column}`).join(', '));

/**
 * The CTE `name`: up to `limit` rows of `m.table` in `scope` matching the query (their page and rank),
 * and whether more may match than it holds (`moreMayMatch`).
 *
 * Unbounded (`read` unset): the first `limit` matches in primary-key order (the same rows for every
 * window of a result, so a cursor's next page ranks what the first did); the planner weighs reading in
 * key order until enough match against the GIN index.
 *
 * Bounded: the first `read.rows` rows of the scope in primary-key order (the key's index read from the
 * scope's first key, so the read costs the same wherever its rows lie in the table: a sequential scan
 * read every row stored before them first), keeping those that match (`name_read`, numbered, with the
 * row at the bound as a sentinel: the read stopped there). When fewer than `read.enough` matched and
 * the read stopped at its bound, the query is rare in the scope: all its matches come from the GIN
 * index instead (`OFFSET 0` keeps the limit out of that plan, so it is not read in key order again),
 * the first `limit` in key order. One statement: the index part runs only when chosen (a one-time
 * filter).
 *
 * `only`: a condition on the statement's earlier CTEs alone (no column of the table), under which the
 * table is read at all: a one-time filter, so nothing is read when it is false.
 */
function firstMatches(name: string, m: Matched, scope: SearchScope, tsquery: Resolved, limit: number, read?: { rows: number; enough: number }, only?: RawBuilder<unknown>) {
  const a = sql.raw(m.alias);
  const vector = sql.raw(`${m.alias}.${m.vector}`);
  const where = sql`${candidateFilter(scope, tsquery, m.alias)} ${publishedFilter(scope, m.alias)}${only ? sql` AND ${only}` : sql``}`;
  const cte = sql.raw(name);
  const rank = sql.raw(m.rank);
  if (!read) {
    return {
      ctes: sql`
    ${cte} AS MATERIALIZED (
      SELECT ${a}.organization_id, ${a}.space_id, ${a}.page_id, ts_rank(${WEIGHTS}, ${vector}, q.query) AS ${rank}
      FROM q, ${sql.raw(m.table)} ${a}
      WHERE ${where} AND ${vector} @@ ${tsquery.match}::tsquery
      ORDER BY ${keyOf(m, m.alias)}
      LIMIT ${limit}
    )`,
      moreMayMatch: sql`(SELECT count(*) FROM ${cte}) >= ${limit}`,
    };
  }
  const readName = sql.raw(`${name}_read`);
  const readingName = sql.raw(`${name}_reading`);
  return {
    ctes: sql`
    ${readName} AS MATERIALIZED (
      SELECT w.organization_id, w.space_id, w.page_id, w.n, w.matched, CASE WHEN w.matched THEN ts_rank(${WEIGHTS}, w.vector, q.query) END AS ${rank}
      FROM q, (
        SELECT r.*, row_number() OVER () AS n
        FROM (
          SELECT ${a}.organization_id, ${a}.space_id, ${a}.page_id, ${vector} AS vector, ${vector} @@ ${tsquery.match}::tsquery AS matched
          FROM ${sql.raw(m.table)} ${a}
          WHERE ${where}
          ORDER BY ${keyOf(m, m.alias)}
          LIMIT ${read.rows}
        ) r
      ) w
      WHERE w.matched OR w.n = ${read.rows}
      LIMIT ${limit + 1}
    ),
    ${readingName} AS MATERIALIZED (
      SELECT coalesce(bool_or(n = ${read.rows}), false) AS stopped, count(*) FILTER (WHERE matched) < ${read.enough} AND coalesce(bool_or(n = ${read.rows}), false) AS by_index
      FROM ${readName}
    ),
    ${cte} AS MATERIALIZED (
      (SELECT organization_id, space_id, page_id, ${rank} FROM ${readName}
        WHERE matched AND NOT (SELECT by_index FROM ${readingName}) ORDER BY n LIMIT ${limit})
      UNION ALL
      (SELECT f.organization_id, f.space_id, f.page_id, ts_rank(${WEIGHTS}, f.vector, q.query)
        FROM q, (
          SELECT ${keyOf(m, m.alias)}, ${vector} AS vector
          FROM ${sql.raw(m.table)} ${a}
          WHERE ${where} AND ${vector} @@ ${tsquery.match}::tsquery
          OFFSET 0
        ) f
        WHERE (SELECT by_index FROM ${readingName})
        ORDER BY ${keyOf(m, 'f')}
        LIMIT ${limit})
    )`,
    moreMayMatch: sql`((SELECT count(*) FROM ${cte}) >= ${limit} OR (SELECT stopped AND NOT by_index FROM ${readingName}))`,
  };
}

/**
 * The matching pages, as the CTEs both kinds of search start from: those whose title matches (up to
 * `bound.titles`, from `search_titles`) and those of the first `bound.sections` matching sections
 * (firstMatches). A page's `title_rank` is its title's (null: no title match), its `rank` its best
 * section's among those read (null when only its title was read). `moreMayMatch`: whether the bound
 * stopped a reading (more pages may match than `pages` holds).
 */
function matches(scope: SearchScope, tsquery: Resolved, bound: SearchBound): { ctes: RawBuilder<unknown>; moreMayMatch: RawBuilder<unknown> } {
  const excluded = tsquery.exclude
    ? sql`WHERE NOT EXISTS (
        SELECT 1 FROM search_sections x
        WHERE x.organization_id = h.organization_id AND x.space_id = h.space_id AND x.page_id = h.page_id AND x.tsv @@ ${tsquery.exclude}::tsquery)`
    : sql``;
  const read = (rows: number | undefined) => (rows === undefined || !bound.read ? undefined : { rows, enough: bound.read.enough });
  const titled = firstMatches('titled', TITLES, scope, tsquery, bound.titles, read(bound.read?.titles));
  // Not with an excluded word: the title matches are counted before the exclusion drops pages.
  const titlesSuffice = bound.titlesSuffice === undefined || tsquery.exclude ? undefined : sql`(SELECT count(*) FROM titled) >= ${bound.titlesSuffice}`;
  const sections = firstMatches('sections', SECTIONS, scope, tsquery, bound.sections, read(bound.read?.sections), titlesSuffice && sql`NOT ${titlesSuffice}`);
  return {
    ctes: sql`
    q AS MATERIALIZED (SELECT ${tsquery.match}::tsquery AS query),
    scope AS MATERIALIZED (${scopeQuery(scope, tsquery)}),
    ${titled.ctes},
    ${sections.ctes},
    pages AS MATERIALIZED (
      SELECT * FROM (
        SELECT organization_id, space_id, page_id, max(title_rank) AS title_rank, max(rank) AS rank
        FROM (
          SELECT organization_id, space_id, page_id, title_rank, NULL::real AS rank FROM titled
          UNION ALL
          SELECT organization_id, space_id, page_id, NULL::real, rank FROM sections
        ) u
        GROUP BY organization_id, space_id, page_id
      ) h
      ${excluded}
    )`,
    moreMayMatch: sql`(${titled.moreMayMatch} OR ${sections.moreMayMatch}${titlesSuffice ? sql` OR ${titlesSuffice}` : sql``})`,
  };
}

/** Best first: title matches by their title's rank, then the others by their best section. */
const pageOrder = (table: string) => {
  const t = sql.raw(table);
  return sql`${t}.title_rank DESC NULLS LAST, ${t}.rank DESC NULLS LAST, ${t}.space_id, ${t}.page_id`;
};

/**
 * The chosen pages (`chosen`, a CTE of `pages` rows) with their `perPage` best matching sections and
 * texts: each page's sections are read by primary key and ranked here, for the returned pages only.
 */
const sectionsOf = (scope: SearchScope, chosen: string, perPage: number) => sql`
  SELECT p.*, sc.title AS space_title, s.ordinal, s.section_id, s.section_title, s.page_title, s.page_path, s.body, s.rank AS section_rank
  FROM ${sql.raw(chosen)} p
  JOIN scope sc ON sc.organization_id = p.organization_id AND sc.space_id = p.space_id
  CROSS JOIN LATERAL (
    SELECT x.ordinal, x.section_id, x.section_title, x.page_title, x.page_path, x.body, ts_rank(${WEIGHTS}, x.tsv, q.query) AS rank
    FROM q, search_sections x
    WHERE x.organization_id = p.organization_id AND x.space_id = p.space_id AND x.page_id = p.page_id
      AND x.tsv @@ q.query ${publishedFilter(scope, 'x')}
    ORDER BY rank DESC, x.ordinal
    LIMIT ${perPage}
  ) s`;

// What a pass answers: the total, the query's lexemes (for snippets) and the window's sections.
const ANSWER_COLUMNS = {
  total: value('int4').neverNull('a count of the matching pages or spaces'),
  lexemes: value('text').orNull(),
  rows: value('json').orNull().as<Row[] | null>(),
};

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

// Argument lists for the statements' shapes (raw-query.ts): each kind of scope, with and without an excluded word.
const SHAPE_SCOPES: SearchScope[] = [
  { kind: 'organization', organizationId: '', readable: sql<boolean>`true` },
  { kind: 'spaces', spaces: [{ organizationId: '', spaceId: '' }], publishedOnly: true },
  { kind: 'spaces', spaces: [] },
];
const shapeQuery = (text: string) => tsqueryOf(parseQuery(text), [''], false);

/**
 * The query's tsqueries as text, computed first: the main statement then gets them as values, so
 * the planner estimates how many sections match (a rare word goes through the GIN index, a very
 * common one through the organization's rows) instead of guessing. For an organization, the same
 * statement lists the spaces the caller reads (the lists' access expression, evaluated in bulk).
 */
const resolveQuery = rawQuery({
  name: 'searchResolve',
  columns: {
    match: value('text').neverNull('the tsquery of at least one positive term (hasPositiveTerm)'),
    exclude: value('text').orNull(),
    spaceIds: value('text[]').orNull(),
  },
  statement: (scope: SearchScope, tsquery: ReturnType<typeof tsqueryOf>) => {
    const readable =
      scope.kind === 'organization'
        ? sql`(SELECT coalesce(array_agg(sp.id), '{}') FROM spaces sp
            WHERE sp.organization_id = ${scope.organizationId} AND sp.deleted_at IS NULL AND (${scope.readable}))`
        : sql`NULL::text[]`;
    return sql`
      SELECT (${tsquery.match})::text AS match, (${tsquery.exclude ?? sql`NULL::tsquery`})::text AS exclude, ${readable} AS space_ids`;
  },
  shapes: SHAPE_SCOPES.map((scope): [SearchScope, ReturnType<typeof tsqueryOf>] => [scope, shapeQuery('word -other')]),
});

type Resolved = Awaited<ReturnType<typeof resolveQuery.rows>>[number];

async function resolve(db: Executor, scope: SearchScope, text: string, fuzzy: boolean): Promise<Resolved> {
  const [resolved] = await resolveQuery.rows(db, scope, tsqueryOf(parseQuery(text), organizationsOf(scope), fuzzy));
  return resolved!;
}

/** A bound that reads a bounded number of rows (the site's search dialog's kind), for the shapes. */
const SHAPE_READ_BOUNDS: SearchBound[] = [
  { sections: 1, titles: 1, sectionsPerPage: 1, read: { sections: 1, titles: 1, enough: 1 } },
  { sections: 1, titles: 1, sectionsPerPage: 1, read: { titles: 1, enough: 1 } },
  { sections: 1, titles: 1, sectionsPerPage: 1, read: { sections: 1, titles: 1, enough: 1 }, titlesSuffice: 1 },
  { sections: 1, titles: 1, sectionsPerPage: 1, read: { titles: 1, enough: 1 }, titlesSuffice: 1 },
];

const SHAPE_RESOLVED: Resolved[] = [
  { match: 'word', exclude: null, spaceIds: null },
  { match: 'word', exclude: 'other', spaceIds: [] },
];

const pagesQuery = rawQuery({
  name: 'searchPages',
  columns: {
    ...ANSWER_COLUMNS,
    totalIsLowerBound: value('bool').neverNull('a comparison of two counts'),
  },
  statement: (scope: SearchScope, tsquery: Resolved, window: SearchWindow, bound: SearchBound) => {
    const matched = matches(scope, tsquery, bound);
    return sql`
    WITH ${matched.ctes},
    chosen AS MATERIALIZED (SELECT * FROM pages p ORDER BY ${pageOrder('p')} OFFSET ${window.offset} LIMIT ${window.limit})
    SELECT
      (SELECT count(*)::int FROM pages) AS total,
      ${matched.moreMayMatch} AS total_is_lower_bound,
      (SELECT querytree(query) FROM q) AS lexemes,
      (SELECT json_agg(t ORDER BY ${pageOrder('t')}, t.section_rank DESC, t.ordinal) FROM (${sectionsOf(scope, 'chosen', bound.sectionsPerPage)}) t) AS rows`;
  },
  shapes: SHAPE_SCOPES.flatMap((scope) =>
    SHAPE_RESOLVED.flatMap((resolved) =>
      [RESULTS_BOUND, ...SHAPE_READ_BOUNDS].map((bound) => [scope, resolved, { offset: 0, limit: 1 }, bound] as [SearchScope, Resolved, SearchWindow, SearchBound]),
    ),
  ),
});

/**
 * The bound a pass of `text` reads with: `bound.read.sections` applies to two words or more only. The
 * planner estimates one word's sections from the column's statistics and picks key order or the index
 * well; it multiplies the estimates of several (as if independent), and words rare together are where
 * it read a space through in key order. (Titles are read bounded for one word too: short, one of a
 * hundred matching, the planner's key order read 20,000 of them for 200.)
 */
function readBoundOf(text: string, bound: SearchBound): SearchBound {
  if (bound.read?.sections === undefined) return bound;
  const positive = parseQuery(text).clauses.filter((clause) => clause.some((term) => !term.negated));
  return positive.length > 1 ? bound : { ...bound, read: { titles: bound.read.titles, enough: bound.read.enough } };
}

/**
 * Whether a resolved query has no lexeme (every word a stop word: `we`, `the`): it matches nothing,
 * and PostgreSQL would still read every candidate row to find that out.
 */
const matchesNothing = (tsquery: Resolved) => tsquery.match === '';

async function pagesPass(db: Database, scope: SearchScope, text: string, window: SearchWindow, fuzzy: boolean, bound: SearchBound) {
  const tsquery = await resolve(db, scope, text, fuzzy);
  if (matchesNothing(tsquery)) return { total: 0, totalIsLowerBound: false, pages: [] };
  const [answer] = await pagesQuery.rows(db, scope, tsquery, window, readBoundOf(text, bound));
  return { total: answer!.total, totalIsLowerBound: answer!.totalIsLowerBound, pages: toPages(answer!.rows ?? [], answer!.lexemes) };
}

const spaceOrder = sql`title_rank DESC NULLS LAST, rank DESC NULLS LAST, space_id`;

const spacesQuery = rawQuery({
  name: 'searchSpaces',
  columns: ANSWER_COLUMNS,
  statement: (scope: SearchScope, tsquery: Resolved, window: SearchWindow) => sql`
    WITH ${matches(scope, tsquery, RESULTS_BOUND).ctes},
    spaces AS MATERIALIZED (
      SELECT organization_id, space_id, max(title_rank) AS title_rank, max(rank) AS rank FROM pages
      GROUP BY organization_id, space_id
    ),
    chosen_spaces AS MATERIALIZED (
      SELECT *, row_number() OVER (ORDER BY ${spaceOrder}) AS space_order FROM spaces
      ORDER BY ${spaceOrder} OFFSET ${window.offset} LIMIT ${window.limit}
    ),
    -- Each chosen space's best pages: one window over their pages (not a scan of all pages per space).
    chosen AS MATERIALIZED (
      SELECT * FROM (
        SELECT p.*, cs.space_order, row_number() OVER (PARTITION BY p.organization_id, p.space_id ORDER BY ${pageOrder('p')}) AS page_order
        FROM pages p JOIN chosen_spaces cs ON cs.organization_id = p.organization_id AND cs.space_id = p.space_id
      ) r
      WHERE page_order <= ${PAGES_PER_SPACE}
    )
    SELECT
      (SELECT count(*)::int FROM spaces) AS total,
      (SELECT querytree(query) FROM q) AS lexemes,
      (SELECT json_agg(t ORDER BY t.space_order, t.page_order, t.section_rank DESC, t.ordinal) FROM (${sectionsOf(scope, 'chosen', SECTIONS_PER_PAGE)}) t) AS rows`,
  shapes: SHAPE_SCOPES.flatMap((scope) => SHAPE_RESOLVED.map((resolved) => [scope, resolved, { offset: 0, limit: 1 }] as [SearchScope, Resolved, SearchWindow])),
});

async function spacesPass(db: Database, scope: SearchScope, text: string, window: SearchWindow, fuzzy: boolean) {
  const tsquery = await resolve(db, scope, text, fuzzy);
  if (matchesNothing(tsquery)) return { total: 0, spaces: [] };
  const [answer] = await spacesQuery.rows(db, scope, tsquery, window);
  const rows = answer!.rows ?? [];
  const titles = new Map(rows.map((row) => [`${row.organizationId}/${row.spaceId}`, row.spaceTitle]));
  const spaces = new Map<string, SearchSpaceHit>();
  for (const page of toPages(rows, answer!.lexemes)) {
    const key = `${page.organizationId}/${page.spaceId}`;
    let space = spaces.get(key);
    if (!space) {
      space = { organizationId: page.organizationId, spaceId: page.spaceId, title: titles.get(key)!, pages: [] };
      spaces.set(key, space);
    }
    space.pages.push(page);
  }
  return { total: answer!.total, spaces: [...spaces.values()] };
}

/** How a result window was found: the exact pass, or the fuzzy one (nothing matched exactly). */
export type SearchMode = 'exact' | 'fuzzy';

/**
 * What searchPages answers: `total` counts the matching pages among the candidates read, all of them
 * unless `totalIsLowerBound` (the bound stopped the reading: more pages may match).
 */
export type PagesFound = { total: number; totalIsLowerBound: boolean; pages: SearchPageHit[]; mode: SearchMode };

/**
 * Pages matching `text` in `scope`, best first, ranked among the candidates `bound` lets it read:
 * `mode` decides the pass (undefined: exact, then fuzzy when the exact pass finds nothing), so that a
 * result's next windows continue with the same pass.
 */
export async function searchPages(
  db: Database,
  scope: SearchScope,
  text: string,
  window: SearchWindow,
  mode?: SearchMode,
  bound: SearchBound = RESULTS_BOUND,
): Promise<PagesFound> {
  if (!hasPositiveTerm(parseQuery(text))) return { total: 0, totalIsLowerBound: false, pages: [], mode: 'exact' };
  if (mode !== 'fuzzy') {
    const exact = await pagesPass(db, scope, text, window, false, bound);
    if (exact.total > 0 || mode === 'exact' || !canBeFuzzy(parseQuery(text))) return { ...exact, mode: 'exact' };
  }
  return { ...(await pagesPass(db, scope, text, window, true, bound)), mode: 'fuzzy' };
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
