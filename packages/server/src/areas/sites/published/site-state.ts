// What serving one request of a published site needs from the database, in one statement: the site an
// address names, a version of its structure (sections, groups, site spaces, the titles and deletion of
// their spaces: every column of every row, hashed by PostgreSQL), the head revision of each of its live
// spaces and, for a share-link site, the hashes of its keys. The visible structure is then computed
// once per (site, structure version, visitor's claims) and kept in memory (the `siteStructures` cache):
// a cached page view costs this one query and no other (issue 20, "Speed").
//
// Nothing of what decides who sees what is kept across requests: `published`, the visibility, the share
// keys and the heads are read on every request, and the structure is kept under the version read in the
// same statement, so a change is seen by the next request (the version is read before the structure is
// resolved: a structure kept under a version is never older than that version).
import { createHash } from 'node:crypto';
import type { AppContext } from '../../../context.js';
import type { Executor } from '../../../db/database.js';
import type { Visitor } from '../condition.js';
import { resolvePublishedStructure, type PublishedStructure } from '../published-structure.js';
import type { SiteSpaceRow } from '../structure.repository.js';
import { findSiteState, type PublishedSiteRow, type SpaceHead } from './published.repository.js';

export type SiteState = {
  site: PublishedSiteRow;
  /** Changes whenever a section, group or site space of the site, or a title or deletion of their spaces, does. */
  structureVersion: string;
  /** The head revision of each live space of the site. */
  heads: ReadonlyMap<string, SpaceHead>;
  /** The stored hashes of the site's share keys (share-link sites only). */
  shareKeyHashes: readonly Buffer[];
};

/** The site at `address` (`path:…` or `host:…`) and its state now; undefined when no site has it. */
export async function loadSiteState(db: Executor, address: string): Promise<SiteState | undefined> {
  const row = await findSiteState(db, address);
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

/**
 * The site's structure as `visitor` sees it, resolved by the API's own resolver once per version and
 * kept: one per site, version and distinct set of visitor claims (most sites have one).
 */
export function visibleStructure(app: Pick<AppContext, 'db' | 'caches'>, state: SiteState, visitor: Visitor): Promise<VisibleStructure> {
  const { site } = state;
  // The claims by their digest: a visitor token's claims may be kilobytes.
  const claims = createHash('sha256').update(JSON.stringify(visitor.claims)).digest('base64url');
  const key = `${site.id}:${state.structureVersion}:${claims}`;
  return app.caches.siteStructures.load(key, async () => {
    const structure = await resolvePublishedStructure(app.db, site.organizationId, site.id, { visitor });
    return { structure, fingerprint: fingerprint(structure) };
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
