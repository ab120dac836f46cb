// Published sites served as HTML by the server itself (issue 20): mounted in app.ts before the API's
// request path (outside /v1, outside the OpenAPI contract and its validator). A site answers on its
// custom hostname (the request's Host, never the API's own host) and at {PUBLIC_URL}/s/{basename or
// site id}/…; below the site's root: the section's path, the site space's path, the page's path.
//
// Per request: the site (one indexed lookup), the audience (visitor.ts), the structure the visitor may
// see (published-structure.ts, the API's own resolver), the head revision of each visible space (one
// query). The rendered page is kept by a key over all of that and the page (revisions are immutable),
// which is also its ETag: a repeat visit answers 304, a new visitor of the same view a cached body.
import { createHash } from 'node:crypto';
import type { Express, NextFunction, Request, Response } from 'express';
import type { AppContext } from '../../../context.js';
import { loadDocuments } from '../../../content/content-objects.repository.js';
import { blobStore } from '../../../content/blob-store.js';
import type { PageEntry } from '../../../content/model.js';
import { loadFileTree } from '../../../content/tree-store.js';
import { siteAddress } from '../addresses.js';
import { resolvePublishedStructure, type PublishedStructure } from '../published-structure.js';
import { hostAddress, pathAddress } from '../sites.repository.js';
import { toApiCustomization } from '../sites.mapper.js';
import type { Schemas } from '../../../schemas.js';
import type { SiteSpaceRow } from '../structure.repository.js';
import { BoundedCache } from './bounded-cache.js';
import { renderBody, type LinkResolver } from './markdown-html.js';
import { findSiteAtAddress, spaceHeads, type PublishedSiteRow, type SpaceHead } from './published.repository.js';
import { SITE_ASSETS, themeCss, themeName } from './site-assets.js';
import { renderMessage, renderPage, type Chrome, type Link, type Tab, type TreeItem } from './site-layout.js';
import { locate, sectionPath, siteSpacePath, siteSpacesOf, type Located, type SectionEntry } from './site-navigation.js';
import { movedPage, spaceModel, type SpaceModel } from './space-model.js';
import { admit, type SetCookie } from './visitor.js';

/** Bumped when the rendering changes, so pages rendered before are not served again. */
const RENDER_VERSION = 1;
/** Rendered pages kept in memory: at most this many bytes and entries (least recently used go first). */
const PAGE_CACHE = { maxEntries: 20_000, maxWeight: 64 * 1024 * 1024 };
/** Entries of one level of the page tree listed in navigation; the rest are counted. */
const MAX_TREE_LEVEL = 300;
/** Items the page tree shows at most (groups stay expanded while under it). */
const MAX_TREE_ITEMS = 1500;
const MAX_SITEMAP_URLS = 50_000;
const MAX_SEGMENTS = 64;

/** `script-src 'self'`, no inline anything; images from the site itself (and the emoji favicon's data: URL). */
export const SITE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const pages = new BoundedCache<string>(PAGE_CACHE);
/** Hosts that named no site a moment ago: odd Host headers do not cost a query each. */
const unknownHosts = new BoundedCache<number>({ maxEntries: 10_000 });
const UNKNOWN_HOST_TTL_MS = 10_000;

/** The rendered-page cache's state (tests and the bench read it). */
export const pageCache = { get size() { return pages.size; }, get bytes() { return pages.totalWeight; } };

type Where = { site: PublishedSiteRow; root: string; segments: string[]; viaHost: boolean };

const HOSTNAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

