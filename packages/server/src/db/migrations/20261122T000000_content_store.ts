// The content store (docs/design/content-model.md, "Trees and content objects"): content-addressed documents, file and reusable-content
// nodes, file blobs and their bytes, and the materialised primary head (`space_head_pages`,
// `space_head_files`). `revisions` and `tree_nodes` exist since 20261121T210000.
//
// Content objects are insert-only and keyed by (organization_id, hash): spaces of one organization
// share them, so they carry no foreign key to a space and outlive a purged one until garbage collection.
// Head rows belong to their space and go with it by cascade.
//
// Nodes (page, file and reusable-content lists) are stored as deflated canonical JSON in `data bytea`,
// as git stores its objects, rather than the `entries jsonb` first planned: a node of ~100 pages is
// ~50 KB of JSON, and sending and parsing it as jsonb was most of a one-page edit's time; deflated it
// is ~8 KB and PostgreSQL stores it as is. The hash stays the sha256 of the JSON text.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE documents (
      organization_id text NOT NULL,
      hash bytea NOT NULL,
      markdown text NOT NULL,
      byte_length integer NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, hash)
    )`.execute(db);
  // tree_nodes was created with `entries jsonb` by 20261121T210000, and nothing wrote to it before this
  // migration (spaces only had empty revisions): ADD COLUMN … NOT NULL fails loudly if that is not so.
  await sql`ALTER TABLE tree_nodes DROP COLUMN entries`.execute(db);
  await sql`ALTER TABLE tree_nodes ADD COLUMN data bytea NOT NULL`.execute(db);
  for (const table of ['file_nodes', 'reusable_nodes']) {
    await sql`
      CREATE TABLE ${sql.table(table)} (
        organization_id text NOT NULL,
        hash bytea NOT NULL,
        data bytea NOT NULL,
        PRIMARY KEY (organization_id, hash)
      )`.execute(db);
  }
  // Deflated already: out of line without a second compression attempt.
  for (const table of ['tree_nodes', 'file_nodes', 'reusable_nodes']) {
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN data SET STORAGE EXTERNAL`.execute(db);
  }
  // Metadata of stored bytes; the bytes live in the blob store (`storage` names it).
  await sql`
    CREATE TABLE file_blobs (
      organization_id text NOT NULL,
      sha256 bytea NOT NULL,
      size bigint NOT NULL,
      width integer,
      height integer,
      storage text NOT NULL DEFAULT 'postgres',
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, sha256)
    )`.execute(db);
  // The PostgreSQL blob store. Most files (images, archives) are compressed already: EXTERNAL keeps
  // them out of line without a pointless compression attempt.
  await sql`
    CREATE TABLE blob_bytes (
      organization_id text NOT NULL,
      sha256 bytea NOT NULL,
      data bytea NOT NULL,
      PRIMARY KEY (organization_id, sha256)
    )`.execute(db);
  await sql`ALTER TABLE blob_bytes ALTER COLUMN data SET STORAGE EXTERNAL`.execute(db);

  await sql`
    CREATE TABLE space_head_pages (
      organization_id text NOT NULL,
      space_id text NOT NULL,
      page_id text NOT NULL,
      parent_page_id text,
      position integer NOT NULL,
      depth integer NOT NULL,
      type text NOT NULL,
      title text NOT NULL,
      slug text NOT NULL,
      path text NOT NULL,
      document_hash bytea,
      emoji text,
      icon text,
      description text,
      hidden boolean NOT NULL,
      no_index boolean NOT NULL,
      no_robots_index boolean NOT NULL,
      layout jsonb,
      cover jsonb,
      created_at timestamptz(3) NOT NULL,
      updated_at timestamptz(3) NOT NULL,
      PRIMARY KEY (organization_id, space_id, page_id),
      FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE,
      -- Deferred: a head move may swap two siblings' slugs, which passes through a duplicate mid-statement.
      CONSTRAINT space_head_pages_path_key UNIQUE (organization_id, space_id, path) DEFERRABLE INITIALLY DEFERRED
    )`.execute(db);
  await sql`CREATE INDEX space_head_pages_parent_idx ON space_head_pages (organization_id, space_id, parent_page_id, position)`.execute(db);
  await sql`CREATE INDEX space_head_pages_document_idx ON space_head_pages (organization_id, space_id, document_hash)`.execute(db);

  await sql`
    CREATE TABLE space_head_files (
      organization_id text NOT NULL,
      space_id text NOT NULL,
      file_id text NOT NULL,
      name text NOT NULL,
      content_type text NOT NULL,
      size bigint NOT NULL,
      width integer,
      height integer,
      blob_hash bytea NOT NULL,
      PRIMARY KEY (organization_id, space_id, file_id),
      FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX space_head_files_name_idx ON space_head_files (organization_id, space_id, name, file_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['space_head_files', 'space_head_pages', 'blob_bytes', 'file_blobs', 'reusable_nodes', 'file_nodes', 'documents']) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
  await sql`TRUNCATE tree_nodes`.execute(db);
  await sql`ALTER TABLE tree_nodes DROP COLUMN data`.execute(db);
  await sql`ALTER TABLE tree_nodes ADD COLUMN entries jsonb NOT NULL`.execute(db);
}
