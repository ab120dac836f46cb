// Custom hostnames of sites prove control before they are served (issue 25, F6): a claim stays pending
// until DNS shows the claim's token (areas/sites/hostnames.service.ts); only then does the site hold
// the `host:` address the published-site router looks up. The token is made per claim, so a record
// made for one site never proves another's. Claims are not unique across organizations (a pending
// claim blocks nobody: whoever proves control holds the hostname); within an organization one site
// holds a hostname.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE sites
      ADD COLUMN hostname_token text,
      ADD COLUMN hostname_claimed_at timestamptz(3),
      ADD COLUMN hostname_verified_at timestamptz(3),
      ADD COLUMN hostname_checked_at timestamptz(3),
      ADD COLUMN hostname_problem text`.execute(db);
  // Hostnames claimed before verification existed were never proven: pending from now on, each with a
  // token of its own, and no longer served until their DNS shows it.
  await sql`
    UPDATE sites SET hostname_token = replace(gen_random_uuid()::text, '-', ''), hostname_claimed_at = now()
    WHERE hostname IS NOT NULL`.execute(db);
  await sql`DELETE FROM site_addresses WHERE address LIKE 'host:%'`.execute(db);
  await sql`
    ALTER TABLE sites
      ADD CONSTRAINT sites_hostname_claim_check CHECK ((hostname IS NULL) = (hostname_token IS NULL) AND (hostname IS NULL) = (hostname_claimed_at IS NULL)),
      ADD CONSTRAINT sites_hostname_verified_check CHECK (hostname_verified_at IS NULL OR hostname IS NOT NULL)`.execute(db);
  await sql`CREATE UNIQUE INDEX sites_hostname_key ON sites (organization_id, hostname)`.execute(db);
  // The verification job's queue: pending claims, least recently checked first (across organizations).
  await sql`
    CREATE INDEX sites_pending_hostnames_idx ON sites (hostname_checked_at NULLS FIRST)
    WHERE hostname IS NOT NULL AND hostname_verified_at IS NULL`.execute(db);
}

/** Verified hostnames keep their address; a pending one stays unserved until it is set again. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX sites_pending_hostnames_idx`.execute(db);
  await sql`DROP INDEX sites_hostname_key`.execute(db);
  await sql`
    ALTER TABLE sites
      DROP CONSTRAINT sites_hostname_verified_check,
      DROP CONSTRAINT sites_hostname_claim_check,
      DROP COLUMN hostname_problem,
      DROP COLUMN hostname_checked_at,
      DROP COLUMN hostname_verified_at,
      DROP COLUMN hostname_claimed_at,
      DROP COLUMN hostname_token`.execute(db);
}
