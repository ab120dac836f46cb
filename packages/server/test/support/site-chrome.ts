// A published page's chrome and view for the unit tests of its layout and words
// (packages/server/src/areas/sites/published/site-layout.test.ts, site-words.test.ts): a site at
// /s/site in English unless told otherwise, its words those of its locale.
import type { Chrome, PageView } from '../../src/areas/sites/published/site-layout.js';
import { wordsFor } from '../../src/areas/sites/published/site-words.js';

export function siteChrome(overrides: Partial<Chrome> = {}): Chrome {
  const locale = overrides.locale ?? 'en';
  return {
    root: '/s/site',
    title: 'Docs',
    locale,
    assets: { css: '/a.css', theme: '/t.css', js: '/a.js', search: '/s.js', textFont: '/f.woff2' },
    tabs: [],
    headerLinks: [],
    footerLinks: [],
    words: wordsFor(locale),
    noindex: false,
    ...overrides,
  };
}

export function pageView(overrides: Partial<PageView> = {}): PageView {
  return {
    title: 'Page',
    canonical: 'https://docs.example/page',
    markdown: 'https://docs.example/page.md',
    breadcrumbs: [],
    tree: [],
    body: '',
    outline: [],
    updatedAt: '2026-11-28T10:00:00.000Z',
    ...overrides,
  };
}
