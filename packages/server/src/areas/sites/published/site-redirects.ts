// A site's own redirects (redirects.service.ts), applied where the site has no page: the page
// endpoint asks here before it answers the 404. A redirect to a page leads to the page's address
// now, through the first section or site space (in the site's order) that shows its space to this
// visitor; a page that moved keeps its automatic 301 (site-page.ts), which comes first. A redirect to
// an address outside the site leads there. Costs one indexed lookup, on a 404 only.
import type { AppContext } from '../../../context.js';
import type { PublishedStructure } from '../published-structure.js';
import { pathOfSegments } from '../redirect-paths.js';
import { findRedirectBySource, type RedirectRow } from '../redirects.repository.js';
import type { SpaceHead } from './published.repository.js';
import { pageHref } from './site-page.js';
import { siteSpacesOf } from './site-navigation.js';
import { spaceModel } from './space-model.js';

type Reader = Pick<AppContext, 'db' | 'caches'>;

/** The address of `pageId` of `spaceId` below the site's root (`root` prefixed), as `structure` shows it; undefined when it does not. */
export async function pageAddressInSite(
  app: Reader,
  organizationId: string,
  root: string,
  structure: PublishedStructure,
  heads: ReadonlyMap<string, SpaceHead>,
  spaceId: string,
  pageId: string,
): Promise<string | undefined> {
  const head = heads.get(spaceId);
  if (!head) return undefined;
  const shown = siteSpacesOf(structure).find(({ siteSpace }) => siteSpace.spaceId === spaceId);
  if (!shown) return undefined;
  const model = await spaceModel(app, organizationId, head.pagesRoot);
  if (!model.pathById.has(pageId)) return undefined;
  return pageHref(root, shown.section, shown.siteSpace, model, pageId);
}

/** Where `redirect` leads now (an address relative to the server for a page, absolute for a url); undefined when its page is not on the site. */
export function redirectLocation(app: Reader, organizationId: string, root: string, structure: PublishedStructure, heads: ReadonlyMap<string, SpaceHead>, redirect: RedirectRow): Promise<string | undefined> {
  if (redirect.targetKind === 'url') return Promise.resolve(redirect.targetUrl!);
  return pageAddressInSite(app, organizationId, root, structure, heads, redirect.targetSpaceId!, redirect.targetPageId!);
}

/** The redirect the site has at `segments` (below its root) for this visitor, with where it leads. */
export async function siteRedirect(
  app: Reader,
  site: { organizationId: string; id: string },
  root: string,
  structure: PublishedStructure,
  heads: ReadonlyMap<string, SpaceHead>,
  segments: readonly string[],
): Promise<{ location: string; permanent: boolean } | undefined> {
  if (segments.length === 0) return undefined;
  const source = pathOfSegments(segments);
  if (source.length > 512) return undefined;
  const redirect = await findRedirectBySource(app.db, site.organizationId, site.id, source);
  if (!redirect) return undefined;
  const location = await redirectLocation(app, site.organizationId, root, structure, heads, redirect);
  return location === undefined ? undefined : { location, permanent: redirect.permanent };
}