function segmentsOf(path: string): string[] | undefined {
  const raw = path.split('/').filter((segment) => segment !== '');
  if (raw.length > MAX_SEGMENTS) return undefined;
  try {
    return raw.map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

async function findWhere(app: AppContext, req: Request, publicHost: string): Promise<Where | undefined | 'malformed'> {
  const host = (req.hostname ?? '').toLowerCase();
  if (host && host !== publicHost && HOSTNAME.test(host)) {
    const seen = unknownHosts.get(host);
    if (seen === undefined || Date.now() - seen > UNKNOWN_HOST_TTL_MS) {
      const site = await findSiteAtAddress(app.db, hostAddress(host));
      if (site) {
        const segments = segmentsOf(req.path);
        return segments ? { site, root: '', segments, viaHost: true } : 'malformed';
      }
      unknownHosts.set(host, Date.now());
    }
  }
  if (!req.path.startsWith('/s/')) return undefined;
  const segments = segmentsOf(req.path);
  if (!segments || segments.length < 2) return segments ? undefined : 'malformed';
  const name = segments[1]!;
  if (!/^[A-Za-z0-9-]{1,100}$/.test(name)) return undefined;
  const site = await findSiteAtAddress(app.db, pathAddress(name));
  return site ? { site, root: `/s/${name}`, segments: segments.slice(2), viaHost: false } : undefined;
}

function securityHeaders(res: Response) {
  // The API's CORS headers do not apply: a site's pages are for its visitors' browsers only.
  res.removeHeader('Access-Control-Allow-Origin');
  res.removeHeader('Access-Control-Expose-Headers');
  res.set({
    'Content-Security-Policy': SITE_CSP,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
  });
}

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

/** What the chrome of every page of the site needs, for one visitor's structure. */
function chromeOf(site: PublishedSiteRow, root: string, structure: PublishedStructure, located: Located | undefined): Chrome {
  const customization = customizationOf(site);
  const favicon = customization.favicon && 'emoji' in customization.favicon ? customization.favicon.emoji : undefined;
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
    faviconEmoji: favicon,
    assets: { css: `${root}/_assets/${SITE_ASSETS.css.name}`, js: `${root}/_assets/${SITE_ASSETS.js.name}`, theme: `${root}/_assets/${themeName(themeOf(site))}` },
    tabs,
    searchAction: undefined,
    noindex: !indexable(site),
  };
}

/** A stable description of the visible structure (part of the cache key). */
function fingerprint(structure: PublishedStructure): unknown {
  const siteSpace = (row: SiteSpaceRow) => [row.id, row.path, row.spaceTitle, row.effectiveDefault, row.updatedAt.getTime()];
  if (structure.type === 'siteSpaces') return structure.siteSpaces.map(siteSpace);
  return structure.items.map((item) =>
    item.kind === 'section'
      ? [item.section.id, item.section.path, item.section.title, item.section.isDefault, item.section.updatedAt.getTime(), item.siteSpaces.map(siteSpace)]
      : [item.group.id, item.group.title, item.sections.map((entry) => [entry.section.id, entry.section.path, entry.section.title, entry.section.isDefault, entry.section.updatedAt.getTime(), entry.siteSpaces.map(siteSpace)])],
  );
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
  heads: Map<string, SpaceHead>;
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
      // own when it has subpages (GitBook's `page/README.md`); `.md` and README.md name the page.
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

function sendHtml(res: Response, status: number, html: string, headers: Record<string, string> = {}) {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', ...headers }).send(html);
}

function sendNotFound(res: Response, site: PublishedSiteRow, root: string, structure: PublishedStructure | undefined, restricted: boolean) {
  const chrome = chromeOf(site, root, structure ?? { type: 'siteSpaces', siteSpaces: [] }, undefined);
  sendHtml(res, 404, renderMessage(chrome, { title: 'Page not found', text: 'There is no page at this address. It may have moved, or it is not published.', link: { title: `Go to ${chrome.title}`, href: `${root}/` } }), {
    'Cache-Control': restricted ? 'private, no-store' : 'no-cache',
    'X-Robots-Tag': 'noindex',
  });
}

/** A plain 404 for a site nobody may see: nothing of the site (not even its name) is shown. */
function sendAbsent(res: Response) {
  res.status(404).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });
  res.send('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><main><h1>Not found</h1><p>There is nothing published at this address.</p></main></body></html>');
}

