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
import { icon, namedIcon } from './icons.js';
import type { OutlineEntry } from './markdown-html.js';
import { MAX_QUERY_LENGTH } from './site-search.js';
import { exactDate, relativeTime, type Words } from './site-words.js';

export type Link = { title: string; href: string; current?: boolean; description?: string | undefined; icon?: string | null | undefined };
export type Tab = ({ kind: 'section' } & Link) | { kind: 'group'; title: string; icon?: string | null | undefined; sections: Link[] };
/** An entry of the page tree; `expanded` when it starts open (the current page's branch, groups). */
export type TreeItem = { title: string; emoji?: string | undefined; href: string | null; current: boolean; expanded?: boolean; children: TreeItem[]; more?: number };

export type Chrome = {
  /** The site's address path ('' on its own hostname, `/s/{name}` below PUBLIC_URL). */
  root: string;
  title: string;
  locale: string;
  /** An emoji, or the icons' addresses on the site itself (light and dark theme). */
  favicon?: { emoji: string } | { light: string; dark: string } | undefined;
  /** The header's logo (addresses on the site itself, light and dark theme). */
  logo?: { light: string; dark: string } | undefined;
  headerLinks: Link[];
  footerLinks: Link[];
  /** The interface's words in the site's language (site-words.ts). */
  words: Words;
  assets: { css: string; theme: string; js: string; search: string; textFont: string };
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
  /** The page's generated social image (site-social.ts), absolute; only on sites anyone may read. */
  socialImage?: string | undefined;
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

type Head = {
  title: string;
  description?: string | undefined;
  canonical?: string;
  markdown?: string;
  noindex?: boolean;
  query?: string;
  sharing?: Element[];
  /** Whether the page has the site's navigation (`#site-nav`), which the header's menu opens. */
  navigation?: boolean;
};

function document(chrome: Chrome, head: Head, body: ElementContent[]): string {
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
      // The text face is needed by every page: fetched with the stylesheet rather than after it.
      h('link', { rel: 'preload', href: chrome.assets.textFont, as: 'font', type: 'font/woff2', crossOrigin: '' }),
      h('link', { rel: 'stylesheet', href: chrome.assets.css }),
      h('link', { rel: 'stylesheet', href: chrome.assets.theme }),
      h('script', { src: chrome.assets.js, defer: true }),
      ...(chrome.searchAction ? [h('script', { src: chrome.assets.search, defer: true })] : []),
    ]),
    h('body', [h('a.skip-link', { href: '#content' }, chrome.words.skip), header(chrome, head), ...tabs(chrome), ...body, footer(chrome)]),
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
  if (chrome.logo) {
    if (chrome.logo.light === chrome.logo.dark) return [h('img.site-logo', { src: chrome.logo.light, alt: '' })];
    return [h('img.site-logo.logo-light', { src: chrome.logo.light, alt: '' }), h('img.site-logo.logo-dark', { src: chrome.logo.dark, alt: '' })];
  }
  if (!chrome.favicon) return [];
  if ('emoji' in chrome.favicon) return [h('span', { ariaHidden: 'true' }, chrome.favicon.emoji)];
  return [h('img.site-icon', { src: chrome.favicon.light, alt: '', width: 24, height: 24 })];
}

/** A link leaving the site: marked by an icon and a hidden word, never given the site's referrer. */
function externalLink(link: Link, words: Words): Element {
  return h('a.external', { href: link.href, rel: 'noopener noreferrer' }, [link.title, h('span.sr-only', ` (${words.external})`), icon('external', 'icon external-icon')]);
}

function header(chrome: Chrome, { query, navigation }: Head): Element {
  const words = chrome.words;
  return h('header.site-header', [
    h('a.site-title', { href: `${chrome.root}/` }, [...siteIcon(chrome), h('span', chrome.title)]),
    ...(chrome.headerLinks.length > 0 ? [h('nav.header-links', { ariaLabel: words.siteLinks }, [h('ul', chrome.headerLinks.map((link) => h('li', [externalLink(link, words)])))])] : []),
    h('div.header-actions', [
      ...(chrome.searchAction
        ? [
            h(
              'form.search',
              {
                role: 'search',
                action: chrome.searchAction,
                method: 'get',
                dataLabel: words.searchSite,
                // The dialog's words (search-dialog.ts): the script is the same file for every site.
                dataWords: JSON.stringify(words.dialog),
                ...(chrome.searchEndpoint ? { dataEndpoint: chrome.searchEndpoint } : {}),
                ...(chrome.searchScope ? { dataScope: chrome.searchScope.id, dataScopeLabel: chrome.searchScope.label } : {}),
              },
              [
                h('label.sr-only', { for: 'site-search' }, words.searchSite),
                h('input#site-search', { type: 'search', name: 'q', placeholder: words.searchPlaceholder, maxLength: MAX_QUERY_LENGTH, ...(query ? { value: query } : {}) }),
                h('button.icon-button', { type: 'submit', ariaLabel: words.search }, [icon('search')]),
              ],
            ),
          ]
        : []),
      // Shown by the site's script, which makes them work (site-assets.ts): without it they would do nothing.
      h('button.theme-toggle.icon-button', { type: 'button', hidden: true, dataLabelAuto: words.themeAuto, dataLabelLight: words.themeLight, dataLabelDark: words.themeDark }, [
        icon('auto', 'icon theme-auto'),
        icon('sun', 'icon theme-light'),
        icon('moon', 'icon theme-dark'),
      ]),
      ...(navigation
        ? [
            // On a phone without script, the menu is a link to the navigation (below the header, which
            // stays on screen); the script shows the button instead, which opens it as a drawer.
            h('a.menu-link.icon-button', { href: '#site-nav', ariaLabel: words.menu }, [icon('menu')]),
            h('button.menu-button.icon-button', { type: 'button', hidden: true, ariaLabel: words.menu, ariaHaspopup: 'dialog', dataCloseLabel: words.closeMenu }, [icon('menu')]),
          ]
        : []),
    ]),
  ]);
}

