// Collections, spaces, their locators, the access tables (teams, team members, grants) and the start
// of the content store (revisions, tree nodes): docs/design/access-model.md, docs/design/content-model.md.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Roles as ranks, for taking the highest of several grants in SQL. NULL (no role) ranks 0.
  await sql`
    CREATE FUNCTION cw_role_rank(role text) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE role WHEN 'read' THEN 1 WHEN 'comment' THEN 2 WHEN 'edit' THEN 3 WHEN 'review' THEN 4
                       WHEN 'create' THEN 5 WHEN 'admin' THEN 6 ELSE 0 END
    $$`.execute(db);

  // Paths such as /v1/spaces/{spaceId} name no organization: resolve it here first (reference tables under Citus).
  await sql`CREATE TABLE space_locators (space_id text PRIMARY KEY, organization_id text NOT NULL)`.execute(db);
  await sql`CREATE TABLE collection_locators (collection_id text PRIMARY KEY, organization_id text NOT NULL)`.execute(db);

  await sql`
    CREATE TABLE collections (
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      id text NOT NULL,
      title text NOT NULL,
      description text,
      parent_collection_id text,
      default_level text DEFAULT 'inherit',
      position numeric NOT NULL,
      created_by text REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      FOREIGN KEY (organization_id, parent_collection_id) REFERENCES collections (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX collections_parent_idx ON collections (organization_id, parent_collection_id, position, id)`.execute(db);

  await sql`
    CREATE TABLE spaces (
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      id text NOT NULL,
      title text NOT NULL,
      emoji text NOT NULL DEFAULT '',
      visibility text NOT NULL,
      edit_mode text NOT NULL DEFAULT 'live',
      parent_collection_id text,
      default_level text DEFAULT 'inherit',
      position numeric NOT NULL,
      head_revision_id text NOT NULL,
      cr_seq integer NOT NULL DEFAULT 0,
      comments_count integer NOT NULL DEFAULT 0,
      change_requests_count integer NOT NULL DEFAULT 0,
      change_requests_open_count integer NOT NULL DEFAULT 0,
      change_requests_draft_count integer NOT NULL DEFAULT 0,
      created_by text REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      deleted_at timestamptz(3),
      PRIMARY KEY (organization_id, id),
      -- Deleting a collection leaves its (soft-deleted) spaces without a parent: restored, they return to the top level.
      FOREIGN KEY (organization_id, parent_collection_id) REFERENCES collections (organization_id, id) ON DELETE SET NULL (parent_collection_id)
    )`.execute(db);
  await sql`CREATE INDEX spaces_parent_idx ON spaces (organization_id, parent_collection_id, position, id) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX spaces_deleted_idx ON spaces (deleted_at) WHERE deleted_at IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE teams (
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      id text NOT NULL,
      title text NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id)
    )`.execute(db);
  await sql`
    CREATE TABLE team_members (
      organization_id text NOT NULL,
      team_id text NOT NULL,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      role text NOT NULL DEFAULT 'member',
      added_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, team_id, user_id),
      FOREIGN KEY (organization_id, team_id) REFERENCES teams (organization_id, id) ON DELETE CASCADE,
      FOREIGN KEY (organization_id, user_id) REFERENCES organization_members (organization_id, user_id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX team_members_user_idx ON team_members (organization_id, user_id)`.execute(db);

  // Grants: a role for a user or a team on a space or a collection (flowing down to everything inside).
  for (const [table, target, parent] of [
    ['space_grants', 'space_id', 'spaces'],
    ['collection_grants', 'collection_id', 'collections'],
  ] as const) {
    await sql`
      CREATE TABLE ${sql.table(table)} (
        organization_id text NOT NULL,
        ${sql.ref(target)} text NOT NULL,
        principal_kind text NOT NULL CHECK (principal_kind IN ('user', 'team')),
        principal_id text NOT NULL,
        role text NOT NULL,
        granted_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, ${sql.ref(target)}, principal_kind, principal_id),
        FOREIGN KEY (organization_id, ${sql.ref(target)}) REFERENCES ${sql.table(parent)} (organization_id, id) ON DELETE CASCADE
      )`.execute(db);
    await sql`CREATE INDEX ${sql.ref(`${table}_principal_idx`)} ON ${sql.table(table)} (organization_id, principal_kind, principal_id)`.execute(db);
  }

  // Content store (docs/design/content-model.md): immutable revisions over content-addressed tree nodes.
  await sql`
    CREATE TABLE revisions (
      organization_id text NOT NULL,
      id text NOT NULL,
      space_id text NOT NULL,
      type text NOT NULL,
      parent_ids text[] NOT NULL DEFAULT '{}',
      change_request_id text,
      merged_from_change_request_id text,
      pages_root bytea,
      files_root bytea,
      reusable_root bytea,
      page_count integer NOT NULL DEFAULT 0,
      created_by text REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      git jsonb,
      PRIMARY KEY (organization_id, id),
      FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX revisions_space_idx ON revisions (organization_id, space_id, created_at DESC, id DESC)`.execute(db);
  await sql`
    CREATE TABLE tree_nodes (
      organization_id text NOT NULL,
      hash bytea NOT NULL,
      entries jsonb NOT NULL,
      PRIMARY KEY (organization_id, hash)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['tree_nodes', 'revisions', 'collection_grants', 'space_grants', 'team_members', 'teams', 'spaces', 'collections', 'collection_locators', 'space_locators']) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
  await sql`DROP FUNCTION cw_role_rank(text)`.execute(db);
}
