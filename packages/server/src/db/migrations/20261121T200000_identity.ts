// Users, tokens, organizations and their members, and the server's stored keys.
// Migrations never import application code: they describe the schema as it was at their time.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE users (
      id text PRIMARY KEY,
      email text NOT NULL,
      display_name text NOT NULL,
      photo_url text,
      created_at timestamptz(3) NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`.execute(db);

  await sql`
    CREATE TABLE api_tokens (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      label text NOT NULL,
      token_hash bytea NOT NULL UNIQUE,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      last_used_at timestamptz(3),
      expires_at timestamptz(3)
    )`.execute(db);
  await sql`CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, created_at DESC, id DESC)`.execute(db);

  await sql`
    CREATE TABLE organizations (
      id text PRIMARY KEY,
      title text NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      email_domains text[] NOT NULL DEFAULT '{}',
      hostname text UNIQUE,
      use_case text,
      community_type text,
      default_role text,
      default_content_site_id text,
      sso boolean NOT NULL DEFAULT false,
      ai boolean NOT NULL DEFAULT false,
      invite_links boolean NOT NULL DEFAULT true,
      custom_hostname text,
      logo_url text
    )`.execute(db);
  await sql`CREATE INDEX organizations_email_domains_idx ON organizations USING gin (email_domains)`.execute(db);

  await sql`
    CREATE TABLE organization_members (
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      role text,
      sso boolean NOT NULL DEFAULT false,
      joined_at timestamptz(3) NOT NULL DEFAULT now(),
      last_seen_at timestamptz(3),
      PRIMARY KEY (organization_id, user_id)
    )`.execute(db);
  await sql`CREATE INDEX organization_members_user_idx ON organization_members (user_id, organization_id)`.execute(db);

  await sql`
    CREATE TABLE server_keys (
      kind text PRIMARY KEY,
      material text NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      rotated_at timestamptz(3)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['server_keys', 'organization_members', 'organizations', 'api_tokens', 'users']) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}
