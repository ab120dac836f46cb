// SQL of custom-hostname claims (issue 25, F6): a claim is the site's `hostname` with its token; the
// `host:` row of `site_addresses` (what the published-site router looks up) exists only for a hostname
// whose DNS proved control, and belongs to the last site that proved it.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { column, rawQuery } from '../../db/raw-query.js';
import { hostAddress } from './sites.repository.js';

const claimHostnamesQuery = rawQuery({
  name: 'claimDueHostnames',
  columns: {
    organizationId: column('sites', 'organizationId'),
    siteId: column('sites', 'id'),
    hostname: column('sites', 'hostname').neverNull('WHERE hostname IS NOT NULL'),
    token: column('sites', 'hostnameToken').neverNull('set with the hostname (sites_hostname_claim_check)'),
  },
  statement: (limit: number) => sql`
    UPDATE sites s SET hostname_checked_at = now()
    FROM (
      SELECT organization_id, id FROM sites
      WHERE hostname IS NOT NULL AND hostname_verified_at IS NULL
        AND (hostname_checked_at IS NULL OR hostname_checked_at < now() - CASE
          WHEN hostname_claimed_at > now() - interval '1 hour' THEN interval '1 minute'
          WHEN hostname_claimed_at > now() - interval '1 day' THEN interval '10 minutes'
          ELSE interval '1 hour' END)
      ORDER BY hostname_checked_at NULLS FIRST
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ) due
    WHERE s.organization_id = due.organization_id AND s.id = due.id
    RETURNING s.organization_id, s.id AS site_id, s.hostname, s.hostname_token AS token`,
  shapes: [[0]],
});

export type HostnameClaim = Awaited<ReturnType<typeof claimHostnamesQuery.rows>>[number];

/**
 * Claims up to `limit` pending hostnames due for a check (across organizations, least recently checked
 * first), marking them checked now so that several instances claim disjoint sets. A claim is due after
 * a minute in its first hour, ten minutes in its first day, then an hour.
 */
export async function claimDueHostnames(db: Executor, limit: number): Promise<HostnameClaim[]> {
  return claimHostnamesQuery.rows(db, limit);
}

/** Locks the site's row while it still holds this claim (hostname and token); false once it changed. */
export async function lockClaim(trx: Executor, claim: HostnameClaim): Promise<boolean> {
  const row = await trx
    .selectFrom('sites')
    .select('id')
    .where('organizationId', '=', claim.organizationId)
    .where('id', '=', claim.siteId)
    .where('hostname', '=', claim.hostname)
    .where('hostnameToken', '=', claim.token)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** The site holding the hostname's address now (locked), if any. */
export async function lockHostnameHolder(trx: Executor, hostname: string): Promise<{ organizationId: string; siteId: string } | undefined> {
  return trx.selectFrom('siteAddresses').select(['organizationId', 'siteId']).where('address', '=', hostAddress(hostname)).forUpdate().executeTakeFirst();
}

/** Gives the hostname's address to the site (taking it from any other). */
export async function holdHostname(trx: Executor, hostname: string, organizationId: string, siteId: string): Promise<void> {
  await trx
    .insertInto('siteAddresses')
    .values({ address: hostAddress(hostname), organizationId, siteId })
    .onConflict((conflict) => conflict.column('address').doUpdateSet({ organizationId, siteId }))
    .execute();
}

/** Removes the hostname's address when the site holds it (a hostname changed or removed). */
export async function releaseHostname(trx: Executor, hostname: string, organizationId: string, siteId: string): Promise<void> {
  await trx.deleteFrom('siteAddresses').where('address', '=', hostAddress(hostname)).where('organizationId', '=', organizationId).where('siteId', '=', siteId).execute();
}
