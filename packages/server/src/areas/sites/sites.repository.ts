// SQL of sites themselves: their rows (with the exact `siteSpaces` count), their addresses, share
// links, and the lock every change of a site's structure takes. Always filtered by organization.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { SiteShareLinksTable, SitesTable } from '../../db/schema.js';

export type SiteRow = Selectable<SitesTable> & { siteSpacesCount: number };

/** Site spaces of live spaces (a deleted space's come back with it). */
const siteSpacesCount = sql<number>`(
  SELECT count(*)::int FROM site_spaces ss
  JOIN spaces sp ON sp.organization_id = ss.organization_id AND sp.id = ss.space_id AND sp.deleted_at IS NULL
  WHERE ss.organization_id = s.organization_id AND ss.site_id = s.id
)`.as('siteSpacesCount');

function sitesQuery(db: Executor, organizationId: string) {
  return db.selectFrom('sites as s').selectAll('s').select(siteSpacesCount).where('s.organizationId', '=', organizationId);
}

export async function findSite(db: Executor, organizationId: string, siteId: string): Promise<SiteRow | undefined> {
  return sitesQuery(db, organizationId).where('s.id', '=', siteId).executeTakeFirst();
}

export type SiteFilters = { space?: string | undefined; title?: string | undefined; published?: boolean | undefined };

/** The organization's sites matching the list filters, for keysetPage (`s.createdAt`, `s.id`). */
export function filteredSitesQuery(db: Executor, organizationId: string, filters: SiteFilters) {
  let query = sitesQuery(db, organizationId);
  if (filters.published !== undefined) query = query.where('s.published', '=', filters.published);
  if (filters.title) query = query.where(sql<boolean>`strpos(lower(s.title), lower(${filters.title})) > 0`);
  if (filters.space) {
    query = query.where(sql<boolean>`EXISTS (
      SELECT 1 FROM site_spaces ss WHERE ss.organization_id = s.organization_id AND ss.site_id = s.id AND ss.space_id = ${filters.space})`);
  }
  return query;
}

/**
 * Serializes the changes of an organization's sites (structure, publication, defaults) for the rest of
 * the transaction: they are few and short, and one order keeps the `in_published_site` flags of
 * spaces shared by several sites exact (each change recomputes them from what the previous committed).
 */
export async function lockSites(trx: Executor, organizationId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('sites'), hashtext(${organizationId}))`.execute(trx);
}

export async function insertSite(db: Executor, values: Insertable<SitesTable>): Promise<void> {
  await db.insertInto('sites').values(values).execute();
}

export async function updateSite(db: Executor, organizationId: string, siteId: string, patch: Updateable<SitesTable>): Promise<void> {
  await db
    .updateTable('sites')
    .set({ ...patch, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', siteId)
    .execute();
}

export async function deleteSite(db: Executor, organizationId: string, siteId: string): Promise<void> {
  await db.deleteFrom('sites').where('organizationId', '=', organizationId).where('id', '=', siteId).execute();
}

/** `path:` addresses are looked up under {PUBLIC_URL}/s/…, `host:` ones by the request's host. */
export const pathAddress = (segment: string) => `path:${segment}`;
export const hostAddress = (hostname: string) => `host:${hostname}`;

/** Moves one address of the site from `previous` to `next` (either may be null); unique across the server. */
export async function replaceSiteAddress(db: Executor, organizationId: string, siteId: string, previous: string | null, next: string | null): Promise<void> {
  if (previous === next) return;
  if (previous) await db.deleteFrom('siteAddresses').where('address', '=', previous).where('siteId', '=', siteId).execute();
  if (next) await db.insertInto('siteAddresses').values({ address: next, organizationId, siteId }).execute();
}

/** The site an address names (the renderer's first lookup). */
export async function findSiteByAddress(db: Executor, address: string): Promise<{ organizationId: string; siteId: string } | undefined> {
  return db.selectFrom('siteAddresses').select(['organizationId', 'siteId']).where('address', '=', address).executeTakeFirst();
}

// ---- Share links ----

export type ShareLinkRow = Selectable<SiteShareLinksTable>;

export function shareLinksQuery(db: Executor, organizationId: string, siteId: string) {
  return db.selectFrom('siteShareLinks as l').selectAll('l').where('l.organizationId', '=', organizationId).where('l.siteId', '=', siteId);
}

export async function countShareLinks(db: Executor, organizationId: string, siteId: string): Promise<number> {
  const row = await db
    .selectFrom('siteShareLinks')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('organizationId', '=', organizationId)
    .where('siteId', '=', siteId)
    .executeTakeFirstOrThrow();
  return row.count;
}

export async function insertShareLink(db: Executor, values: Insertable<SiteShareLinksTable>): Promise<ShareLinkRow> {
  return db.insertInto('siteShareLinks').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function deleteShareLink(db: Executor, organizationId: string, siteId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('siteShareLinks').where('organizationId', '=', organizationId).where('siteId', '=', siteId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The key hashes of the site's share links (a site holds at most 100). */
export async function shareKeyHashes(db: Executor, organizationId: string, siteId: string): Promise<Buffer[]> {
  const rows = await db.selectFrom('siteShareLinks').select('keyHash').where('organizationId', '=', organizationId).where('siteId', '=', siteId).execute();
  return rows.map((row) => row.keyHash);
}

// ---- Published flags of spaces ----

/**
 * Recomputes `spaces.in_published_site` for `spaceIds` from the sites as they are now (run under
 * lockSites, after the change): true while a published site holds the space.
 */
export async function refreshPublishedFlags(trx: Executor, organizationId: string, spaceIds: readonly string[]): Promise<void> {
  if (spaceIds.length === 0) return;
  await sql`
    WITH flags AS (
      SELECT sp.id, EXISTS (
        SELECT 1 FROM site_spaces ss JOIN sites s ON s.organization_id = ss.organization_id AND s.id = ss.site_id
        WHERE ss.organization_id = sp.organization_id AND ss.space_id = sp.id AND s.published
      ) AS published
      FROM spaces sp WHERE sp.organization_id = ${organizationId} AND sp.id = ANY(${[...new Set(spaceIds)]}::text[])
    )
    UPDATE spaces sp SET in_published_site = flags.published FROM flags
    WHERE sp.organization_id = ${organizationId} AND sp.id = flags.id AND sp.in_published_site IS DISTINCT FROM flags.published`.execute(trx);
}

/** The ids of the spaces a site holds (deleted ones included). */
export async function spaceIdsOfSite(db: Executor, organizationId: string, siteId: string, sectionId?: string): Promise<string[]> {
  let query = db.selectFrom('siteSpaces').select('spaceId').distinct().where('organizationId', '=', organizationId).where('siteId', '=', siteId);
  if (sectionId !== undefined) query = query.where('sectionId', '=', sectionId);
  return (await query.execute()).map((row) => row.spaceId);
}
