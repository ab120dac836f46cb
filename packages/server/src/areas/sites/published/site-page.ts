// The page an address of a site names, for one visitor: the model every page-shaped answer shares (the
// HTML page, and any other form of a page). An address is read under each way the site's structure
// allows (site-navigation.ts `locate`), and the first reading under which the page exists wins; a path
// that a page had in a recent revision leads to where it is now, and a group's address to its first
// document.
import { createHash } from 'node:crypto';
import type { PageEntry } from '../../../content/model.js';
import type { SiteSpaceRow } from '../structure.repository.js';
import type { SpaceHead } from './published.repository.js';
import { locate, siteSpacePath, type Located, type SectionEntry } from './site-navigation.js';
import type { VisibleStructure } from './site-state.js';
import type { SiteVisit } from './site-visit.js';
import { movedPage, spaceModel, type SpaceModel } from './space-model.js';

/** A page found: where the site shows it, its space's model at the head, and the page. */
export type SitePage = { located: Located; head: SpaceHead; model: SpaceModel; page: PageEntry };

export type PageLookup =
  | { kind: 'page'; found: SitePage }
  /** The address of a page that moved, or of a group: answered by a redirect to `location`. */
  | { kind: 'moved'; location: string }
  | { kind: 'group'; location: string }
  /** Nothing at the address. */
  | { kind: 'none' }
  /** A group without documents: no page, and not another endpoint's address either. */
  | { kind: 'empty' };

/** The address of a page of `model` (a site space's head) below the site's root. */
export function pageHref(root: string, section: SectionEntry | null, siteSpace: SiteSpaceRow, model: SpaceModel, pageId: string): string {
  return `${root}${siteSpacePath(section, siteSpace)}/${model.pathById.get(pageId)}`;
}

/** The first document at or under `id` (a group's address leads there). */
export function firstDocumentUnder(model: SpaceModel, id: string): string | undefined {
  const stack = [id];
  while (stack.length > 0) {
    const next = stack.shift()!;
    const page = model.tree.pages.get(next);
    if (page?.type === 'document') return next;
    stack.unshift(...(model.tree.childrenOf.get(next) ?? []));
  }
  return undefined;
}

/** The page at `segments` (below the site's root) as `visit`'s visitor sees the site. */
export async function findPage(visit: SiteVisit, visible: VisibleStructure, segments: readonly string[]): Promise<PageLookup> {
  const { app, site, root } = visit;
  const readings = locate(visible.structure, segments);
  if (readings.length === 0) return { kind: 'none' };
  const { heads } = visit.state;
  const pageAt = async (reading: Located) => {
    const head = heads.get(reading.siteSpace.spaceId);
    if (!head) return undefined;
    const model = await spaceModel(app, site.organizationId, head.pagesRoot);
    const pageId = reading.pagePath === '' ? model.firstPage : model.idByPath.get(reading.pagePath);
    return { head, model, pageId };
  };
  let located = readings[0]!;
  let found = await pageAt(located);
  for (const reading of readings.slice(1)) {
    if (found?.pageId) break;
    const other = await pageAt(reading);
    if (other?.pageId) [located, found] = [reading, other];
  }
  if (!found) return { kind: 'none' };
  const { head, model, pageId } = found;
  if (!pageId) {
    // A page that moved: under any reading of the address, its path in a recent revision.
    for (const reading of readings) {
      const candidate = reading.pagePath === '' ? undefined : await pageAt(reading);
      if (!candidate) continue;
      const moved = await movedPage(app, site.organizationId, reading.siteSpace.spaceId, candidate.head.pagesRoot, candidate.model, reading.pagePath);
      if (moved) return { kind: 'moved', location: pageHref(root, reading.section, reading.siteSpace, candidate.model, moved) };
    }
    return { kind: 'none' };
  }
  const page = model.tree.pages.get(pageId)!;
  if (page.type === 'group') {
    const target = firstDocumentUnder(model, pageId);
    return target ? { kind: 'group', location: pageHref(root, located.section, located.siteSpace, model, target) } : { kind: 'empty' };
  }
  return { kind: 'page', found: { located, head, model, page } };
}

/**
 * The key of a view of the site for one visitor (the `sitePages` cache's, and its ETag): over everything
 * it shows — the form and its rendering's version, the site and its version, the root, the visitor's
 * structure, the head revision of every space of the site (revisions are immutable) and, for a form of
 * one page, the page. A cached view then costs the one query of the site's state.
 */
export function viewKey(visit: SiteVisit, visible: VisibleStructure, form: string, found?: SitePage): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        form,
        visit.site.id,
        visit.site.updatedAt.getTime(),
        visit.root,
        visible.fingerprint,
        [...visit.state.heads.values()].map((item) => [item.spaceId, item.revisionId]).sort(),
        ...(found ? [found.located.siteSpace.id, found.page.id] : []),
      ]),
    )
    .digest('base64url');
}
