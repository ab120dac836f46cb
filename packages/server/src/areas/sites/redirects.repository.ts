// SQL of a site's redirects (redirects.service.ts decides what is written; the published site looks
// a source up before its 404: published/site-redirects.ts).
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { SiteRedirectsTable } from '../../db/schema.js';

export type RedirectRow = Selectable<SiteRedirectsTable>;
export type RedirectValues = Pick<Insertable<SiteRedirectsTable>, 'source' | 'targetKind' | 'targetSpaceId' | 'targetPageId' | 'targetUrl' | 'permanent'>;

/** The site's redirects (alias `r`), for the list: ordered by the unique (site, source) key. */
export function redirectsQuery(db: Executor, organizationId: string, siteId: string) {
  return db.selectFrom('siteRedirects as r').selectAll('r').where('r.organizationId', '=', organizationId).where('r.siteId', '=', siteId);
}

export async function findRedirect(db: Executor, organizationId: string, siteId: string, id: string): Promise<RedirectRow | undefined> {
  return redirectsQuery(db, organizationId, siteId).where('r.id', '=', id).executeTakeFirst();
}

export async function findRedirectBySource(db: Executor, organizationId: string, siteId: string, source: string): Promise<RedirectRow | undefined> {
  return redirectsQuery(db, organizationId, siteId).where('r.source', '=', source).executeTakeFirst();
}

export async function countRedirects(db: Executor, organizationId: string, siteId: string): Promise<number> {
  const row = await db
    .selectFrom('siteRedirects')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('organizationId', '=', organizationId)
    .where('siteId', '=', siteId)
    .executeTakeFirstOrThrow();
  return row.count;
}

export async function insertRedirects(db: Executor, rows: Insertable<SiteRedirectsTable>[]): Promise<RedirectRow[]> {
  if (rows.length === 0) return [];
  return db.insertInto('siteRedirects').values(rows).returningAll().execute();
}

export async function updateRedirect(db: Executor, organizationId: string, siteId: string, id: string, values: Updateable<SiteRedirectsTable>): Promise<RedirectRow | undefined> {
  return db
    .updateTable('siteRedirects')
    .set({ ...values, updatedAt: sql<Date>`now()` as never })
    .where('organizationId', '=', organizationId)
    .where('siteId', '=', siteId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteRedirect(db: Executor, organizationId: string, siteId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('siteRedirects').where('organizationId', '=', organizationId).where('siteId', '=', siteId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Which of `spaceIds` the site shows in one of its site spaces (a page target must be one of them). */
export async function spacesOfSite(db: Executor, organizationId: string, siteId: string, spaceIds: readonly string[]): Promise<Set<string>> {
  if (spaceIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('siteSpaces')
    .select('spaceId')
    .distinct()
    .where('organizationId', '=', organizationId)
    .where('siteId', '=', siteId)
    .where('spaceId', 'in', spaceIds)
    .execute();
  return new Set(rows.map((row) => row.spaceId));
}
