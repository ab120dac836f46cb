// Search and links (docs/design/content-model.md, "Links and backlinks", "Search index"; docs/decisions.md, Search / Links).
//
// Search: one weighted `tsvector` row per section of every page at each space's primary head
// (`search_sections`), kept in step with every head move; `search_index_heads` records which page tree
// the rows reflect, so a head move applies a diff when they reflect the old head and rebuilds otherwise.
// `search_words` holds every word an organization's heads have held (typo tolerance and type-ahead
// look words up there with trigrams and prefixes; a word no longer used costs nothing but a row).
// Two text-search configurations strip accents before stemming (`cw_english`) or as the only step
// (`cw_simple`, for identifiers split into parts and CJK bigrams). unaccent, pg_trgm and btree_gin ship with
// PostgreSQL's contrib (the embedded PostgreSQL 18 and Debian's postgresql-15 both have them) and are
// trusted extensions: the database owner may create them.
//
// Links: what a stored document links to and the anchors it defines, extracted once per document
// (content-addressed, immutable), one row per document; it goes with the document by cascade when
// garbage collection removes it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS unaccent`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  // btree_gin: GIN indexes that lead with organization_id, so an organization's search reads only its entries.
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gin`.execute(db);
  await sql`CREATE TEXT SEARCH CONFIGURATION cw_english (COPY = pg_catalog.english)`.execute(db);
  await sql`ALTER TEXT SEARCH CONFIGURATION cw_english ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem`.execute(db);
  await sql`CREATE TEXT SEARCH CONFIGURATION cw_simple (COPY = pg_catalog.simple)`.execute(db);
  await sql`ALTER TEXT SEARCH CONFIGURATION cw_simple ALTER MAPPING FOR hword, hword_part, word WITH unaccent, simple`.execute(db);

  await sql`
    CREATE TABLE search_sections (
      organization_id text NOT NULL,
      space_id text NOT NULL,
      page_id text NOT NULL,
      -- 0: the page itself (title, description, text before the first heading); 1..n: its sections.
      ordinal integer NOT NULL,
      document_hash bytea,
      section_id text NOT NULL,
      section_title text NOT NULL,
      page_title text NOT NULL,
      page_path text NOT NULL,
      -- The page or one of its ancestors is hidden / excluded from indexing (for published-site search).
      hidden boolean NOT NULL,
      no_index boolean NOT NULL,
      body text NOT NULL,
      tsv tsvector NOT NULL,
      PRIMARY KEY (organization_id, space_id, page_id, ordinal),
      FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  // The tsvector is read for every matching section (match, rank, title filter), the body only for the
  // returned ones: TOAST compresses or moves the body out of the row first, so the tsvector stays
  // uncompressed in the row unless the row is still too large.
  await sql`ALTER TABLE search_sections ALTER COLUMN tsv SET STORAGE MAIN`.execute(db);
  await sql`CREATE INDEX search_sections_tsv_idx ON search_sections USING gin (organization_id, tsv)`.execute(db);
  // A space belongs to one organization: without this the planner multiplies the two selectivities and
  // expects a tenth of an organization's readable spaces' rows (then builds a bitmap of every row
  // where an index scan would have stopped at the first 2,000 matches of a common word).
  await sql`CREATE STATISTICS search_sections_space_organization (dependencies) ON organization_id, space_id FROM search_sections`.execute(db);

  await sql`
    CREATE TABLE search_index_heads (
      organization_id text NOT NULL,
      space_id text NOT NULL,
      -- The page tree (root hash) the space's rows reflect; null for an empty tree.
      pages_root bytea,
      PRIMARY KEY (organization_id, space_id),
      FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE
    )`.execute(db);

  await sql`
    CREATE TABLE search_words (
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      -- "C": the primary key's btree serves prefix look-ups (type-ahead).
      word text COLLATE "C" NOT NULL,
      PRIMARY KEY (organization_id, word)
    )`.execute(db);
  await sql`CREATE INDEX search_words_trgm_idx ON search_words USING gin (organization_id, word gin_trgm_ops)`.execute(db);

  await sql`
    CREATE TABLE document_links (
      organization_id text NOT NULL,
      document_hash bytea NOT NULL,
      anchors text[] NOT NULL,
      links jsonb NOT NULL,
      PRIMARY KEY (organization_id, document_hash),
      FOREIGN KEY (organization_id, document_hash) REFERENCES documents (organization_id, hash) ON DELETE CASCADE
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['document_links', 'search_words', 'search_index_heads', 'search_sections']) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
  await sql`DROP TEXT SEARCH CONFIGURATION cw_simple`.execute(db);
  await sql`DROP TEXT SEARCH CONFIGURATION cw_english`.execute(db);
}
