// SQL of the published sites: the one statement each request makes (site-state.ts keeps what it
// allows), and the recent page trees of a space (for redirects of moved pages).
import { sql, type Selectable } from 'kysely';
import { PREPARED, type Database, type Executor } from '../../../db/database.js';
import { rawQuery, value } from '../../../db/raw-query.js';
import type { SitesTable } from '../../../db/schema.js';

export type PublishedSiteRow = Selectable<SitesTable>;

/** A live space's head as the site state carries it (JSON: the roots in hex). */
export type SpaceHead = { spaceId: string; revisionId: string; pagesRoot: string | null; filesRoot: string | null };

/** The md5 of every row of `table` for the site `s` (moves when any of them changes). */
const rowsOf = (table: string) => sql`(
  SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t.id), '')) FROM ${sql.table(table)} t
  WHERE t.organization_id = s.organization_id AND t.site_id = s.id)`;

/**
 * The site at `address` (`path:…` or `host:…`) with what serving a request needs, in one statement:
 * md5 versions of its sections, groups and site spaces (every column, and their spaces' titles and
 * deletion), the head of each live space it holds, and the key hashes of a share-link site. Prepared
 * (db/database.ts, PREPARED): every request to a site makes it, and parsing and planning it took
 * ~2 ms of its ~2.3 (a cached answer of the search dialog took ~10 ms in all).
 */
const siteStateQuery = rawQuery({
  name: 'findSiteState',
  allColumnsOf: 'sites',
  columns: {
    sectionsVersion: value('text'),
    groupsVersion: value('text'),
    siteSpacesVersion: value('text'),
    stateHeads: value('json').orNull().as<SpaceHead[] | null>(),
    stateShareKeys: value('bytea[]').orNull(),
  },
  statement: (address: string) => sql`${PREPARED}
    SELECT s.*,
      ${rowsOf('site_sections')} AS sections_version,
      ${rowsOf('site_section_groups')} AS groups_version,
      (SELECT md5(coalesce(string_agg(t::text || sp.title || (sp.deleted_at IS NULL)::text, '|' ORDER BY t.id), ''))
        FROM site_spaces t JOIN spaces sp ON sp.organization_id = t.organization_id AND sp.id = t.space_id
        WHERE t.organization_id = s.organization_id AND t.site_id = s.id) AS site_spaces_version,
      (SELECT json_agg(json_build_object('spaceId', sp.id, 'revisionId', sp.head_revision_id,
          'pagesRoot', encode(r.pages_root, 'hex'), 'filesRoot', encode(r.files_root, 'hex')))
        FROM spaces sp JOIN revisions r ON r.organization_id = sp.organization_id AND r.id = sp.head_revision_id
        WHERE sp.organization_id = s.organization_id AND sp.deleted_at IS NULL
          AND sp.id IN (SELECT ss.space_id FROM site_spaces ss WHERE ss.organization_id = s.organization_id AND ss.site_id = s.id)) AS state_heads,
      CASE WHEN s.visibility = 'share-link' THEN
        (SELECT coalesce(array_agg(l.key_hash), '{}') FROM site_share_links l WHERE l.organization_id = s.organization_id AND l.site_id = s.id)
      END AS state_share_keys
    FROM site_addresses a
    JOIN sites s ON s.organization_id = a.organization_id AND s.id = a.site_id
    WHERE a.address = ${address}`,
  shapes: [['']],
});

export type SiteStateRow = Awaited<ReturnType<typeof siteStateQuery.rows>>[number];

export async function findSiteState(db: Executor, address: string): Promise<SiteStateRow | undefined> {
  const [row] = await siteStateQuery.rows(db, address);
  return row;
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

type SocialImageKey = { organizationId: string; siteId: string; spaceId: string; pageId: string; inputHash: string };

/** The columns naming a page's social images (all hashes). */
const ofPage = ({ organizationId, siteId, spaceId, pageId }: SocialImageKey) => ({ organizationId, siteId, spaceId, pageId });

/** A page's kept social image of this hash (site-social.ts). */
export async function findSocialImage(db: Executor, key: SocialImageKey): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('siteSocialImages')
    .select('png')
    .where((eb) => eb.and({ ...ofPage(key), inputHash: key.inputHash }))
    .executeTakeFirst();
  return row?.png;
}

/** Keeps a page's social image, and drops the page's images of other hashes, in one transaction: one image per page. */
export async function keepSocialImage(db: Database, values: SocialImageKey & { png: Buffer }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('siteSocialImages')
      .where((eb) => eb.and(ofPage(values)))
      .where('inputHash', '<>', values.inputHash)
      .execute();
    await trx.insertInto('siteSocialImages').values(values).onConflict((oc) => oc.doNothing()).execute();
  });
}
