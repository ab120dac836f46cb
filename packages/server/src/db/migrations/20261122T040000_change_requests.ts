// Change requests (docs/design/content-model.md, "Change requests", "Merge and update"): the request rows, the users who wrote to each
// (the `contributor` list filter), and the conflicts a merge or update resolved automatically (D1).
//
// Every key leads with organization_id (Citus colocation). Everything cascades from `spaces`, so the
// purge job and a transfer's removal of the originals take change requests, their contributors and
// their recorded conflicts with the space; CR revisions are ordinary `revisions` rows of the space.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE change_requests (
      organization_id text NOT NULL,
      id text NOT NULL,
      space_id text NOT NULL,
      number integer NOT NULL CHECK (number > 0),
      status text NOT NULL CHECK (status IN ('draft', 'open', 'archived', 'merged')),
      subject text NOT NULL DEFAULT '' CHECK (char_length(subject) <= 100),
      description jsonb,
      created_by text REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      revision_id text NOT NULL,
      revision_initial_id text NOT NULL,
      revision_merged_ancestor_id text,
      revision_merged_id text,
      merged_at timestamptz(3),
      merged_by text REFERENCES users (id) ON DELETE SET NULL,
      agent_task_id text,
      -- Open comments on the request; kept exact by the comment operations once they exist.
      comments_count integer NOT NULL DEFAULT 0,
      PRIMARY KEY (organization_id, id),
      CONSTRAINT change_requests_number_key UNIQUE (organization_id, space_id, number),
      FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE,
      FOREIGN KEY (organization_id, revision_id) REFERENCES revisions (organization_id, id),
      FOREIGN KEY (organization_id, revision_initial_id) REFERENCES revisions (organization_id, id)
    )`.execute(db);
  // The list: one space, one status, newest first (keyset on created_at, id).
  await sql`CREATE INDEX change_requests_list_idx ON change_requests (organization_id, space_id, status, created_at DESC, id DESC)`.execute(db);

  await sql`
    CREATE TABLE change_request_contributors (
      organization_id text NOT NULL,
      change_request_id text NOT NULL,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      first_contributed_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, change_request_id, user_id),
      FOREIGN KEY (organization_id, change_request_id) REFERENCES change_requests (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  // The `contributor` filter starts from the user: the requests they wrote to.
  await sql`CREATE INDEX change_request_contributors_user_idx ON change_request_contributors (organization_id, user_id, change_request_id)`.execute(db);

  await sql`
    CREATE TABLE revision_conflicts (
      organization_id text NOT NULL,
      revision_id text NOT NULL,
      ordinal integer NOT NULL,
      kind text NOT NULL CHECK (kind IN ('page_field', 'document_hunk', 'modify_delete', 'move_cycle', 'slug_collision', 'file', 'reusable')),
      page_id text,
      file_id text,
      reusable_content_id text,
      field text,
      base jsonb,
      ours jsonb,
      theirs jsonb,
      resolution text NOT NULL CHECK (resolution IN ('theirs', 'ours', 'auto')),
      resolved_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, revision_id, ordinal),
      FOREIGN KEY (organization_id, revision_id) REFERENCES revisions (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['revision_conflicts', 'change_request_contributors', 'change_requests']) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}