function footer(chrome: Chrome): Element {
  return h('footer.site-footer', [
    ...(chrome.footerLinks.length > 0 ? [h('nav.footer-links', { ariaLabel: chrome.words.siteLinks }, [h('ul', chrome.footerLinks.map((link) => h('li', [externalLink(link, chrome.words)])))])] : []),
    h('p', `${chrome.title} · ${chrome.words.servedBy}`),
  ]);
}

const current = (link: Link) => (link.current ? { ariaCurrent: 'page' } : {});

function tabs(chrome: Chrome): Element[] {
  if (chrome.tabs.length < 2 && chrome.tabs.every((tab) => tab.kind === 'section')) return [];
  const link = (section: Link) => h('a', { href: section.href, ...current(section), ...(section.description ? { title: section.description } : {}) }, [...namedIcon(section.icon), section.title]);
  return [
    h('nav.section-tabs', { ariaLabel: chrome.words.sections }, [
      h(
        'ul',
        chrome.tabs.map((tab) =>
          tab.kind === 'section'
            ? h('li', [link(tab)])
            : // A disclosure menu: a native <details>, so it opens by keyboard and works without script.
              h('li', [
                h(`details.tab-group${tab.sections.some((section) => section.current) ? '.current' : ''}`, [
                  h('summary', [...namedIcon(tab.icon), tab.title, icon('chevron', 'icon chevron')]),
                  h('ul.tab-menu', tab.sections.map((section) => h('li', [h('a', { href: section.href, ...current(section) }, [...namedIcon(section.icon), h('span', section.title), ...(section.description ? [h('small', section.description)] : [])])]))),
                ]),
              ]),
        ),
      ),
    ]),
  ];
}

function treeList(items: TreeItem[], words: Words): Element {
  return h(
    'ul',
    items.map((item) => {
      const label = [...(item.emoji ? [`${item.emoji} `] : []), item.title];
      const head = item.href === null ? h('span.tree-group', label) : h('a', { href: item.href, ...(item.current ? { ariaCurrent: 'page' } : {}) }, label);
      const parent = item.children.length > 0;
      // Lists start open in the HTML (everything reachable without script); the script folds those
      // not `data-expanded` unless the visitor opened them before (site-assets.ts).
      return h(`li${parent ? '.tree-parent' : ''}`, parent ? { dataExpanded: item.expanded ? 'true' : 'false', dataLabel: `${words.expand} ${item.title}` } : {}, [
        head,
        ...(parent ? [treeList(item.children, words)] : []),
        ...(item.more ? [h('p.more', words.morePages(item.more))] : []),
      ]);
    }),
  );
}

function sidebar(view: Pick<PageView, 'switcher' | 'tree'>, sidebarClass: string, chrome: Chrome): Element {
  const words = chrome.words;
  // The header's links, which a phone's header has no room for: shown here on a phone without script
  // (with script, the drawer takes the header's own).
  const links = chrome.headerLinks.length > 0 ? [h('ul.sidebar-links', chrome.headerLinks.map((link) => h('li', [externalLink(link, words)])))] : [];
  const switcher = view.switcher
    ? [h('div.switcher', [h('p', view.switcher.label), h('ul', view.switcher.items.map((item) => h('li', [h('a', { href: item.href, ...current(item) }, item.title)])))])]
    : [];
  const tree = treeList(view.tree, words);
  tree.properties.className = ['page-tree'];
  return h(`nav#site-nav.sidebar.${sidebarClass}`, { ariaLabel: words.pages }, [h('div.sidebar-inner', [h('details', { open: true }, [h('summary', words.menu), ...links, ...switcher, tree])])]);
}

/**
 * What link previews and search engines read of a page: Open Graph and Twitter tags, and JSON-LD (the
 * breadcrumbs, the article). Addresses are made absolute from the canonical address. The JSON-LD is a
 * data block, which the pages' script policy does not run; `<` is written `\u003c` so that no text of
 * the page can close the element.
 */
