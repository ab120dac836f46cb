// The search index's rows (migrations 20261124T150300, 20261124T171000): sections of the pages at each
// space's primary head, each page's title on its own (`search_titles`, written, moved and removed with
// the page's section 0 by the functions below), the words an organization's content holds, and which
// page tree a space's rows reflect.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** A section to index, with the texts its weighted `tsvector` is built from. */
export type SectionRow = {
  pageId: string;
  ordinal: number;
  documentHash: string | null;
  sectionId: string;
  sectionTitle: string;
  pageTitle: string;
  pagePath: string;
  hidden: boolean;
  noIndex: boolean;
  /** Stored for snippets: the description and text of section 0, the section's text otherwise. */
  body: string;
  /** Page title (weight A, section 0) or section heading (weight B). */
  head: string;
  headWeight: 'A' | 'B';
  /** Description (weight C, section 0 only). */
  description: string;
  /** The section's own text (weight D). */
  text: string;
  /** Identifier parts and CJK bigrams of `head` (same weight) and of the rest (D), for `cw_simple`. */
  headFallback: string;
  fallback: string;
};

/** Rows per statement: a page rarely has more than a few dozen sections, a rebuild has thousands. */
const ROWS_PER_STATEMENT = 500;

/**
 * Words kept for typo tolerance and type-ahead: lowercase Latin letters after accents are stripped,
 * 3 to 40 of them (numbers, hashes and CJK runs are left to the other matchers).
 */
const WORD_FILTER = sql`w ~ '^[a-z]{3,40}$'`;

export async function insertSections(db: Executor, organizationId: string, spaceId: string, rows: SectionRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const part = rows.slice(i, i + ROWS_PER_STATEMENT);
    await sql`
      WITH r AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(part)}::jsonb) AS r("pageId" text, ordinal int, "documentHash" text,
          "sectionId" text, "sectionTitle" text, "pageTitle" text, "pagePath" text, hidden boolean, "noIndex" boolean, body text,
          head text, "headWeight" text, description text, text text, "headFallback" text, fallback text)
      ),
      inserted AS (
        INSERT INTO search_sections (organization_id, space_id, page_id, ordinal, document_hash, section_id, section_title,
          page_title, page_path, hidden, no_index, body, tsv)
        SELECT ${organizationId}, ${spaceId}, r."pageId", r.ordinal, decode(r."documentHash", 'hex'), r."sectionId", r."sectionTitle",
          r."pageTitle", r."pagePath", r.hidden, r."noIndex", r.body,
          setweight(to_tsvector('cw_english', r.head), r."headWeight"::"char")
            || setweight(to_tsvector('cw_english', r.description), 'C')
            || setweight(to_tsvector('cw_english', r.text), 'D')
            || setweight(to_tsvector('cw_simple', r."headFallback"), r."headWeight"::"char")
            || setweight(to_tsvector('cw_simple', r.fallback), 'D')
        FROM r
        RETURNING page_id, hidden, no_index, CASE WHEN ordinal = 0 THEN ts_filter(tsv, '{a}') END AS title
      ),
      titles AS (
        INSERT INTO search_titles (organization_id, space_id, page_id, hidden, no_index, title)
        SELECT ${organizationId}, ${spaceId}, page_id, hidden, no_index, title FROM inserted WHERE title IS NOT NULL
      )
      INSERT INTO search_words (organization_id, word)
      SELECT DISTINCT ${organizationId}, w
      FROM r, unnest(tsvector_to_array(to_tsvector('cw_simple', r.head || ' ' || r.description || ' ' || r.text))) AS w
      WHERE ${WORD_FILTER}
      ORDER BY 2
      ON CONFLICT DO NOTHING`.execute(db);
  }
}

export async function deletePageSections(db: Executor, organizationId: string, spaceId: string, pageIds: string[]): Promise<void> {
  if (pageIds.length === 0) return;
  await sql`
    WITH titles AS (
      DELETE FROM search_titles
      WHERE organization_id = ${organizationId} AND space_id = ${spaceId} AND page_id = ANY(${pageIds}::text[])
    )
    DELETE FROM search_sections
    WHERE organization_id = ${organizationId} AND space_id = ${spaceId} AND page_id = ANY(${pageIds}::text[])`.execute(db);
}

