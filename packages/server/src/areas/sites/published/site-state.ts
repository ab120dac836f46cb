// What serving one request of a published site needs from the database, in one statement: the site an
// address names, a version of its structure (sections, groups, site spaces, the titles and deletion of
// their spaces: every column of every row, hashed by PostgreSQL), the head revision of each of its live
// spaces and, for a share-link site, the hashes of its keys. The visible structure is then computed
// once per (site, structure version, visitor's claims) and kept in memory: a cached page view costs this
// one query and no other (issue 20, "Speed").
//
// Nothing of what decides who sees what is kept across requests: `published`, the visibility, the share
// keys and the heads are read on every request, and the structure is kept under the version read in the
// same statement, so a change is seen by the next request (the version is read before the structure is
// resolved: a structure kept under a version is never older than that version).
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { Visitor } from '../condition.js';
import { resolvePublishedStructure, type PublishedStructure } from '../published-structure.js';
import type { SiteSpaceRow } from '../structure.repository.js';
import { BoundedCache } from './bounded-cache.js';
import type { PublishedSiteRow, SpaceHead } from './published.repository.js';

export type SiteState = {
  site: PublishedSiteRow;
  /** Changes whenever a section, group or site space of the site, or a title or deletion of their spaces, does. */
  structureVersion: string;
  /** The head revision of each live space of the site. */
  heads: ReadonlyMap<string, SpaceHead>;
  /** The stored hashes of the site's share keys (share-link sites only). */
  shareKeyHashes: readonly Buffer[];
};

type StateRow = PublishedSiteRow & {
  sectionsVersion: string;
  groupsVersion: string;
  siteSpacesVersion: string;
  stateHeads: Array<{ spaceId: string; revisionId: string; pagesRoot: string | null; filesRoot: string | null }> | null;
  stateShareKeys: Buffer[] | null;
};

/** The site at `address` (`path:…` or `host:…`) and its state now; undefined when no site has it. */
export async function loadSiteState(db: Executor, address: string): Promise<SiteState | undefined> {
  const rowsOf = (table: string) => sql`(
    SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t.id), '')) FROM ${sql.table(table)} t
    WHERE t.organization_id = s.organization_id AND t.site_id = s.id)`;
  const { rows } = await sql<StateRow>`
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
    WHERE a.address = ${address}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const { sectionsVersion, groupsVersion, siteSpacesVersion, stateHeads, stateShareKeys, ...site } = row;
  return {
    site,
    structureVersion: `${sectionsVersion}.${groupsVersion}.${siteSpacesVersion}`,
    heads: new Map((stateHeads ?? []).map((head) => [head.spaceId, head])),
    shareKeyHashes: stateShareKeys ?? [],
  };
}

/** A visible structure with a stable description of it (part of the rendered page's key). */
export type VisibleStructure = { structure: PublishedStructure; fingerprint: string };

/** Structures kept: one per site, version and distinct set of visitor claims (most sites have one). */
const structures = new BoundedCache<VisibleStructure>({ maxEntries: 5_000 });

/** The site's structure as `visitor` sees it, resolved by the API's own resolver once per version. */
export function visibleStructure(db: Executor, state: SiteState, visitor: Visitor): Promise<VisibleStructure> {
  const { site } = state;
  const key = `${site.id}:${state.structureVersion}:${JSON.stringify(visitor.claims)}`;
  return structures.getOrLoad(key, async () => {
    const structure = await resolvePublishedStructure(db, site.organizationId, site.id, { visitor });
    return { value: { structure, fingerprint: fingerprint(structure) }, weight: 1 };
  });
}

/** A digest of everything of the visible structure that a rendered page shows. */
function fingerprint(structure: PublishedStructure): string {
  const siteSpace = (row: SiteSpaceRow) => [row.id, row.path, row.spaceTitle, row.effectiveDefault, row.updatedAt.getTime()];
  const description =
    structure.type === 'siteSpaces'
      ? structure.siteSpaces.map(siteSpace)
      : structure.items.map((item) =>
          item.kind === 'section'
            ? [item.section.id, item.section.path, item.section.title, item.section.isDefault, item.section.updatedAt.getTime(), item.siteSpaces.map(siteSpace)]
            : [item.group.id, item.group.title, item.sections.map((entry) => [entry.section.id, entry.section.path, entry.section.title, entry.section.isDefault, entry.section.updatedAt.getTime(), entry.siteSpaces.map(siteSpace)])],
        );
  return createHash('sha256').update(JSON.stringify(description)).digest('base64url');
}
