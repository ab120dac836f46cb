// Published sites served as HTML by the server itself (issue 20): mounted in app.ts before the API's
// request path (outside /v1, outside the OpenAPI contract and its validator). A site answers on its
// custom hostname once its DNS proved control (the request's Host, never one of the server's own:
// hostnames.service.ts) and at {PUBLIC_URL}/s/{basename or site id}/…; below the site's root: the
// section's path, the site space's path, the page's path.
//
// Per request: one statement (site-state.ts) reads the site, a version of its structure, the head
// revision of each of its spaces and its share keys; the audience is decided from it (visitor.ts); the
// structure the visitor may see is resolved by the API's own resolver once per structure version and
// visitor claims. The rendered page is kept by a key over all of that and the page (revisions are
// immutable), which is also its ETag: a repeat visit answers 304, a new visitor of the same view a
// cached body — one query per cached view. Every request but the shared assets (shared-assets.ts) is
// charged to the visitor's address before it costs a query (site-charge.ts), and a site that is not
// there for the visitor answers the same bytes whatever the reason (site-responses.ts).
import { createHash } from 'node:crypto';
import type { Express, NextFunction, Request, Response } from 'express';
import type { AppContext } from '../../../context.js';
import { loadDocuments } from '../../../content/content-objects.repository.js';
import { blobStore } from '../../../content/blob-store.js';
import type { PageEntry } from '../../../content/model.js';
import { loadFileTree } from '../../../content/tree-store.js';
import { siteAddress } from '../addresses.js';
import type { PublishedStructure } from '../published-structure.js';
import { toApiCustomization } from '../sites.mapper.js';
import type { Schemas } from '../../../schemas.js';
import type { SiteSpaceRow } from '../structure.repository.js';
import { BoundedCache } from '../../../db/bounded-cache.js';
import { renderBody, type LinkResolver } from './markdown-html.js';
import type { PublishedSiteRow, SpaceHead } from './published.repository.js';
import { rememberTheme, serveSharedAsset } from './shared-assets.js';
import { SITE_ASSETS, themeCss } from './site-assets.js';
import { chargeVisit, rememberChrome, refuseSpentVisit } from './site-charge.js';
import { favicon, faviconName } from './site-favicon.js';
import { renderMessage, renderPage, renderSearch, type Chrome, type Link, type Tab, type TreeItem } from './site-layout.js';
import { FILE_CSP, opensInline, securityHeaders, sendAbsent, sendHtml } from './site-responses.js';
import { readSearchQuery, RESULTS_PER_PAGE, searchSite } from './site-search.js';
import { loadSiteState, visibleStructure, type SiteState } from './site-state.js';
import { hostTarget, pathTarget, recentlyUnknown, rememberUnknownHost, serverHostnames, type SiteTarget } from './site-target.js';
import { locate, sectionPath, siteSpacePath, siteSpacesOf, type Located, type SectionEntry } from './site-navigation.js';
import { movedPage, spaceModel, type SpaceModel } from './space-model.js';
import { admit, type SetCookie } from './visitor.js';

/** Bumped when the rendering changes, so pages rendered before are not served again. */
const RENDER_VERSION = 2;
/** Rendered pages kept in memory: at most this many bytes and entries (least recently used go first). */
const PAGE_CACHE = { maxEntries: 20_000, maxWeight: 64 * 1024 * 1024 };
/** Entries of one level of the page tree listed in navigation; the rest are counted. */
const MAX_TREE_LEVEL = 300;
/** Items the page tree shows at most (groups stay expanded while under it). */
const MAX_TREE_ITEMS = 1500;
const MAX_SITEMAP_URLS = 50_000;

export { SITE_CSP } from './site-responses.js';

const pages = new BoundedCache<string>(PAGE_CACHE);

/** The rendered-page cache's state (tests and the bench read it). */
export const pageCache = { get size() { return pages.size; }, get bytes() { return pages.totalWeight; } };

const EMPTY_STRUCTURE: PublishedStructure = { type: 'siteSpaces', siteSpaces: [] };

type Where = { state: SiteState; site: PublishedSiteRow; root: string; segments: string[]; viaHost: boolean; address: string };

