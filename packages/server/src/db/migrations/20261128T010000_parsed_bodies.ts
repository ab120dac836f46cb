// What reads need of a Markdown body, kept when the body is written so no read parses it again
// (docs/decisions.md, "Parsing off the event loop"; content/body-parse.ts, content/parsed-bodies.ts):
// - `document_parses`: per stored document (content-addressed like `documents`, and removed with it by
//   cascade), its syntax tree without positions (`format=document`, PDF layout), its search sections
//   and the blocks comments anchor to. Documents stored before this migration have no row: the first
//   read that needs one parses the body in the parse pool and stores it.
// - `comments.body_document`, `comment_replies.body_document`: a comment's tree, written with its body;
//   null for comments written before (filled on their first `format=document` read).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE document_parses (
      organization_id text NOT NULL,
      document_hash bytea NOT NULL,
      tree jsonb NOT NULL,
      sections jsonb NOT NULL,
      blocks jsonb NOT NULL,
      -- False when the body could not be read as Markdown within the limits (stored before the markdown
      -- gate, or made by a merge): it is kept as one code block.
      readable boolean NOT NULL,
      PRIMARY KEY (organization_id, document_hash),
      FOREIGN KEY (organization_id, document_hash) REFERENCES documents (organization_id, hash) ON DELETE CASCADE
    )`.execute(db);
  await sql`ALTER TABLE comments ADD COLUMN body_document jsonb`.execute(db);
  await sql`ALTER TABLE comment_replies ADD COLUMN body_document jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE comment_replies DROP COLUMN body_document`.execute(db);
  await sql`ALTER TABLE comments DROP COLUMN body_document`.execute(db);
  await sql`DROP TABLE document_parses`.execute(db);
}
