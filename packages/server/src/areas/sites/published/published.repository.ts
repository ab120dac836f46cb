// SQL of the published sites: the site an address names, the head revisions of a site's spaces, and
// the recent page trees of a space (for redirects of moved pages). Always within one organization
// once the site is known.
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { SitesTable } from '../../../db/schema.js';

export type PublishedSiteRow = Selectable<SitesTable>;

/** The site an address names (`path:…` or `host:…`), with what serving it needs; one indexed lookup. */
export async function findSiteAtAddress(db: Executor, address: string): Promise<PublishedSiteRow | undefined> {
  return db
    .selectFrom('siteAddresses as a')
    .innerJoin('sites as s', (join) => join.onRef('s.organizationId', '=', 'a.organizationId').onRef('s.id', '=', 'a.siteId'))
    .selectAll('s')
    .where('a.address', '=', address)
    .executeTakeFirst();
}

export type SpaceHead = { spaceId: string; revisionId: string; pagesRoot: string | null; filesRoot: string | null };

const hex = (value: Buffer | null) => (value ? value.toString('hex') : null);

/** The head revision of each live space of `spaceIds`, in one query. */
export async function spaceHeads(db: Executor, organizationId: string, spaceIds: readonly string[]): Promise<Map<string, SpaceHead>> {
  if (spaceIds.length === 0) return new Map();
  const { rows } = await sql<{ spaceId: string; revisionId: string; pagesRoot: Buffer | null; filesRoot: Buffer | null }>`
    SELECT s.id AS space_id, s.head_revision_id AS revision_id, r.pages_root, r.files_root
    FROM spaces s JOIN revisions r ON r.organization_id = s.organization_id AND r.id = s.head_revision_id
    WHERE s.organization_id = ${organizationId} AND s.id = ANY(${[...new Set(spaceIds)]}::text[]) AND s.deleted_at IS NULL`.execute(db);
  return new Map(rows.map((row) => [row.spaceId, { spaceId: row.spaceId, revisionId: row.revisionId, pagesRoot: hex(row.pagesRoot), filesRoot: hex(row.filesRoot) }]));
}

/** The page-tree roots of the space's last `limit` revisions on its primary line, newest first. */
export async function recentPageRoots(db: Executor, organizationId: string, spaceId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('revisions')
    .select('pagesRoot')
    .where('organizationId', '=', organizationId)
    .where('spaceId', '=', spaceId)
    .where('changeRequestId', 'is', null)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return [...new Set(rows.flatMap((row) => (row.pagesRoot ? [row.pagesRoot.toString('hex')] : [])))];
}
