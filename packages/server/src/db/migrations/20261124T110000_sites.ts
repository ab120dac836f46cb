// Sites (issue 15): a site's structure (sections, optionally in groups, or site spaces at its root),
// its audience (share links, visitor authentication), adaptive schema and customization, and the
// addresses it is reached by.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sites (
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      id text NOT NULL,
      type text NOT NULL DEFAULT 'basic',
      title text NOT NULL,
      visibility text NOT NULL DEFAULT 'public',
      published boolean NOT NULL DEFAULT false,
      hostname text,
      basename text,
      proxy text,
      adaptive_content_enabled boolean NOT NULL DEFAULT false,
      adaptive_schema jsonb,
      adaptive_schema_updated_at timestamptz(3),
      customization jsonb,
      visitor_auth_fallback_url text,
      -- The HS256 key visitors' JWTs are verified with: the server must read it back, so it is kept as is.
      visitor_auth_secret text,
      visitor_auth_secret_created_at timestamptz(3),
      created_by text REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id)
    )`.execute(db);
  await sql`CREATE INDEX sites_list_idx ON sites (organization_id, created_at DESC, id DESC)`.execute(db);

  // How a visitor's request finds its site without knowing the organization (like space_locators):
  // `path:<basename or site id>` for {PUBLIC_URL}/s/…, `host:<hostname>`. The primary key makes
  // basenames, site ids and hostnames unique across the server.
  await sql`
    CREATE TABLE site_addresses (
      address text PRIMARY KEY,
      organization_id text NOT NULL,
      site_id text NOT NULL,
      FOREIGN KEY (organization_id, site_id) REFERENCES sites (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX site_addresses_site_idx ON site_addresses (organization_id, site_id)`.execute(db);

  await sql`
    CREATE TABLE site_section_groups (
      organization_id text NOT NULL,
      site_id text NOT NULL,
      id text NOT NULL,
      title text NOT NULL,
      icon text,
      position numeric NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      UNIQUE (organization_id, site_id, id),
      FOREIGN KEY (organization_id, site_id) REFERENCES sites (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX site_section_groups_order_idx ON site_section_groups (organization_id, site_id, position, id)`.execute(db);

  await sql`
    CREATE TABLE site_sections (
      organization_id text NOT NULL,
      site_id text NOT NULL,
      id text NOT NULL,
      title text NOT NULL,
      path text NOT NULL,
      description text,
      icon text,
      condition text,
      group_id text,
      -- The group id, or '' at the top level (a non-null key for the sibling order).
      group_key text GENERATED ALWAYS AS (coalesce(group_id, '')) STORED,
      is_default boolean NOT NULL DEFAULT false,
      position numeric NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      UNIQUE (organization_id, site_id, id),
      CONSTRAINT site_sections_path_key UNIQUE (organization_id, site_id, path),
      FOREIGN KEY (organization_id, site_id) REFERENCES sites (organization_id, id) ON DELETE CASCADE,
      FOREIGN KEY (organization_id, site_id, group_id) REFERENCES site_section_groups (organization_id, site_id, id) ON DELETE SET NULL (group_id)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX site_sections_default_key ON site_sections (organization_id, site_id) WHERE is_default`.execute(db);
  await sql`CREATE INDEX site_sections_order_idx ON site_sections (organization_id, site_id, group_key, position, id)`.execute(db);

  await sql`
    CREATE TABLE site_spaces (
      organization_id text NOT NULL,
      site_id text NOT NULL,
      id text NOT NULL,
      space_id text NOT NULL,
      section_id text,
      -- The section id, or '' at the site's root.
      section_key text GENERATED ALWAYS AS (coalesce(section_id, '')) STORED,
      path text NOT NULL,
      condition text,
      is_default boolean NOT NULL DEFAULT false,
      position numeric NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      CONSTRAINT site_spaces_path_key UNIQUE (organization_id, site_id, section_key, path),
      CONSTRAINT site_spaces_space_key UNIQUE (organization_id, site_id, section_key, space_id),
      FOREIGN KEY (organization_id, site_id) REFERENCES sites (organization_id, id) ON DELETE CASCADE,
      FOREIGN KEY (organization_id, site_id, section_id) REFERENCES site_sections (organization_id, site_id, id) ON DELETE CASCADE,
      -- Soft-deleting a space keeps its site spaces (they come back on restore); the purge removes them.
      FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX site_spaces_default_key ON site_spaces (organization_id, site_id, section_key) WHERE is_default`.execute(db);
  await sql`CREATE INDEX site_spaces_order_idx ON site_spaces (organization_id, site_id, section_key, position, id)`.execute(db);
  await sql`CREATE INDEX site_spaces_space_idx ON site_spaces (organization_id, space_id)`.execute(db);

  await sql`
    CREATE TABLE site_share_links (
      organization_id text NOT NULL,
      site_id text NOT NULL,
      id text NOT NULL,
      label text NOT NULL,
      key_hash bytea NOT NULL,
      created_by text REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      FOREIGN KEY (organization_id, site_id) REFERENCES sites (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX site_share_links_list_idx ON site_share_links (organization_id, site_id, created_at DESC, id DESC)`.execute(db);

  // True while some published site holds the space (kept by the sites area in the transaction of each
  // change that can move it): reading a space looks its published address up only then.
  await sql`ALTER TABLE spaces ADD COLUMN in_published_site boolean NOT NULL DEFAULT false`.execute(db);

  // `defaultContent.site` names a site of the organization; deleting that site clears it.
  await sql`
    ALTER TABLE organizations ADD CONSTRAINT organizations_default_site_fkey FOREIGN KEY (id, default_content_site_id)
    REFERENCES sites (organization_id, id) ON DELETE SET NULL (default_content_site_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE organizations DROP CONSTRAINT organizations_default_site_fkey`.execute(db);
  await sql`ALTER TABLE spaces DROP COLUMN in_published_site`.execute(db);
  for (const table of ['site_share_links', 'site_spaces', 'site_sections', 'site_section_groups', 'site_addresses', 'sites']) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}
