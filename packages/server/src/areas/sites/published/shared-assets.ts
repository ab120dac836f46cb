// The files every site shares (SITE_ASSETS: the stylesheet, the scripts, the fonts; a new shared file is one more
// entry there) and the theme stylesheets, served under `{root}/_assets/` from memory: named by a hash
// of their content, cached for good by browsers, and the same for every site — so they are answered
// before the site is looked up or the request charged (no query, no budget), whatever the root names
// (an unknown site gets the same bytes: they say nothing of any site).
//
// Only real files are: a theme is known here once this instance rendered a page of a site using it
// (the `siteThemes` cache: a theme's name is the hash of its bytes, so it is never stale); any other
// name under `_assets/` is an ordinary request of the site, charged and looked up (issue 25, F7: every
// `_assets/<anything>` used to be free, and still cost its site's query).
import type { Response } from 'express';
import type { Caches } from '../../../caches.js';
import { SITE_ASSETS, themeName } from './site-assets.js';
import { securityHeaders } from './site-responses.js';

const SHARED: ReadonlyMap<string, { body: string | Buffer; type: string }> = new Map(Object.values(SITE_ASSETS).map((asset) => [asset.name, asset]));

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The theme's file name, remembered so that its file is served from memory. */
export function rememberTheme(caches: Caches, css: string): string {
  const name = themeName(css);
  if (caches.siteThemes.get(name) === undefined) caches.siteThemes.set(name, css);
  return name;
}

/** Answers `_assets/{name}` when it names a shared file or a theme known here; false otherwise. */
export function serveSharedAsset(caches: Caches, segments: readonly string[] | null, res: Response): boolean {
  if (!segments || segments.length !== 2 || segments[0] !== '_assets') return false;
  const name = segments[1]!;
  const asset = SHARED.get(name);
  const theme = asset ? undefined : caches.siteThemes.get(name);
  if (!asset && theme === undefined) return false;
  securityHeaders(res);
  res.status(200).set({ 'Content-Type': asset?.type ?? 'text/css; charset=utf-8', 'Cache-Control': IMMUTABLE }).send(asset?.body ?? theme);
  return true;
}
