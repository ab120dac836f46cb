// The site's search box (issue 20): the project's search (content/search, called through its exported
// service) over exactly what the visitor may read on the site — the site spaces of the visible
// structure (published site, audience passed, adaptive conditions true for this visitor: the view the
// navigation is built from), at their head revision (the index follows each space's head), hidden and
// no-index pages left out (as from navigation and the sitemap: `publishedOnly`). Each result links to
// the page's site address, and to the heading's anchor when the best match is a section of the page.
import type { AppContext } from '../../../context.js';
import { RESULTS_BOUND, searchPages, type SearchBound } from '../../../content/search/search.js';
import type { PublishedStructure } from '../published-structure.js';
import type { SpaceHead } from './published.repository.js';
import type { SearchHit } from './site-layout.js';
import { siteSpacePath, siteSpacesOf } from './site-navigation.js';
import { readableSnippet } from './search-text.js';
import { spaceModel, type SpaceModel } from './space-model.js';
import { wordsFor, type Words } from './site-words.js';

/** Characters a query may have (the search's own parser bounds its terms too). */
export const MAX_QUERY_LENGTH = 200;
export const RESULTS_PER_PAGE = 20;
/** Result pages a visitor may page through (the search ranks a bounded set of matches anyway). */
export const MAX_RESULT_PAGES = 10;

export type SiteSearchQuery = { text: string; page: number };

/** The query of `?q=&page=`; a sentence in `words` saying what is wrong when it cannot be searched. */
export function readSearchQuery(query: URLSearchParams, words: Words = wordsFor('en')): SiteSearchQuery | { problem: string } {
  const text = (query.get('q') ?? '').trim();
  if (text.length > MAX_QUERY_LENGTH) return { problem: words.results.tooLong(MAX_QUERY_LENGTH) };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(text)) return { problem: words.results.control };
  const raw = query.get('page');
  const page = raw === null ? 1 : /^[1-9][0-9]{0,2}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(page >= 1 && page <= MAX_RESULT_PAGES)) return { problem: words.results.pageRange(MAX_RESULT_PAGES) };
  return { text, page };
}

/** `total` counts every matching page, unless `totalIsLowerBound` (the search's bound was reached). */
export type SiteSearchResult = { total: number; totalIsLowerBound: boolean; hits: SearchHit[] };

/** Part of a site a search keeps to: one site space (a variant), or a section's site spaces. */
export type SearchScope = { id: string; label: string; siteSpaceIds: ReadonlySet<string> };

/**
 * The scope `id` names in the structure the visitor sees: a visible site space, or a visible section
 * (its site spaces); undefined for any other id — an invisible one reads as unknown.
 */
export function scopeOf(structure: PublishedStructure, id: string): SearchScope | undefined {
  const places = siteSpacesOf(structure);
  const space = places.find((place) => place.siteSpace.id === id);
  if (space) {
    const label = [space.section?.title, space.siteSpace.spaceTitle].filter((part): part is string => Boolean(part));
    return { id, label: [...new Set(label)].join(' › '), siteSpaceIds: new Set([id]) };
  }
  const inSection = places.filter((place) => place.section?.id === id);
  if (inSection.length === 0) return undefined;
  return { id, label: inSection[0]!.section!.title, siteSpaceIds: new Set(inSection.map((place) => place.siteSpace.id)) };
}

export async function searchSite(
  app: Pick<AppContext, 'db' | 'caches'>,
  organizationId: string,
  root: string,
  structure: PublishedStructure,
  heads: ReadonlyMap<string, SpaceHead>,
  query: SiteSearchQuery,
  options: { scope?: SearchScope | undefined; limit?: number; bound?: SearchBound } = {},
): Promise<SiteSearchResult> {
  const limit = options.limit ?? RESULTS_PER_PAGE;
  const bound = options.bound ?? RESULTS_BOUND;
  // Each space once, at the first place the site (or the scope) shows it.
  const places = new Map<string, ReturnType<typeof siteSpacesOf>[number]>();
  for (const place of siteSpacesOf(structure)) {
    if (options.scope && !options.scope.siteSpaceIds.has(place.siteSpace.id)) continue;
    if (heads.has(place.siteSpace.spaceId) && !places.has(place.siteSpace.spaceId)) places.set(place.siteSpace.spaceId, place);
  }
  if (query.text === '' || places.size === 0) return { total: 0, totalIsLowerBound: false, hits: [] };
  const scope = { kind: 'spaces' as const, spaces: [...places.keys()].map((spaceId) => ({ organizationId, spaceId })), publishedOnly: true };
  const window = { offset: (query.page - 1) * limit, limit };
  // The same spaces at the same heads answer the same text alike (the index moves with the heads, in
  // their transaction): a visitor typing repeats the prefixes others typed a moment ago. The key has
  // the spaces the visitor may search (audience, adaptive sections and scope are in that list).
  const key = [
    organizationId,
    ...[...places.keys()].map((spaceId) => `${spaceId}@${heads.get(spaceId)!.revisionId}`),
    window.offset,
    window.limit,
    // The whole bound: the dialog's and the results page's read differently.
    JSON.stringify(bound),
    query.text,
  ].join('\n');
  const found = await app.caches.siteSearches.load(key, () => searchPages(app.db, scope, query.text, window, undefined, bound));
  const several = places.size > 1;
  // Result addresses from each space's cached model (by tree: space-model.ts), read once per space.
  const models = new Map<string, Promise<SpaceModel>>();
  const modelOf = (spaceId: string) => {
    let model = models.get(spaceId);
    if (!model) models.set(spaceId, (model = spaceModel(app, organizationId, heads.get(spaceId)!.pagesRoot)));
    return model;
  };
  const hits: SearchHit[] = [];
  for (const page of found.pages) {
    const place = places.get(page.spaceId)!;
    const path = (await modelOf(page.spaceId)).pathById.get(page.pageId);
    // The index follows the head in the head's own transaction; a page it does not know is skipped.
    if (path === undefined) continue;
    const href = `${root}${siteSpacePath(place.section, place.siteSpace)}/${path}`;
    const best = page.sections[0];
    const inSection = best && best.ordinal > 0 ? best : undefined;
    const where = [...(several ? [place.section?.title, place.siteSpace.spaceTitle].filter((part): part is string => Boolean(part)) : []), ...(inSection ? [page.title] : [])];
    hits.push({
      title: inSection ? inSection.title : page.title,
      href: inSection ? `${href}#${encodeURIComponent(inSection.id)}` : href,
      snippet: readableSnippet(best?.body ?? ''),
      ...(where.length > 0 ? { where: [...new Set(where)].join(' › ') } : {}),
    });
  }
  return { total: found.total, totalIsLowerBound: found.totalIsLowerBound, hits };
}
