// The pages a site lists for agents (llms.txt, llms-full.txt, the site's MCP server), as one visitor
// sees the site: each visible site space in the site's order (a section per section / variant), its
// pages in reading order — hidden pages and everything under them left out (space-model.ts), no-index
// pages too (as from search and the sitemap); both stay reachable by their address.
import type { PageEntry } from '../../../content/model.js';
import type { PublishedStructure } from '../published-structure.js';
import type { SiteSpaceRow } from '../structure.repository.js';
import type { SpaceHead } from './published.repository.js';
import { sectionsOf, type Located, type SectionEntry } from './site-navigation.js';
import { pageHref, type SitePage } from './site-page.js';
import type { SiteVisit } from './site-visit.js';
import { spaceModel, type SpaceModel } from './space-model.js';

export type ListedSpace = {
  /** The heading it is listed under: the section's title, the variant's after it when the section has several. */
  heading: string;
  located: Omit<Located, 'pagePath'>;
  head: SpaceHead;
  model: SpaceModel;
};

function placesOf(structure: PublishedStructure): Array<{ section: SectionEntry | null; siteSpace: SiteSpaceRow; siblings: readonly SiteSpaceRow[] }> {
  if (structure.type === 'siteSpaces') return structure.siteSpaces.map((siteSpace) => ({ section: null, siteSpace, siblings: structure.siteSpaces }));
  return sectionsOf(structure).flatMap(({ section, siteSpaces }) => siteSpaces.map((siteSpace) => ({ section, siteSpace, siblings: siteSpaces })));
}

/** The site spaces `visit`'s visitor sees that have content, in the site's order, each with its model at the head. */
export async function listedSpaces(visit: SiteVisit, structure: PublishedStructure): Promise<ListedSpace[]> {
  const listed: ListedSpace[] = [];
  for (const place of placesOf(structure)) {
    const head = visit.state.heads.get(place.siteSpace.spaceId);
    if (!head) continue;
    const model = await spaceModel(visit.app, visit.site.organizationId, head.pagesRoot);
    const titles = [place.section?.title, place.siblings.length > 1 || !place.section ? place.siteSpace.spaceTitle : undefined].filter((title): title is string => Boolean(title));
    listed.push({ heading: titles.join(' › '), located: place, head, model });
  }
  return listed;
}

/** Whether a page is listed to agents (visible in navigation already: in the reading order). */
export const listedToAgents = (page: PageEntry) => !page.noIndex && !page.noRobotsIndex;

/** The listed pages of a space, in reading order. */
export function listedPages(space: ListedSpace): PageEntry[] {
  return space.model.readingOrder.map((id) => space.model.tree.pages.get(id)!).filter(listedToAgents);
}

/** A listed page as the page lookup finds it (site-page.ts), for the forms that render one. */
export function sitePageOf(space: ListedSpace, page: PageEntry): SitePage {
  return { located: { ...space.located, pagePath: space.model.pathById.get(page.id)! }, head: space.head, model: space.model, page };
}

/** The absolute `.md` address of a listed page (`origin`: site-visit.ts `siteOrigin`). */
export const markdownHref = (origin: string, root: string, space: ListedSpace, pageId: string) => `${origin}${pageHref(root, space.located.section, space.located.siteSpace, space.model, pageId)}.md`;
