// What every page of a site shows around its content, from the site's customization: title, locale,
// icon, theme stylesheet, section tabs and search box (the "chrome" site-layout.ts renders), and
// whether search engines may index it.
import type { Caches } from '../../../caches.js';
import type { Schemas } from '../../../schemas.js';
import type { PublishedStructure } from '../published-structure.js';
import { toApiCustomization } from '../sites.mapper.js';
import type { PublishedSiteRow } from './published.repository.js';
import { rememberTheme } from './shared-assets.js';
import { SITE_ASSETS, themeCss } from './site-assets.js';
import { faviconName } from './site-favicon.js';
import type { Chrome, Link, Tab } from './site-layout.js';
import { sectionPath, sectionsOf, type Located, type SectionEntry } from './site-navigation.js';
import { scopeOf } from './site-search.js';
import { wordsFor } from './site-words.js';

/** The structure of a site that shows nothing of its content (sign-in, 429 and 404 pages without one). */
export const EMPTY_STRUCTURE: PublishedStructure = { type: 'siteSpaces', siteSpaces: [] };

export function customizationOf(site: PublishedSiteRow) {
  return toApiCustomization(site.customization as Schemas['SiteCustomizationInput'] | null, site.title);
}

/** Public sites only: unlisted, share-link and visitor-auth sites ask search engines to stay out. */
export const indexable = (site: PublishedSiteRow) => site.visibility === 'public';

/** The site's theme stylesheet, from its customization's styling. */
export function themeOf(site: PublishedSiteRow): string {
  const styling = customizationOf(site).styling;
  return themeCss({
    primary: styling.primaryColor,
    tint: styling.tint?.color,
    info: styling.infoColor,
    success: styling.successColor,
    warning: styling.warningColor,
    danger: styling.dangerColor,
    corners: styling.corners,
    font: styling.font,
    theme: styling.theme,
    sidebarBackground: styling.sidebar.background,
  });
}

/**
 * The image addresses of the site's customization (its favicon's and its logo's), which the server
 * fetches and serves from `_favicon/` (site-favicon.ts): only these, so that address is no open proxy.
 */
export function imageSources(site: PublishedSiteRow): string[] {
  const { favicon, logo } = customizationOf(site);
  return [...(favicon && 'icon' in favicon ? [favicon.icon.light, favicon.icon.dark] : []), ...(logo ? [logo.light, logo.dark] : [])];
}

function faviconOf(site: PublishedSiteRow, root: string): Chrome['favicon'] {
  const icon = customizationOf(site).favicon;
  if (!icon) return undefined;
  if ('emoji' in icon) return { emoji: icon.emoji };
  return { light: `${root}/_favicon/${faviconName(icon.icon.light)}`, dark: `${root}/_favicon/${faviconName(icon.icon.dark)}` };
}

/**
 * What the search dialog searches first on a page at `located`: its variant when its section (or the
 * site) has several, else its section when the site has several; nothing (the whole site) otherwise.
 */
function searchScopeAt(structure: PublishedStructure, located: Located | undefined): Chrome['searchScope'] {
  if (!located) return undefined;
  const id = located.siblings.length > 1 ? located.siteSpace.id : located.section && sectionsOf(structure).length > 1 ? located.section.id : undefined;
  const scope = id === undefined ? undefined : scopeOf(structure, id);
  return scope && { id: scope.id, label: scope.label };
}

/** What the chrome of every page of the site needs, for one visitor's structure (tabs current at `located`). */
export function chromeOf(caches: Caches, site: PublishedSiteRow, root: string, structure: PublishedStructure, located: Located | undefined): Chrome {
  const customization = customizationOf(site);
  const sectionLink = (section: SectionEntry): Link => ({ title: section.title, href: `${root}${sectionPath(section)}/`, current: located?.section?.id === section.id, description: section.description ?? undefined, icon: section.icon });
  const tabs: Tab[] =
    structure.type === 'siteSpaces'
      ? []
      : structure.items.map((item) =>
          item.kind === 'section' ? { kind: 'section' as const, ...sectionLink(item.section) } : { kind: 'group' as const, title: item.group.title, icon: item.group.icon, sections: item.sections.map((entry) => sectionLink(entry.section)) },
        );
  return {
    root,
    title: customization.title,
    locale: customization.internationalization.locale,
    favicon: faviconOf(site, root),
    logo: customization.logo && { light: `${root}/_favicon/${faviconName(customization.logo.light)}`, dark: `${root}/_favicon/${faviconName(customization.logo.dark)}` },
    headerLinks: (customization.header?.links ?? []).map((link) => ({ title: link.title, href: link.url })),
    footerLinks: (customization.footer?.links ?? []).map((link) => ({ title: link.title, href: link.url })),
    words: wordsFor(customization.internationalization.locale),
    assets: {
      css: `${root}/_assets/${SITE_ASSETS.css.name}`,
      js: `${root}/_assets/${SITE_ASSETS.js.name}`,
      search: `${root}/_assets/${SITE_ASSETS.search.name}`,
      textFont: `${root}/_assets/${SITE_ASSETS.textFont.name}`,
      theme: `${root}/_assets/${rememberTheme(caches, themeOf(site))}`,
    },
    tabs,
    searchAction: `${root}/search`,
    searchEndpoint: `${root}/_search`,
    searchScope: searchScopeAt(structure, located),
    noindex: !indexable(site),
  };
}
