// People: link invites, and the indexes behind the member, team and grant lists (docs/decisions.md, "People").
// Teams, team members and grants themselves came with 20261121T210000_spaces_and_access.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The invite id is its secret (32 random characters); role NULL means "the organization's
  // defaultRole when someone joins".
  await sql`
    CREATE TABLE link_invites (
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      id text NOT NULL,
      role text,
      created_by text REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id)
    )`.execute(db);
  await sql`CREATE INDEX link_invites_list_idx ON link_invites (organization_id, created_at DESC, id DESC)`.execute(db);
  // `redundant` looks for another invite of the same organization and role.
  await sql`CREATE INDEX link_invites_role_idx ON link_invites (organization_id, role)`.execute(db);

  // Member lists sort by joined_at or last_seen_at (only members seen at least once), filter by role
  // (also how the last-admin check counts admins), and search names and e-mails by substring.
  await sql`CREATE INDEX organization_members_joined_idx ON organization_members (organization_id, joined_at, user_id)`.execute(db);
  await sql`
    CREATE INDEX organization_members_seen_idx ON organization_members (organization_id, last_seen_at, user_id)
    WHERE last_seen_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX organization_members_role_idx ON organization_members (organization_id, role, joined_at, user_id)`.execute(db);
  // Trigram indexes serve the case-insensitive "contains" filters (ILIKE '%…%'). pg_trgm is a trusted
  // extension (PostgreSQL ≥ 13): a database owner may create it without superuser rights.
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX users_display_name_trgm_idx ON users USING gin (display_name gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX users_email_trgm_idx ON users USING gin (email gin_trgm_ops)`.execute(db);

  await sql`CREATE INDEX teams_list_idx ON teams (organization_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX teams_title_trgm_idx ON teams USING gin (title gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX team_members_list_idx ON team_members (organization_id, team_id, added_at DESC, user_id DESC)`.execute(db);
  // Owners of a team (the `owner` filter of the team list, and team permissions).
  await sql`CREATE INDEX team_members_owner_idx ON team_members (organization_id, user_id) WHERE role = 'owner'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'team_members_owner_idx',
    'team_members_list_idx',
    'teams_title_trgm_idx',
    'teams_list_idx',
    'users_email_trgm_idx',
    'users_display_name_trgm_idx',
    'organization_members_role_idx',
    'organization_members_seen_idx',
    'organization_members_joined_idx',
  ]) {
    await sql`DROP INDEX ${sql.ref(index)}`.execute(db);
  }
  await sql`DROP TABLE link_invites`.execute(db);
}