function setCookies(req: Request, res: Response, root: string, cookies: SetCookie[]) {
  for (const cookie of cookies) {
    res.cookie(cookie.name, cookie.value, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: root || '/', maxAge: cookie.maxAgeSeconds * 1000 });
  }
}

function customizationOf(site: PublishedSiteRow) {
  return toApiCustomization(site.customization as Schemas['SiteCustomizationInput'] | null, site.title);
}

function themeOf(site: PublishedSiteRow): string {
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

const indexable = (site: PublishedSiteRow) => site.visibility === 'public';

/** The icon addresses of the site's customization (image addresses are served from `_favicon/`). */
function faviconSources(site: PublishedSiteRow): { light: string; dark: string } | undefined {
  const icon = customizationOf(site).favicon;
  return icon && 'icon' in icon ? icon.icon : undefined;
}

function faviconOf(site: PublishedSiteRow, root: string): Chrome['favicon'] {
  const icon = customizationOf(site).favicon;
  if (!icon) return undefined;
  if ('emoji' in icon) return { emoji: icon.emoji };
  return { light: `${root}/_favicon/${faviconName(icon.icon.light)}`, dark: `${root}/_favicon/${faviconName(icon.icon.dark)}` };
}

/** What the chrome of every page of the site needs, for one visitor's structure. */
function chromeOf(site: PublishedSiteRow, root: string, structure: PublishedStructure, located: Located | undefined): Chrome {
  const customization = customizationOf(site);
  const sectionLink = (section: SectionEntry): Link => ({ title: section.title, href: `${root}${sectionPath(section)}/`, current: located?.section?.id === section.id });
  const tabs: Tab[] =
    structure.type === 'siteSpaces'
      ? []
      : structure.items.map((item) =>
          item.kind === 'section' ? { kind: 'section' as const, ...sectionLink(item.section) } : { kind: 'group' as const, title: item.group.title, sections: item.sections.map((entry) => sectionLink(entry.section)) },
        );
  return {
    root,
    title: customization.title,
    locale: customization.internationalization.locale,
    favicon: faviconOf(site, root),
    assets: { css: `${root}/_assets/${SITE_ASSETS.css.name}`, js: `${root}/_assets/${SITE_ASSETS.js.name}`, theme: `${root}/_assets/${rememberTheme(themeOf(site))}` },
    tabs,
    searchAction: `${root}/search`,
    noindex: !indexable(site),
  };
}

function etagMatches(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

type Rendering = {
  app: AppContext;
  site: PublishedSiteRow;
  root: string;
  structure: PublishedStructure;
  heads: ReadonlyMap<string, SpaceHead>;
  located: Located;
  model: SpaceModel;
  page: PageEntry;
  noindex: boolean;
};

/** The first document at or under `id` (a group's address leads there). */
function firstDocumentUnder(model: SpaceModel, id: string): string | undefined {
  const stack = [id];
  while (stack.length > 0) {
    const next = stack.shift()!;
    const page = model.tree.pages.get(next);
    if (page?.type === 'document') return next;
    stack.unshift(...(model.tree.childrenOf.get(next) ?? []));
  }
  return undefined;
}

function pageHref(root: string, section: SectionEntry | null, siteSpace: SiteSpaceRow, model: SpaceModel, pageId: string): string {
  return `${root}${siteSpacePath(section, siteSpace)}/${model.pathById.get(pageId)}`;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

async function renderSitePage(r: Rendering): Promise<string> {
  const { app, site, root, structure, located, model, page } = r;
  const organizationId = site.organizationId;
  const here = (pageId: string) => pageHref(root, located.section, located.siteSpace, model, pageId);
  const markdown = page.documentHash ? ((await loadDocuments(app.db, organizationId, [page.documentHash])).get(page.documentHash) ?? '') : '';

  // Other spaces of the site the body links to, and the files of this one.
  const visible = siteSpacesOf(structure);
  const otherModels = new Map<string, { model: SpaceModel; section: SectionEntry | null; siteSpace: SiteSpaceRow }>();
  for (const match of markdown.matchAll(/\/spaces\/([A-Za-z0-9_-]{1,64})/g)) {
    const spaceId = match[1]!;
    const entry = visible.find((item) => item.siteSpace.spaceId === spaceId);
    const head = r.heads.get(spaceId);
    if (entry && head && !otherModels.has(spaceId)) otherModels.set(spaceId, { model: await spaceModel(app.db, organizationId, head.pagesRoot), ...entry });
  }
  const head = r.heads.get(located.siteSpace.spaceId)!;
  const files = await loadFileTree(app.db, organizationId, head.filesRoot);
  const fileHref = (fileId: string) => (files.items.has(fileId) ? `${root}/_files/${located.siteSpace.spaceId}/${fileId}` : undefined);

  const parentPath = (model.pathById.get(page.id) ?? '').split('/').slice(0, -1);
  const links: LinkResolver = {
    link(href) {
      const address = href.trim();
      if (/^(https?|mailto|tel):/i.test(address) || address.startsWith('//')) return { href: address, external: true };
      if (/^[a-z][a-z0-9+.-]*:/i.test(address)) return { broken: true };
      const hash = address.indexOf('#');
      const anchor = hash >= 0 ? address.slice(hash) : '';
      const path = (hash >= 0 ? address.slice(0, hash) : address).replace(/\?.*$/, '');
      const parts = path.split('/').filter((part) => part !== '');
      if (path.startsWith('/') && parts[0] === 'pages' && parts.length === 2 && ID.test(parts[1]!)) {
        return model.pathById.has(parts[1]!) ? { href: here(parts[1]!) + anchor } : { broken: true };
      }
      if (path.startsWith('/') && parts[0] === 'files' && parts.length === 2) {
        const file = fileHref(parts[1]!);
        return file ? { href: file } : { broken: true };
      }
      if (path.startsWith('/') && parts[0] === 'spaces' && parts[1] && ID.test(parts[1])) {
        const other = otherModels.get(parts[1]);
        if (!other) return { broken: true };
        if (parts.length === 2) return { href: `${root}${siteSpacePath(other.section, other.siteSpace)}/` };
        if (parts[2] === 'pages' && parts.length === 4 && other.model.pathById.has(parts[3]!)) return { href: pageHref(root, other.section, other.siteSpace, other.model, parts[3]!) + anchor };
        return { broken: true };
      }
      // A path to a page: from the space's root, or relative to the page's folder — its parent's, or its
      // own when it has subpages (GitBook's 'page/README.md'); `.md` and README.md name the page.
      const resolve = (base: string[]) => {
        const folder = path.startsWith('/') ? [] : [...base];
        for (const part of parts) {
          if (part === '.') continue;
          if (part === '..') folder.pop();
          else folder.push(part);
        }
        const last = folder.at(-1);
        if (last && /^readme\.md$/i.test(last)) folder.pop();
        else if (last && /\.md$/i.test(last)) folder[folder.length - 1] = last.slice(0, -3);
        return model.idByPath.get(folder.join('/'));
      };
      const target = resolve(parentPath) ?? (model.tree.childrenOf.has(page.id) ? resolve([...parentPath, page.slug]) : undefined);
      if (target) return { href: here(target) + anchor };
      return path === '' ? { href: anchor } : { broken: true };
    },
    image(src) {
      const address = src.trim();
      if (/^https?:/i.test(address) || address.startsWith('//')) return { external: address };
      const id = /^\/files\/([A-Za-z0-9_-]{1,64})$/.exec(address)?.[1];
      const file = id ? fileHref(id) : undefined;
      return file ? { src: file } : { broken: true };
    },
  };
  const body = renderBody(markdown, links);

  // Navigation: the tree with the current page's branch open; groups open while the tree is small.
  const ancestors = new Set<string>();
  for (let id = model.tree.parentOf.get(page.id) ?? null; id !== null; id = model.tree.parentOf.get(id) ?? null) ancestors.add(id);
  let shown = 0;
  const treeOf = (parent: string | null): { items: TreeItem[]; more: number } => {
    const ids = model.navChildren.get(parent) ?? [];
    const listed = ids.slice(0, MAX_TREE_LEVEL);
    shown += listed.length;
    const items = listed.map((id): TreeItem => {
      const entry = model.tree.pages.get(id)!;
      const open = id === page.id || ancestors.has(id) || (entry.type === 'group' && shown < MAX_TREE_ITEMS);
      const children = open ? treeOf(id) : { items: [], more: 0 };
      return {
        title: entry.title,
        emoji: entry.emoji,
        href: entry.type === 'group' ? null : here(id),
        current: id === page.id,
        children: children.items,
        ...(children.more > 0 ? { more: children.more } : {}),
      };
    });
    return { items, more: ids.length - listed.length };
  };
  const tree = treeOf(null);
  if (tree.more > 0) tree.items.push({ title: `and ${tree.more} more pages`, href: null, current: false, children: [] });

  const breadcrumbs: Link[] = [...ancestors]
    .reverse()
    .flatMap((id) => {
      const target = firstDocumentUnder(model, id);
      return target ? [{ title: model.tree.pages.get(id)!.title, href: here(target) }] : [];
    });
  const index = model.readingIndex.get(page.id);
  const neighbour = (offset: number): Link | undefined => {
    if (index === undefined) return undefined;
    const id = model.readingOrder[index + offset];
    return id ? { title: model.tree.pages.get(id)!.title, href: here(id) } : undefined;
  };
  const layout = page.layout ?? {};
  const chrome = chromeOf(site, root, structure, located);
  const cover = page.cover && layout.cover !== false ? fileHref(page.cover.ref.file) : undefined;
  const sidebarStyle = customizationOf(site).styling.sidebar.list;
  return renderPage(
    chrome,
    {
      title: page.title,
      description: layout.description === false ? undefined : page.description,
      emoji: page.emoji,
      cover,
      canonical: `${siteAddress(app.urls, site)}${siteSpacePath(located.section, located.siteSpace)}/${model.pathById.get(page.id)}`,
      breadcrumbs,
      switcher:
        located.siblings.length > 1
          ? { label: 'Variants', items: located.siblings.map((row) => ({ title: row.spaceTitle, href: `${root}${siteSpacePath(located.section, row)}/`, current: row.id === located.siteSpace.id })) }
          : undefined,
      tree: tree.items,
      body: body.nodes,
      outline: layout.outline === false ? [] : body.outline,
      updatedAt: page.updatedAt,
      previous: layout.pagination === false ? undefined : neighbour(-1),
      next: layout.pagination === false ? undefined : neighbour(1),
    },
    { sidebar: `sidebar-${sidebarStyle}`, noindex: r.noindex },
  );
}

function sendNotFound(res: Response, site: PublishedSiteRow, root: string, structure: PublishedStructure | undefined, restricted: boolean) {
  const chrome = chromeOf(site, root, structure ?? EMPTY_STRUCTURE, undefined);
  sendHtml(res, 404, renderMessage(chrome, { title: 'Page not found', text: 'There is no page at this address. It may have moved, or it is not published.', link: { title: `Go to ${chrome.title}`, href: `${root}/` } }), {
    'Cache-Control': restricted ? 'private, no-store' : 'no-cache',
    'X-Robots-Tag': 'noindex',
  });
}

async function sitemap(app: AppContext, state: SiteState, res: Response) {
  const { site, heads } = state;
  const { structure } = await visibleStructure(app.db, state, { claims: {} });
  const visible = siteSpacesOf(structure);
  const base = siteAddress(app.urls, site);
  const urls: string[] = [];
  for (const { section, siteSpace } of visible) {
    const head = heads.get(siteSpace.spaceId);
    if (!head) continue;
    const model = await spaceModel(app.db, site.organizationId, head.pagesRoot);
    for (const id of model.readingOrder) {
      const page = model.tree.pages.get(id)!;
      if (page.noIndex || page.noRobotsIndex || urls.length >= MAX_SITEMAP_URLS) continue;
      urls.push(`<url><loc>${escapeXml(`${base}${siteSpacePath(section, siteSpace)}/${model.pathById.get(id)}`)}</loc><lastmod>${page.updatedAt.slice(0, 10)}</lastmod></url>`);
    }
  }
  res.status(200).set({ 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'no-cache' });
  res.send(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`);
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

async function serveFile(app: AppContext, state: SiteState, structure: PublishedStructure, segments: string[], restricted: boolean, req: Request, res: Response): Promise<boolean> {
  const { site } = state;
  const [spaceId, fileId] = segments;
  if (!spaceId || !fileId || segments.length !== 2 || !ID.test(spaceId) || !ID.test(fileId)) return false;
  if (!siteSpacesOf(structure).some((item) => item.siteSpace.spaceId === spaceId)) return false;
  const head = state.heads.get(spaceId);
  const file = head && (await loadFileTree(app.db, site.organizationId, head.filesRoot)).items.get(fileId);
  if (!file) return false;
  const etag = `"${file.blobHash}"`;
  const headers = {
    ETag: etag,
    'Cache-Control': restricted ? 'private, no-cache' : 'public, no-cache',
    // Files are the authors' bytes: never a page of this origin.
    'Content-Security-Policy': FILE_CSP,
    'Content-Disposition': `${opensInline(file.contentType) ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
  };
  if (etagMatches(req, etag)) {
    res.status(304).set(headers).end();
    return true;
  }
  const bytes = await blobStore.get(app.db, site.organizationId, file.blobHash);
  if (!bytes) return false;
  res.status(200).set({ ...headers, 'Content-Type': file.contentType }).send(bytes);
  return true;
}

/**
 * The site's answer. Who may see it is decided first (issue 25, F8): to a visitor it is absent for
 * (unpublished; share-link without its key) nothing of it answers — no robots.txt, no redirect, no
 * cookie, not even a 405 — only the bytes an unknown name gets.
 */
async function serve(app: AppContext, where: Where, req: Request, res: Response) {
  const { site, root, segments } = where;
  securityHeaders(res);
  const url = new URL(req.originalUrl, 'http://site.invalid');
  const admission = await admit(site, where.state.shareKeyHashes, req, url.searchParams);
  if (admission.kind === 'absent') return sendAbsent(res);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.status(405).set({ Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).send('Method not allowed');
    return;
  }
  // The site shows itself to this visitor (a visitor-auth site, its sign-in): its 429 page may show it too.
  if (site.visibility !== 'share-link') rememberChrome(where.address, `${site.id}:${site.updatedAt.getTime()}:${root}`, () => chromeOf(site, root, EMPTY_STRUCTURE, undefined));
  if (admission.kind === 'reload') {
    setCookies(req, res, root, admission.cookies);
    const query = admission.query.toString();
    res.status(303).set({ Location: `${url.pathname}${query ? `?${query}` : ''}`, 'Cache-Control': 'no-store' }).end();
    return;
  }
  const first = segments[0];
  // The site's theme when this instance had not rendered it yet (shared-assets.ts answers it from then on).
  if (first === '_assets' && segments.length === 2) {
    const theme = themeOf(site);
    if (segments[1] === rememberTheme(theme)) {
      res.status(200).set({ 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' }).send(theme);
      return;
    }
  }
  if (first === 'robots.txt' && segments.length === 1) {
    const body = indexable(site) ? `User-agent: *\nAllow: /\nSitemap: ${siteAddress(app.urls, site)}/sitemap.xml\n` : 'User-agent: *\nDisallow: /\n';
    res.status(200).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' }).send(body);
    return;
  }
  if (first === 'sitemap.xml' && segments.length === 1 && indexable(site)) return sitemap(app, where.state, res);

  if (admission.kind === 'login') {
    res.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });
    const requested = `${where.viaHost ? `${new URL(app.urls.api('/')).protocol}//${site.hostname}` : app.config.publicUrl}${url.pathname}${url.search}`;
    if (admission.fallbackUrl) {
      const target = new URL(admission.fallbackUrl);
      target.searchParams.set('location', requested);
      res.redirect(302, target.toString());
      return;
    }
    const chrome = chromeOf(site, root, EMPTY_STRUCTURE, undefined);
    return sendHtml(res, 401, renderMessage(chrome, { title: 'Sign-in required', text: 'This site is for signed-in visitors: open it through the link your sign-in page gives you.' }));
  }
  const { visitor, restricted } = admission;
  res.set({ Vary: 'Cookie' });
  if (!indexable(site)) res.set('X-Robots-Tag', 'noindex');

  const visible = await visibleStructure(app.db, where.state, visitor);
  const { structure } = visible;
  if (first === '_files') {
    if (!(await serveFile(app, where.state, structure, segments.slice(1), restricted, req, res))) sendNotFound(res, site, root, structure, restricted);
    return;
  }
  if (first === '_favicon' && segments.length === 2) return serveFavicon(app, where, segments[1]!, restricted, req, res);
  // The search page: `search?q=` (the box's form); a page of its own at `search` answers without `q`.
  const searching = segments.length === 1 && first === 'search';
  if (searching && url.searchParams.has('q')) return serveSearch(app, where, structure, restricted, url, res);
  const notFound = searching ? () => serveSearch(app, where, structure, restricted, url, res) : () => sendNotFound(res, site, root, structure, restricted);
  await servePage(app, where, visible, restricted, url, req, res, notFound);
}

async function serveFavicon(app: AppContext, where: Where, name: string, restricted: boolean, req: Request, res: Response) {
  const { site, root } = where;
  const sources = faviconSources(site);
  const url = sources && [sources.light, sources.dark].find((source) => faviconName(source) === name);
  const icon = url ? await favicon(url, app.config.outbound) : undefined;
  if (!icon) return sendNotFound(res, site, root, undefined, restricted);
  const headers = {
    ETag: icon.etag,
    'Cache-Control': `${restricted ? 'private' : 'public'}, max-age=86400`,
    // An SVG icon opened on its own runs nothing, and is not even shown: pages load it, nobody opens it.
    'Content-Security-Policy': FILE_CSP,
    ...(opensInline(icon.contentType) ? {} : { 'Content-Disposition': 'attachment' }),
  };
  if (etagMatches(req, icon.etag)) {
    res.status(304).set(headers).end();
    return;
  }
  res.status(200).set({ ...headers, 'Content-Type': icon.contentType }).send(icon.body);
}

async function serveSearch(app: AppContext, where: Where, structure: PublishedStructure, restricted: boolean, url: URL, res: Response) {
  const { site, root } = where;
  const chrome = chromeOf(site, root, structure, undefined);
  const headers = { 'Cache-Control': restricted ? 'private, no-store' : 'no-cache', 'X-Robots-Tag': 'noindex' };
  const query = readSearchQuery(url.searchParams);
  if ('problem' in query) {
    const text = (url.searchParams.get('q') ?? '').slice(0, 200);
    return sendHtml(res, 400, renderSearch(chrome, { query: text, problem: query.problem, total: 0, hits: [], page: 1 }), headers);
  }
  const found = await searchSite(app.db, site.organizationId, root, structure, where.state.heads, query);
  const pageAddress = (page: number) => `${root}/search?${new URLSearchParams({ q: query.text, ...(page > 1 ? { page: String(page) } : {}) }).toString()}`;
  const pages = Math.ceil(found.total / RESULTS_PER_PAGE);
  sendHtml(
    res,
    200,
    renderSearch(chrome, {
      query: query.text,
      total: found.total,
      hits: found.hits,
      page: query.page,
      previous: query.page > 1 ? pageAddress(query.page - 1) : undefined,
      next: query.page < Math.min(pages, 10) ? pageAddress(query.page + 1) : undefined,
    }),
    headers,
  );
}

async function servePage(
  app: AppContext,
  where: Where,
  visible: { structure: PublishedStructure; fingerprint: string },
  restricted: boolean,
  url: URL,
  req: Request,
  res: Response,
  notFound: () => unknown,
) {
  const { site, root, segments } = where;
  const { structure } = visible;
  const readings = locate(structure, segments);
  if (readings.length === 0) return notFound();
  const { heads } = where.state;
  const pageAt = async (reading: Located) => {
    const head = heads.get(reading.siteSpace.spaceId);
    if (!head) return undefined;
    const model = await spaceModel(app.db, site.organizationId, head.pagesRoot);
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
  if (!found) return notFound();
  const { model, pageId } = found;
  if (!pageId) {
    // A page that moved: under any reading of the address, its path in a recent revision.
    for (const reading of readings) {
      const candidate = reading.pagePath === '' ? undefined : await pageAt(reading);
      if (!candidate) continue;
      const moved = await movedPage(app.db, site.organizationId, reading.siteSpace.spaceId, candidate.head.pagesRoot, candidate.model, reading.pagePath);
      if (moved) {
        res.status(301).set({ Location: `${pageHref(root, reading.section, reading.siteSpace, candidate.model, moved)}${url.search}`, 'Cache-Control': 'no-cache' }).end();
        return;
      }
    }
  }
  if (!pageId) return notFound();
  if (model.tree.pages.get(pageId)!.type === 'group') {
    const target = firstDocumentUnder(model, pageId);
    if (!target) return sendNotFound(res, site, root, structure, restricted);
    res.status(302).set({ Location: pageHref(root, located.section, located.siteSpace, model, target), 'Cache-Control': 'no-cache' }).end();
    return;
  }
  const page = model.tree.pages.get(pageId)!;
  const noindex = !indexable(site) || page.noIndex || page.noRobotsIndex;
  const key = createHash('sha256')
    .update(
      JSON.stringify([
        RENDER_VERSION,
        site.id,
        site.updatedAt.getTime(),
        root,
        visible.fingerprint,
        [...heads.values()].map((item) => [item.spaceId, item.revisionId]).sort(),
        located.siteSpace.id,
        pageId,
      ]),
    )
    .digest('base64url');
  const etag = `"${key}"`;
  const headers: Record<string, string> = { ETag: etag, 'Cache-Control': restricted ? 'private, no-cache' : 'public, no-cache' };
  if (noindex) headers['X-Robots-Tag'] = 'noindex';
  if (etagMatches(req, etag)) {
    res.status(304).set(headers).end();
    return;
  }
  let html = pages.get(key);
  if (html === undefined) {
    html = await renderSitePage({ app, site, root, structure, heads, located, model, page, noindex });
    pages.set(key, html, html.length);
  }
  sendHtml(res, 200, html, headers);
}

/** Answers the site found at `target` (a malformed path below it: as an absent site). */
async function answer(app: AppContext, target: SiteTarget & { address: string }, state: SiteState, req: Request, res: Response) {
  if (!target.segments) return sendAbsent(res);
  await serve(app, { state, site: state.site, root: target.root, segments: target.segments, viaHost: target.via === 'host', address: target.address }, req, res);
}

/**
 * Mounts the published sites before the API: requests for a site are answered here, anything else goes
 * on. Each step costs nothing the previous one has not paid for (issue 25, F7):
 * - the shared files (`_assets/`) come from memory: no query, no charge;
 * - on a Host that may be a site's, a spent budget is refused in memory; then the one lookup, charged
 *   when it finds a site. A Host that names none goes on to the API, which charges it, and is
 *   remembered for a few seconds;
 * - below `/s/`, the request is charged first (refused in memory over the limit), then looked up; an
 *   unknown or malformed name answers exactly what an absent site does.
 */
export function mountPublishedSites(app: Express, context: AppContext) {
  const ownHosts = serverHostnames(context.config);
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    const found = hostTarget(req, ownHosts);
    const host = found && !recentlyUnknown(found.address) ? found : undefined;
    const path = pathTarget(req);
    if (!host && !path) return next();
    // Until a site is found, a failure (the database away) is the API's to answer.
    let answering = false;
    try {
      if (host) {
        if (serveSharedAsset(host.segments, res)) return;
        if (!refuseSpentVisit(context, req, res, host.address)) return;
        const state = await loadSiteState(context.db, host.address);
        if (state) {
          answering = true;
          if (await chargeVisit(context, req, res, host.address)) await answer(context, host, state, req, res);
          return;
        }
        rememberUnknownHost(host.address);
      }
      if (!path) return next();
      if (serveSharedAsset(path.segments, res)) return;
      if (!(await chargeVisit(context, req, res, path.address))) return;
      const state = path.address && path.segments ? await loadSiteState(context.db, path.address) : undefined;
      answering = true;
      if (state) await answer(context, { ...path, address: path.address! }, state, req, res);
      else sendAbsent(res);
    } catch (error) {
      if (!answering) return next(error);
      req.log?.error({ err: error }, 'published site: unexpected error');
      if (res.headersSent) return res.end();
      res.status(500).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).send('The site could not be shown: try again in a moment.');
    }
  });
}
