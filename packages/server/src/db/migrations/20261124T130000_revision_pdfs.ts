// The cache of change-request PDFs: a revision is immutable, so the PDF of a revision (with its page
// options and title) is rendered once and kept here. A cache: bounded per organization (least
// recently used PDFs go first), gone with its revision, never copied by a transfer or a duplicate.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE revision_pdfs (
      organization_id text NOT NULL,
      revision_id text NOT NULL,
      variant text NOT NULL,
      pdf bytea NOT NULL,
      byte_length integer NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      used_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, revision_id, variant),
      FOREIGN KEY (organization_id, revision_id) REFERENCES revisions (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  // PDFs are compressed streams already.
  await sql`ALTER TABLE revision_pdfs ALTER COLUMN pdf SET STORAGE EXTERNAL`.execute(db);
  // Eviction walks an organization's PDFs by last use.
  await sql`CREATE INDEX revision_pdfs_used_idx ON revision_pdfs (organization_id, used_at DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE revision_pdfs`.execute(db);
}