function sharingOf(chrome: Chrome, view: PageView): Element[] {
  const absolute = (href: string) => new URL(href, view.canonical).href;
  // The generated image is made for previews (1200×630, the title on it); the cover is a page's banner.
  const image = view.socialImage ?? (view.cover ? absolute(view.cover) : undefined);
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
    ...(view.socialImage ? [property('og:image:type', 'image/png'), property('og:image:width', '1200'), property('og:image:height', '630'), property('og:image:alt', view.title)] : []),
    property('article:modified_time', new Date(view.updatedAt).toISOString()),
    named('twitter:card', image ? 'summary_large_image' : 'summary'),
    named('twitter:title', view.title),
    ...(view.description ? [named('twitter:description', view.description)] : []),
    ...(image ? [named('twitter:image', image)] : []),
    h('script', { type: 'application/ld+json' }, JSON.stringify(data).replace(/</g, '\\u003c')),
  ];
}

export function renderPage(chrome: Chrome, view: PageView, options: { sidebar: string; noindex: boolean; now: Date }): string {
  const updated = new Date(view.updatedAt);
  const words = chrome.words;
  const main = h('main#content', [
    ...(view.breadcrumbs.length > 0 ? [h('nav.breadcrumbs', { ariaLabel: words.breadcrumb }, [h('ol', view.breadcrumbs.map((crumb) => h('li', [h('a', { href: crumb.href }, crumb.title)])))])] : []),
    ...(view.cover ? [h('img.cover', { src: view.cover, alt: '' })] : []),
    h('h1.page-title', [...(view.emoji ? [h('span', { ariaHidden: 'true' }, `${view.emoji} `)] : []), view.title]),
    ...(view.description ? [h('p.page-description', view.description)] : []),
    // A link to the Markdown without a script; the site's script makes it copy the Markdown instead.
    h('p.page-actions', [h('a.copy-markdown', { href: view.markdown, type: 'text/markdown', dataCopied: words.copied }, words.copyMarkdown)]),
    h('div.content', [{ type: 'raw', value: BODY_SLOT }]),
    ...(view.feedback ? [feedbackForm(view.feedback, words.feedback)] : []),
    h('footer.page-meta', [
      // Relative to when the page was made; the script keeps it current from `datetime` (a page may be cached).
      h('p', [`${words.lastUpdated} `, h('time.relative', { dateTime: updated.toISOString(), title: exactDate(chrome.locale, updated) }, relativeTime(chrome.locale, updated, options.now))]),
      ...(view.previous || view.next
        ? [
            h('nav.pagination', { ariaLabel: words.previousNext }, [
              ...(view.previous ? [h('a.previous', { href: view.previous.href, rel: 'prev' }, [h('small', words.previous), view.previous.title])] : []),
              ...(view.next ? [h('a.next', { href: view.next.href, rel: 'next' }, [h('small', words.next), view.next.title])] : []),
            ]),
          ]
        : []),
    ]),
  ]);
  const outline =
    view.outline.length > 0
      ? [h('aside.outline', { ariaLabel: words.onThisPage }, [h('div.outline-inner', [h('p', words.onThisPage), h('ul', view.outline.map((entry) => h(`li.depth-${entry.depth}`, [h('a', { href: `#${entry.id}` }, entry.text)])))])])]
      : [];
  const html = document(chrome, { title: view.title, description: view.description, canonical: view.canonical, markdown: view.markdown, noindex: options.noindex, sharing: sharingOf(chrome, view), navigation: true }, [h('div.layout', [sidebar(view, options.sidebar, chrome), main, ...outline])]);
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
  /** The search's bound was reached: at least `total` pages match. */
  totalIsLowerBound?: boolean;
  hits: SearchHit[];
  page: number;
  previous?: string | undefined;
  next?: string | undefined;
};

/** The results page: the query kept in the box, the results as links to the pages, and pages of results. */
export function renderSearch(chrome: Chrome, view: SearchView): string {
  const { query, hits } = view;
  const words = chrome.words;
  const summary = view.problem ? view.problem : query === '' ? words.results.prompt : view.total === 0 ? words.results.none(query) : (view.totalIsLowerBound ? words.results.atLeast : words.results.count)(view.total, view.page);
  return document(chrome, { title: query ? words.results.title(query) : words.search, noindex: true, query }, [
    h('div.layout.search-layout', [
      h('main#content', [
        h('h1.page-title', query && !view.problem ? words.results.heading(query) : words.search),
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
              h('nav.pagination', { ariaLabel: words.results.pages }, [
                ...(view.previous ? [h('a.previous', { href: view.previous, rel: 'prev' }, [h('small', words.previous), words.results.earlier])] : []),
                ...(view.next ? [h('a.next', { href: view.next, rel: 'next' }, [h('small', words.next), words.results.more])] : []),
              ]),
            ]
          : []),
      ]),
    ]),
  ]);
}
