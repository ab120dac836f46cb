// Search hits → API objects (SearchPageResult, OrganizationSearchSpaceResult): addresses in the app.
import type { components } from '@content-workspace/contract';
import type { SearchPageHit, SearchSpaceHit } from '../../content/search/search.js';
import type { Urls } from '../../urls.js';

type ApiPage = components['schemas']['SearchPageResult'];
type ApiSpace = components['schemas']['OrganizationSearchSpaceResult'];

export function toApiSearchPage(page: SearchPageHit, urls: Urls): ApiPage {
  const pageUrl = urls.app(`/s/${page.spaceId}/${page.path}`);
  return {
    id: page.pageId,
    title: page.title,
    path: page.path,
    urls: { app: pageUrl },
    sections: page.sections.map((section) => {
      // Section 0 is the page itself: no anchor.
      const anchor = section.ordinal === 0 ? '' : `#${section.id}`;
      return { id: section.id, title: section.title, path: `${page.path}${anchor}`, body: section.body, urls: { app: `${pageUrl}${anchor}` } };
    }),
  };
}

export function toApiSearchSpace(space: SearchSpaceHit, urls: Urls): ApiSpace {
  return { id: space.spaceId, title: space.title, pages: space.pages.map((page) => toApiSearchPage(page, urls)) };
}