async function sitemap(app: AppContext, site: PublishedSiteRow, res: Response) {
  const structure = await resolvePublishedStructure(app.db, site.organizationId, site.id, { visitor: { claims: {} } });
  const visible = siteSpacesOf(structure);
  const heads = await spaceHeads(app.db, site.organizationId, visible.map((item) => item.siteSpace.spaceId));
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

async function serveFile(app: AppContext, site: PublishedSiteRow, structure: PublishedStructure, segments: string[], restricted: boolean, req: Request, res: Response): Promise<boolean> {
  const [spaceId, fileId] = segments;
  if (!spaceId || !fileId || segments.length !== 2 || !ID.test(spaceId) || !ID.test(fileId)) return false;
  if (!siteSpacesOf(structure).some((item) => item.siteSpace.spaceId === spaceId)) return false;
  const head = (await spaceHeads(app.db, site.organizationId, [spaceId])).get(spaceId);
  const file = head && (await loadFileTree(app.db, site.organizationId, head.filesRoot)).items.get(fileId);
  if (!file) return false;
  const etag = `"${file.blobHash}"`;
  const headers = {
    ETag: etag,
    'Cache-Control': restricted ? 'private, no-cache' : 'public, no-cache',
    // Files are the authors' bytes: never a page of this origin.
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    'Content-Disposition': `${file.contentType.startsWith('image/') ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
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

async function serve(app: AppContext, where: Where, req: Request, res: Response) {
  const { site, root, segments } = where;
  securityHeaders(res);
  if (!site.published) return sendAbsent(res);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.status(405).set({ Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).send('Method not allowed');
    return;
  }
  const first = segments[0];
  // Files every site shares, named by their content: cached for good.
  if (first === '_assets' && segments.length === 2) {
    const asset = [SITE_ASSETS.css, SITE_ASSETS.js].find((candidate) => candidate.name === segments[1]);
    if (asset) {
      res.status(200).set({ 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=31536000, immutable' }).send(asset.body);
      return;
    }
    const theme = themeOf(site);
    if (segments[1] === themeName(theme)) {
      res.status(200).set({ 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' }).send(theme);
      return;
    }
  }
  if (first === 'robots.txt' && segments.length === 1) {
    const body = indexable(site) ? `User-agent: *\nAllow: /\nSitemap: ${siteAddress(app.urls, site)}/sitemap.xml\n` : 'User-agent: *\nDisallow: /\n';
    res.status(200).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' }).send(body);
    return;
  }
  if (first === 'sitemap.xml' && segments.length === 1 && indexable(site)) return sitemap(app, site, res);

  const url = new URL(req.originalUrl, 'http://site.invalid');
  const admission = await admit(app.db, site, req, url.searchParams);
  if (admission.kind === 'absent') return sendAbsent(res);
  if (admission.kind === 'reload') {
    setCookies(req, res, root, admission.cookies);
    const query = admission.query.toString();
    res.status(303).set({ Location: `${url.pathname}${query ? `?${query}` : ''}`, 'Cache-Control': 'no-store' }).end();
    return;
  }
  if (admission.kind === 'login') {
    res.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });
    const requested = `${where.viaHost ? `${new URL(app.urls.api('/')).protocol}//${site.hostname}` : app.config.publicUrl}${url.pathname}${url.search}`;
    if (admission.fallbackUrl) {
      const target = new URL(admission.fallbackUrl);
      target.searchParams.set('location', requested);
      res.redirect(302, target.toString());
      return;
    }
    const chrome = chromeOf(site, root, { type: 'siteSpaces', siteSpaces: [] }, undefined);
    return sendHtml(res, 401, renderMessage(chrome, { title: 'Sign-in required', text: 'This site is for signed-in visitors: open it through the link your sign-in page gives you.' }));
  }
  const { visitor, restricted } = admission;
  res.set({ Vary: 'Cookie' });
  if (!indexable(site)) res.set('X-Robots-Tag', 'noindex');

  const structure = await resolvePublishedStructure(app.db, site.organizationId, site.id, { visitor });
  if (first === '_files') {
    if (!(await serveFile(app, site, structure, segments.slice(1), restricted, req, res))) sendNotFound(res, site, root, structure, restricted);
    return;
  }
  await servePage(app, where, structure, restricted, url, req, res);
}

async function servePage(app: AppContext, where: Where, structure: PublishedStructure, restricted: boolean, url: URL, req: Request, res: Response) {
  const { site, root, segments } = where;
  const readings = locate(structure, segments);
  if (readings.length === 0) return sendNotFound(res, site, root, structure, restricted);
  const visible = siteSpacesOf(structure);
  const heads = await spaceHeads(app.db, site.organizationId, visible.map((item) => item.siteSpace.spaceId));
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
  if (!found) return sendNotFound(res, site, root, structure, restricted);
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
  if (!pageId) return sendNotFound(res, site, root, structure, restricted);
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
        fingerprint(structure),
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

/** Mounts the published sites before the API: requests for a site are answered here, anything else goes on. */
export function mountPublishedSites(app: Express, context: AppContext) {
  const publicHost = new URL(context.config.publicUrl).hostname.toLowerCase();
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    let where: Awaited<ReturnType<typeof findWhere>>;
    try {
      where = await findWhere(context, req, publicHost);
    } catch (error) {
      return next(error);
    }
    if (where === undefined) return next();
    if (where === 'malformed') {
      securityHeaders(res);
      return sendAbsent(res);
    }
    try {
      await serve(context, where, req, res);
    } catch (error) {
      req.log?.error({ err: error }, 'published site: unexpected error');
      if (res.headersSent) return res.end();
      res.status(500).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).send('The site could not be shown: try again in a moment.');
    }
  });
}
