// The HTML of a published site's pages, built as a hast tree (hastscript) and serialized once, so every
// text and attribute is escaped by construction: the page (header, section tabs, the site-space
// switcher and page tree, breadcrumbs, title, body, last update, previous/next, outline), the 404 page,
// the sign-in page and the search results, all in the site's style. Everything works without
// JavaScript: the phone menu is a <details>, search is a form.
import { randomUUID } from 'node:crypto';
import type { Element, ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import { feedbackForm, type FeedbackTarget } from './feedback-form.js';
import type { OutlineEntry } from './markdown-html.js';
import { MAX_QUERY_LENGTH } from './site-search.js';

export type Link = { title: string; href: string; current?: boolean };
export type Tab = ({ kind: 'section' } & Link) | { kind: 'group'; title: string; sections: Link[] };
export type TreeItem = { title: string; emoji?: string | undefined; href: string | null; current: boolean; children: TreeItem[]; more?: number };

export type Chrome = {
  /** The site's address path ('' on its own hostname, `/s/{name}` below PUBLIC_URL). */
  root: string;
  title: string;
  locale: string;
  /** An emoji, or the icons' addresses on the site itself (light and dark theme). */
  favicon?: { emoji: string } | { light: string; dark: string } | undefined;
  assets: { css: string; theme: string; js: string; search: string };
  tabs: Tab[];
  searchAction?: string | undefined;
  /** The JSON search of the search dialog (endpoints/search-json.ts). */
  searchEndpoint?: string | undefined;
  /** The part of the site the dialog searches first (the current variant or section), when there is one. */
  searchScope?: { id: string; label: string } | undefined;
  noindex: boolean;
};

export type PageView = {
  title: string;
  description?: string | undefined;
  emoji?: string | undefined;
  cover?: string | undefined;
  canonical: string;
  /** The page's Markdown address: the head's alternate link and the "Copy page as Markdown" control. */
  markdown: string;
  breadcrumbs: Link[];
  switcher?: { label: string; items: Link[] } | undefined;
  tree: TreeItem[];
  /** The page body: the renderer's sanitized HTML (body-template.ts), never built from input here. */
  body: string;
  outline: OutlineEntry[];
  updatedAt: string;
  previous?: Link | undefined;
  next?: Link | undefined;
  /** The "Was this page helpful?" form (feedback-form.ts). */
  feedback?: FeedbackTarget | undefined;
};

const favicon = (emoji: string) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${emoji.replace(/[<>&"]/g, '')}</text></svg>`)}`;

function faviconLinks(chrome: Chrome): Element[] {
  if (!chrome.favicon) return [];
  if ('emoji' in chrome.favicon) return [h('link', { rel: 'icon', href: favicon(chrome.favicon.emoji) })];
  if (chrome.favicon.light === chrome.favicon.dark) return [h('link', { rel: 'icon', href: chrome.favicon.light })];
  return [
    h('link', { rel: 'icon', href: chrome.favicon.light, media: '(prefers-color-scheme: light)' }),
    h('link', { rel: 'icon', href: chrome.favicon.dark, media: '(prefers-color-scheme: dark)' }),
  ];
}

function document(chrome: Chrome, head: { title: string; description?: string | undefined; canonical?: string; markdown?: string; noindex?: boolean; query?: string; sharing?: Element[] }, body: ElementContent[]): string {
  const noindex = chrome.noindex || head.noindex;
  const tree = h('html', { lang: chrome.locale }, [
    h('head', [
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('title', head.title === chrome.title ? chrome.title : `${head.title} · ${chrome.title}`),
      ...(head.description ? [h('meta', { name: 'description', content: head.description })] : []),
      ...(head.canonical ? [h('link', { rel: 'canonical', href: head.canonical })] : []),
      ...(head.markdown ? [h('link', { rel: 'alternate', type: 'text/markdown', href: head.markdown })] : []),
      ...(noindex ? [h('meta', { name: 'robots', content: 'noindex' })] : []),
      ...(head.sharing ?? []),
      ...faviconLinks(chrome),
      h('link', { rel: 'stylesheet', href: chrome.assets.css }),
      h('link', { rel: 'stylesheet', href: chrome.assets.theme }),
      h('script', { src: chrome.assets.js, defer: true }),
      ...(chrome.searchAction ? [h('script', { src: chrome.assets.search, defer: true })] : []),
    ]),
    h('body', [h('a.skip-link', { href: '#content' }, 'Skip to content'), header(chrome, head.query), ...tabs(chrome), ...body, h('footer.site-footer', [h('p', `${chrome.title} · served by Content Workspace`)])]),
  ]);
  // Raw HTML is only the page body's slot (below): the body is spliced in after serializing.
  return `<!doctype html>\n${toHtml(tree, { allowDangerousHtml: true })}`;
}

/**
 * Where the page body goes in the serialized chrome. The body (up to megabytes of the renderer's HTML,
 * sanitized: body-template.ts) is joined to the chrome's two halves rather than handed to the
 * serializer, which costs ~20 ms of the event loop per MB it carries through (issue 25: no request may
 * hold the loop). Random per process, so no text of a page, escaped or not, can be taken for it.
 */
const BODY_SLOT = `<!--body-${randomUUID()}-->`;

/** `html` (serialized with one BODY_SLOT) with `body` in the slot. */
function withBody(html: string, body: string): string {
  const at = html.indexOf(BODY_SLOT);
  return `${html.slice(0, at)}${body}${html.slice(at + BODY_SLOT.length)}`;
}

function siteIcon(chrome: Chrome): Element[] {
  if (!chrome.favicon) return [];
  if ('emoji' in chrome.favicon) return [h('span', { ariaHidden: 'true' }, chrome.favicon.emoji)];
  return [h('img.site-icon', { src: chrome.favicon.light, alt: '', width: 24, height: 24 })];
}

function header(chrome: Chrome, query?: string): Element {
  return h('header.site-header', [
    h('a.site-title', { href: `${chrome.root}/` }, [...siteIcon(chrome), h('span', chrome.title)]),
    ...(chrome.searchAction
      ? [
          h(
            'form.search',
            {
              role: 'search',
              action: chrome.searchAction,
              method: 'get',
              dataLabel: 'Search this site',
              ...(chrome.searchEndpoint ? { dataEndpoint: chrome.searchEndpoint } : {}),
              ...(chrome.searchScope ? { dataScope: chrome.searchScope.id, dataScopeLabel: chrome.searchScope.label } : {}),
            },
            [
              h('label.sr-only', { for: 'site-search' }, 'Search this site'),
              h('input#site-search', { type: 'search', name: 'q', placeholder: 'Search…', maxLength: MAX_QUERY_LENGTH, ...(query ? { value: query } : {}) }),
              h('button', { type: 'submit' }, 'Search'),
            ],
          ),
        ]
      : []),
  ]);
}

const current = (link: Link) => (link.current ? { ariaCurrent: 'page' } : {});

function tabs(chrome: Chrome): Element[] {
  if (chrome.tabs.length < 2 && chrome.tabs.every((tab) => tab.kind === 'section')) return [];
  return [
    h('nav.section-tabs', { ariaLabel: 'Sections' }, [
      h(
        'ul',
        chrome.tabs.flatMap((tab) =>
          tab.kind === 'section'
            ? [h('li', [h('a', { href: tab.href, ...current(tab) }, tab.title)])]
            : [h('li', [h('span.group', tab.title)]), ...tab.sections.map((section) => h('li', [h('a', { href: section.href, ...current(section) }, section.title)]))],
        ),
      ),
    ]),
  ];
}

function treeList(items: TreeItem[]): Element {
  return h(
    'ul',
    items.map((item) => {
      const label = [...(item.emoji ? [`${item.emoji} `] : []), item.title];
      const head = item.href === null ? h('span.tree-group', label) : h('a', { href: item.href, ...(item.current ? { ariaCurrent: 'page' } : {}) }, label);
      return h('li', [head, ...(item.children.length > 0 ? [treeList(item.children)] : []), ...(item.more ? [h('p.more', `and ${item.more} more pages`)] : [])]);
    }),
  );
}

function sidebar(view: Pick<PageView, 'switcher' | 'tree'>, sidebarClass: string): Element {
  const switcher = view.switcher
    ? [h('div.switcher', [h('p', view.switcher.label), h('ul', view.switcher.items.map((item) => h('li', [h('a', { href: item.href, ...current(item) }, item.title)])))])]
    : [];
  const tree = treeList(view.tree);
  tree.properties.className = ['page-tree'];
  return h(`nav.sidebar.${sidebarClass}`, { ariaLabel: 'Pages' }, [h('div.sidebar-inner', [h('details', { open: true }, [h('summary', 'Menu'), ...switcher, tree])])]);
}

/**
 * What link previews and search engines read of a page: Open Graph and Twitter tags, and JSON-LD (the
 * breadcrumbs, the article). Addresses are made absolute from the canonical address. The JSON-LD is a
 * data block, which the pages' script policy does not run; `<` is written `\u003c` so that no text of
 * the page can close the element.
 */
function sharingOf(chrome: Chrome, view: PageView): Element[] {
  const absolute = (href: string) => new URL(href, view.canonical).href;
  const image = view.cover ? absolute(view.cover) : undefined;
  const property = (name: string, content: string) => h('meta', { property: name, content });
  const named = (name: string, content: string) => h('meta', { name, content });
  const trail = [...view.breadcrumbs, { title: view.title, href: view.canonical }];
  const data = [
    {
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: trail.map((crumb, i) => ({ '@type': 'ListItem', position: i + 1, name: crumb.title, item: absolute(crumb.href) })),
    },
    {
      '@context': 'https://schema.org',
      '@type': 'TechArticle',
      headline: view.title,
      ...(view.description ? { description: view.description } : {}),
      dateModified: new Date(view.updatedAt).toISOString(),
      url: view.canonical,
      mainEntityOfPage: view.canonical,
      ...(image ? { image } : {}),
      isPartOf: { '@type': 'WebSite', name: chrome.title, url: absolute(`${chrome.root}/`) },
    },
  ];
  return [
    property('og:type', 'article'),
    property('og:site_name', chrome.title),
    property('og:title', view.title),
    ...(view.description ? [property('og:description', view.description)] : []),
    property('og:url', view.canonical),
    property('og:locale', chrome.locale.replace('-', '_')),
    ...(image ? [property('og:image', image)] : []),
    property('article:modified_time', new Date(view.updatedAt).toISOString()),
    named('twitter:card', image ? 'summary_large_image' : 'summary'),
    named('twitter:title', view.title),
    ...(view.description ? [named('twitter:description', view.description)] : []),
    ...(image ? [named('twitter:image', image)] : []),
    h('script', { type: 'application/ld+json' }, JSON.stringify(data).replace(/</g, '\\u003c')),
  ];
}

export function renderPage(chrome: Chrome, view: PageView, options: { sidebar: string; noindex: boolean }): string {
  const updated = new Date(view.updatedAt);
  const main = h('main#content', [
    ...(view.breadcrumbs.length > 0 ? [h('nav.breadcrumbs', { ariaLabel: 'Breadcrumb' }, [h('ol', view.breadcrumbs.map((crumb) => h('li', [h('a', { href: crumb.href }, crumb.title)])))])] : []),
    ...(view.cover ? [h('img.cover', { src: view.cover, alt: '' })] : []),
    h('h1.page-title', [...(view.emoji ? [h('span', { ariaHidden: 'true' }, `${view.emoji} `)] : []), view.title]),
    ...(view.description ? [h('p.page-description', view.description)] : []),
    // A link to the Markdown without a script; the site's script makes it copy the Markdown instead.
    h('p.page-actions', [h('a.copy-markdown', { href: view.markdown, type: 'text/markdown' }, 'Copy page as Markdown')]),
    h('div.content', [{ type: 'raw', value: BODY_SLOT }]),
    ...(view.feedback ? [feedbackForm(view.feedback)] : []),
    h('footer.page-meta', [
      h('p', ['Last updated ', h('time', { dateTime: updated.toISOString() }, updated.toISOString().slice(0, 10))]),
      ...(view.previous || view.next
        ? [
            h('nav.pagination', { ariaLabel: 'Previous and next pages' }, [
              ...(view.previous ? [h('a.previous', { href: view.previous.href, rel: 'prev' }, [h('small', 'Previous'), view.previous.title])] : []),
              ...(view.next ? [h('a.next', { href: view.next.href, rel: 'next' }, [h('small', 'Next'), view.next.title])] : []),
            ]),
          ]
        : []),
    ]),
  ]);
  const outline =
    view.outline.length > 0
      ? [h('aside.outline', { ariaLabel: 'On this page' }, [h('div.outline-inner', [h('p', 'On this page'), h('ul', view.outline.map((entry) => h(`li.depth-${entry.depth}`, [h('a', { href: `#${entry.id}` }, entry.text)])))])])]
      : [];
  const html = document(chrome, { title: view.title, description: view.description, canonical: view.canonical, markdown: view.markdown, noindex: options.noindex, sharing: sharingOf(chrome, view) }, [h('div.layout', [sidebar(view, options.sidebar), main, ...outline])]);
  return withBody(html, view.body);
}

/** A page of the site's chrome with a message: the 404 page, the sign-in page. */
export function renderMessage(chrome: Chrome, message: { title: string; text: string; link?: Link }): string {
  return document(chrome, { title: message.title, noindex: true }, [
    h('div.layout', [
      h('main#content.not-found', [h('h1.page-title', message.title), h('p', message.text), ...(message.link ? [h('p', [h('a', { href: message.link.href }, message.link.title)])] : [])]),
    ]),
  ]);
}

export type SearchHit = { title: string; href: string; snippet: string; where?: string };

export type SearchView = {
  query: string;
  /** Why the query could not be searched (the page is then a 400). */
  problem?: string | undefined;
  total: number;
  hits: SearchHit[];
  page: number;
  previous?: string | undefined;
  next?: string | undefined;
};

/** The results page: the query kept in the box, the results as links to the pages, and pages of results. */
export function renderSearch(chrome: Chrome, view: SearchView): string {
  const { query, hits } = view;
  const summary = view.problem
    ? view.problem
    : query === ''
      ? 'Type words to search this site.'
      : view.total === 0
        ? 'Nothing published matches your search.'
        : `${view.total} ${view.total === 1 ? 'page matches' : 'pages match'} your search${view.page > 1 ? ` (results page ${view.page})` : ''}.`;
  return document(chrome, { title: query ? `Search: ${query}` : 'Search', noindex: true, query }, [
    h('div.layout.search-layout', [
      h('main#content', [
        h('h1.page-title', query && !view.problem ? `Results for “${query}”` : 'Search'),
        h('p.search-summary', { role: 'status' }, summary),
        ...(hits.length > 0
          ? [
              h(
                'ol.search-results',
                hits.map((hit) => h('li', [h('a', { href: hit.href }, hit.title), ...(hit.where ? [h('p.search-where', hit.where)] : []), ...(hit.snippet ? [h('p', hit.snippet)] : [])])),
              ),
            ]
          : []),
        ...(view.previous || view.next
          ? [
              h('nav.pagination', { ariaLabel: 'Result pages' }, [
                ...(view.previous ? [h('a.previous', { href: view.previous, rel: 'prev' }, [h('small', 'Previous'), 'Earlier results'])] : []),
                ...(view.next ? [h('a.next', { href: view.next, rel: 'next' }, [h('small', 'Next'), 'More results'])] : []),
              ]),
            ]
          : []),
      ]),
    ]),
  ]);
}
