// `urls.published` of spaces (docs/decisions.md, "Sites"): the space's address in the first published site holding
// it (sites by creation; within a site, in its order). With a share-link key that opens a published
// `share-link` site holding the space, that site's address carrying the key. One query for a whole page
// of spaces, and none at all when no space of the page is in a published site (`in_published_site`).
import { sql } from 'kysely';
import { PREPARED, type Executor } from '../db/database.js';
import { column, rawQuery, value } from '../db/raw-query.js';
import type { Urls } from '../urls.js';
import { hashShareKey } from './share-key.js';
import { siteAddress, siteSpaceAddress, withShareKey } from './site-addresses.js';

/**
 * Per space, the first published site holding it: sites by creation, within a site in its order, a
 * share-link site the key opens first (`opened`).
 */
const addressesQuery = rawQuery({
  name: 'publishedSpaceAddresses',
  columns: {
    spaceId: column('siteSpaces', 'spaceId'),
    siteId: column('sites', 'id'),
    hostname: column('sites', 'hostname'),
    hostnameVerifiedAt: column('sites', 'hostnameVerifiedAt'),
    basename: column('sites', 'basename'),
    sectionPath: column('siteSections', 'path').orNull(),
    path: column('siteSpaces', 'path'),
    opened: value('bool').neverNull('visibility is never null; the key test and EXISTS never are'),
  },
  // Prepared (db/database.ts PREPARED): parsed once per connection, and a page's lookup runs on a generic
  // plan (unprepared, every call was parsed and planned: ~0.8 ms more per call on the loaded bench machine).
  statement: (organizationId: string, spaceIds: string[], keyHash: Buffer | null) => sql`${PREPARED}
    SELECT DISTINCT ON (ss.space_id) ss.space_id, s.id AS site_id, s.hostname, s.hostname_verified_at, s.basename, sec.path AS section_path, ss.path,
      (s.visibility = 'share-link' AND ${keyHash}::bytea IS NOT NULL AND EXISTS (
        SELECT 1 FROM site_share_links l WHERE l.organization_id = s.organization_id AND l.site_id = s.id AND l.key_hash = ${keyHash}::bytea)) AS opened
    FROM site_spaces ss
    JOIN sites s ON s.organization_id = ss.organization_id AND s.id = ss.site_id AND s.published
    LEFT JOIN site_sections sec ON sec.organization_id = ss.organization_id AND sec.id = ss.section_id
    LEFT JOIN site_section_groups g ON g.organization_id = sec.organization_id AND g.id = sec.group_id
    WHERE ss.organization_id = ${organizationId} AND ss.space_id = ANY(${spaceIds}::text[])
    ORDER BY ss.space_id, opened DESC, s.created_at, s.id,
      coalesce(g.position, sec.position, 0), coalesce(g.id, sec.id, ''), CASE WHEN sec.group_id IS NULL THEN 0 ELSE sec.position END,
      ss.position, ss.id`,
  shapes: [['', [], null]],
});

export async function publishedSpaceAddresses(
  db: Executor,
  urls: Urls,
  organizationId: string,
  spaces: ReadonlyArray<{ id: string; inPublishedSite: boolean }>,
  shareKey?: string,
): Promise<Map<string, string>> {
  const ids = spaces.filter((space) => space.inPublishedSite).map((space) => space.id);
  if (ids.length === 0) return new Map();
  // The key is looked up by its SHA-256: the time of an index lookup by hash says nothing about stored keys.
  const keyHash = shareKey ? hashShareKey(shareKey) : null;
  const rows = await addressesQuery.rows(db, organizationId, ids, keyHash);
  return new Map(
    rows.map((row) => [row.spaceId, withShareKey(siteSpaceAddress(siteAddress(urls, { id: row.siteId, ...row }), row.sectionPath, row.path), row.opened ? shareKey : undefined)]),
  );
}

/** One space's published address (no query unless it is in a published site). */
export async function publishedSpaceAddress(db: Executor, urls: Urls, space: { organizationId: string; id: string; inPublishedSite: boolean }, shareKey?: string): Promise<string | undefined> {
  return (await publishedSpaceAddresses(db, urls, space.organizationId, [space], shareKey)).get(space.id);
}
