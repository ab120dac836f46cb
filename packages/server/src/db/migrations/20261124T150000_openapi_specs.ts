// OpenAPI specs of an organization and their versions (issue 17). A spec's source is a URL or a text;
// processing runs as a job and records its state and outcome on the spec. docs/decisions.md, "Organization
// settings"; tenant keys lead with organization_id (docs/design/data-lifecycle.md, "Tenancy").
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // `source_revision` moves whenever the source is set (create, PUT): a processing that started on an
  // older revision discards its result. `last_process_errors` holds the first problems of a failed run.
  // The JSON columns are `json`, not `jsonb`: they keep the documents' key order (a spec's paths).
  await sql`
    CREATE TABLE openapi_specs (
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      id text NOT NULL,
      slug text NOT NULL,
      source_url text,
      source_text text,
      processing_state text NOT NULL DEFAULT 'pending' CHECK (processing_state IN ('pending', 'progress', 'complete')),
      source_revision integer NOT NULL DEFAULT 1,
      last_version_id text,
      last_processed_at timestamptz(3),
      last_process_error_code text CHECK (last_process_error_code IN ('FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR')),
      last_process_errors json,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      UNIQUE (organization_id, slug),
      CHECK ((source_url IS NULL) <> (source_text IS NULL))
    )`.execute(db);
  await sql`CREATE INDEX openapi_specs_list_idx ON openapi_specs (organization_id, created_at DESC, id DESC)`.execute(db);
  // The scheduled refresh looks for URL sources processed longest ago, across organizations.
  await sql`CREATE INDEX openapi_specs_refresh_idx ON openapi_specs (last_processed_at) WHERE source_url IS NOT NULL`.execute(db);

  // `content_hash`: SHA-256 of the filesystem as stored, to store a version only when the content changed.
  await sql`
    CREATE TABLE openapi_spec_versions (
      organization_id text NOT NULL,
      spec_id text NOT NULL,
      id text NOT NULL,
      content_hash text NOT NULL,
      filesystem json NOT NULL,
      bundle json NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      FOREIGN KEY (organization_id, spec_id) REFERENCES openapi_specs (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX openapi_spec_versions_list_idx ON openapi_spec_versions (organization_id, spec_id, created_at DESC, id DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE openapi_spec_versions`.execute(db);
  await sql`DROP TABLE openapi_specs`.execute(db);
}
