// SAML providers of an organization, and the assertions they signed that were already accepted
// (replay protection). docs/decisions.md, "SAML and SSO"; tenant keys lead with organization_id (docs/design/data-lifecycle.md, "Tenancy").
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // `active` is the provider's status: kept by PostgreSQL, so the SSO login list and the
  // sign-in routes read one column. Deleting the default team clears only default_team_id (PG ≥ 15).
  await sql`
    CREATE TABLE saml_providers (
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      id text NOT NULL,
      label text NOT NULL,
      entity_id text,
      sso_url text,
      certificate text,
      default_team_id text,
      default_role text,
      active boolean NOT NULL GENERATED ALWAYS AS (entity_id IS NOT NULL AND sso_url IS NOT NULL AND certificate IS NOT NULL) STORED,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      FOREIGN KEY (organization_id, default_team_id) REFERENCES teams (organization_id, id) ON DELETE SET NULL (default_team_id)
    )`.execute(db);
  await sql`CREATE INDEX saml_providers_list_idx ON saml_providers (organization_id, created_at DESC, id DESC)`.execute(db);

  // An assertion id is kept until the assertion expires (its NotOnOrAfter plus the accepted clock
  // skew): after that the assertion itself is refused, so the row is no longer needed. Expired rows
  // of an organization are deleted whenever it accepts a new assertion (the expiry index).
  await sql`
    CREATE TABLE saml_consumed_assertions (
      organization_id text NOT NULL,
      provider_id text NOT NULL,
      assertion_id text NOT NULL,
      expires_at timestamptz(3) NOT NULL,
      consumed_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, provider_id, assertion_id),
      FOREIGN KEY (organization_id, provider_id) REFERENCES saml_providers (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX saml_consumed_assertions_expiry_idx ON saml_consumed_assertions (organization_id, expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE saml_consumed_assertions`.execute(db);
  await sql`DROP TABLE saml_providers`.execute(db);
}
