// Title matches are never lost (docs/decisions.md, Search): each indexed page's title as its own
// narrow row (the weight-A lexemes of its section 0: the title and the title's identifier parts), so
// that a search reads every page whose title has a word from a small table however many sections
// have the word in their text. Kept in step with `search_sections` by the same repository functions;
// goes with its space by cascade.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE search_titles (
      organization_id text NOT NULL,
      space_id text NOT NULL,
      page_id text NOT NULL,
      hidden boolean NOT NULL,
      no_index boolean NOT NULL,
      title tsvector NOT NULL,
      PRIMARY KEY (organization_id, space_id, page_id),
      FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`
    INSERT INTO search_titles (organization_id, space_id, page_id, hidden, no_index, title)
    SELECT organization_id, space_id, page_id, hidden, no_index, ts_filter(tsv, '{a}')
    FROM search_sections WHERE ordinal = 0`.execute(db);
  // Organization first, like the sections' index: an organization's search reads its own entries only.
  await sql`CREATE INDEX search_titles_title_idx ON search_titles USING gin (organization_id, title)`.execute(db);
  await sql`CREATE STATISTICS search_titles_space_organization (dependencies) ON organization_id, space_id FROM search_titles`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE search_titles`.execute(db);
}
