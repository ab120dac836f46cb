// Reading a site's structure for an answer: the rows of a page, then in one query each the site spaces
// of its sections, the spaces the caller may see (ranks computed in the query: docs/design/access-model.md) and their
// published addresses. No query per item.
import { memberViewer, rankToRole } from '../../access/items.js';
import type { AccessReader } from '../../access/viewer.js';
import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { outsiderViewer, visibleSpacesQuery, type Viewer } from '../../access/listing.repository.js';
import type { Role } from '../../access/roles.js';
import { siteAddress } from '../../publication/site-addresses.js';
import { shareKeyMatches } from './audience.js';
import { shareKeyHashes, type SiteRow } from './sites.repository.js';
import { toApiSiteSection, toApiSiteSpace, type ApiSiteSection, type ApiSiteSpace, type StructureContext } from './sites.mapper.js';
import { siteSpacesInOrder, type SectionRow, type SiteSpaceRow } from './structure.repository.js';
import { publishedSpaceAddresses } from '../../publication/space-addresses.js';

/**
 * Whose eyes: a member's viewer (their ranks on the organization's spaces), or for anyone else one
 * that sees only `public` and `unlisted` spaces.
 */
export async function viewerOf(app: AccessReader, caller: Caller, organizationId: string): Promise<Viewer> {
  const viewer = await memberViewer(app, organizationId, caller.user.id);
  if (viewer && !viewer.ssoBlocked) return viewer;
  return outsiderViewer(caller.user.id, organizationId);
}

/** True when `shareKey` is a key of one of the site's share links (compared in constant time). */
export async function shareKeyOpens(db: Executor, site: SiteRow, shareKey: string | undefined): Promise<boolean> {
  if (!shareKey || site.visibility !== 'share-link') return false;
  return shareKeyMatches(shareKey, await shareKeyHashes(db, site.organizationId, site.id));
}

/** The mapping context for site spaces of `spaceIds`, with the paths of the sections they are in. */
export async function structureContext(
  app: AppContext,
  viewer: Viewer,
  site: SiteRow,
  spaceIds: readonly string[],
  sectionPaths: ReadonlyMap<string, string>,
  shareKey: string | undefined,
): Promise<StructureContext> {
  const opens = await shareKeyOpens(app.db, site, shareKey);
  const rows: Array<SpaceRow & { accessRank: number }> = spaceIds.length
    ? await visibleSpacesQuery(app.db, viewer).where('sp.id', 'in', [...new Set(spaceIds)]).execute()
    : [];
  const published = await publishedSpaceAddresses(app.db, app.urls, site.organizationId, rows, opens ? shareKey : undefined);
  const spaces = new Map<string, { space: SpaceRow; role: Role; published: string | undefined }>(
    rows.map((row) => [row.id, { space: row, role: rankToRole(row.accessRank)!, published: published.get(row.id) }]),
  );
  return {
    urls: app.urls,
    root: site.published ? siteAddress(app.urls, site) : null,
    shareKey: opens ? shareKey : undefined,
    sectionPaths,
    spaces,
  };
}

export function mapSiteSpaces(rows: readonly SiteSpaceRow[], context: StructureContext): ApiSiteSpace[] {
  return rows.map((row) => toApiSiteSpace(row, row.spaceTitle, context));
}

/** Sections with their site spaces (one query for all of them). */
export async function sectionsWithSiteSpaces(
  app: AppContext,
  viewer: Viewer,
  site: SiteRow,
  sections: readonly SectionRow[],
  shareKey: string | undefined,
): Promise<ApiSiteSection[]> {
  if (sections.length === 0) return [];
  const siteSpaces = await siteSpacesInOrder(app.db, site.organizationId, site.id, { sectionIds: sections.map((section) => section.id) });
  const paths = new Map(sections.map((section) => [section.id, section.path]));
  const context = await structureContext(app, viewer, site, siteSpaces.map((row) => row.spaceId), paths, shareKey);
  return sections.map((section) =>
    toApiSiteSection(
      section,
      mapSiteSpaces(
        siteSpaces.filter((row) => row.sectionId === section.id),
        context,
      ),
      context,
    ),
  );
}