export async function deleteSpaceSections(db: Executor, organizationId: string, spaceId: string): Promise<void> {
  await sql`
    WITH titles AS (DELETE FROM search_titles WHERE organization_id = ${organizationId} AND space_id = ${spaceId})
    DELETE FROM search_sections WHERE organization_id = ${organizationId} AND space_id = ${spaceId}`.execute(db);
}

/** New paths and flags of pages whose place changed but whose text did not (no re-tokenising). */
export async function updatePagePlaces(
  db: Executor,
  organizationId: string,
  spaceId: string,
  places: Array<{ pageId: string; pagePath: string; hidden: boolean; noIndex: boolean }>,
): Promise<void> {
  if (places.length === 0) return;
  const rows = sql`jsonb_to_recordset(${JSON.stringify(places)}::jsonb) AS r("pageId" text, "pagePath" text, hidden boolean, "noIndex" boolean)`;
  await sql`
    WITH titles AS (
      UPDATE search_titles t SET hidden = r.hidden, no_index = r."noIndex"
      FROM ${rows}
      WHERE t.organization_id = ${organizationId} AND t.space_id = ${spaceId} AND t.page_id = r."pageId"
    )
    UPDATE search_sections s SET page_path = r."pagePath", hidden = r.hidden, no_index = r."noIndex"
    FROM ${rows}
    WHERE s.organization_id = ${organizationId} AND s.space_id = ${spaceId} AND s.page_id = r."pageId"`.execute(db);
}

/** The page tree (root hash, hex) the space's rows reflect: null for an empty tree, undefined when never indexed. */
export async function findIndexedRoot(db: Executor, organizationId: string, spaceId: string): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('searchIndexHeads')
    .select('pagesRoot')
    .where('organizationId', '=', organizationId)
    .where('spaceId', '=', spaceId)
    .executeTakeFirst();
  return row === undefined ? undefined : (row.pagesRoot?.toString('hex') ?? null);
}

export async function setIndexedRoot(db: Executor, organizationId: string, spaceId: string, root: string | null): Promise<void> {
  await sql`
    INSERT INTO search_index_heads (organization_id, space_id, pages_root)
    VALUES (${organizationId}, ${spaceId}, ${root === null ? null : Buffer.from(root, 'hex')})
    ON CONFLICT (organization_id, space_id) DO UPDATE SET pages_root = EXCLUDED.pages_root`.execute(db);
}

/** The words of spaces' indexed content, added to another organization's (the spaces moved there). */
export async function learnWordsOf(db: Executor, from: { organizationId: string; spaceIds: string[] }, to: { organizationId: string }): Promise<void> {
  if (from.spaceIds.length === 0) return;
  await sql`
    INSERT INTO search_words (organization_id, word)
    SELECT DISTINCT ${to.organizationId}, w
    FROM search_sections s, unnest(tsvector_to_array(to_tsvector('cw_simple', s.page_title || ' ' || s.section_title || ' ' || s.body))) AS w
    WHERE s.organization_id = ${from.organizationId} AND s.space_id = ANY(${from.spaceIds}::text[]) AND ${WORD_FILTER}
    ORDER BY 2
    ON CONFLICT DO NOTHING`.execute(db);
}

/** Live spaces whose rows were never built (data from before the index existed), locked for a rebuild. */
export async function lockUnindexedSpaces(db: Executor, limit: number) {
  return db
    .selectFrom('spaces as s')
    .select(['s.organizationId', 's.id'])
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('searchIndexHeads as h').select(sql.lit(1).as('one')).whereRef('h.organizationId', '=', 's.organizationId').whereRef('h.spaceId', '=', 's.id'))),
    )
    .limit(limit)
    .forUpdate('s')
    .skipLocked()
    .execute();
}
