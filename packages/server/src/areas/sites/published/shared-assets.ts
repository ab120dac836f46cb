// The stylesheet and script every site shares, and the theme stylesheets, served under `{root}/_assets/`
// from memory: named by a hash of their content, cached for good by browsers, and the same for every
// site — so they are answered before the site is looked up or the request charged (no query, no budget),
// whatever the root names (an unknown site gets the same bytes: they say nothing of any site).
//
// Only real files are: a theme is known here once this instance rendered a page of a site using it; any
// other name under `_assets/` is an ordinary request of the site, charged and looked up (issue 25, F7:
// every `_assets/<anything>` used to be free, and still cost its site's query).
import type { Response } from 'express';
import { BoundedCache } from '../../../db/bounded-cache.js';
import { SITE_ASSETS, themeName } from './site-assets.js';
import { securityHeaders } from './site-responses.js';

/** Themes kept by name (a few kilobytes each). */
const themes = new BoundedCache<string>({ maxEntries: 2_000, maxWeight: 16 * 1024 * 1024 });

/** The theme's file name, remembered so that its file is served from memory. */
export function rememberTheme(css: string): string {
  const name = themeName(css);
  if (themes.get(name) === undefined) themes.set(name, css, css.length);
  return name;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Answers `_assets/{name}` when it names a shared file or a theme known here; false otherwise. */
export function serveSharedAsset(segments: readonly string[] | null, res: Response): boolean {
  if (!segments || segments.length !== 2 || segments[0] !== '_assets') return false;
  const name = segments[1]!;
  const asset = [SITE_ASSETS.css, SITE_ASSETS.js].find((candidate) => candidate.name === name);
  const theme = asset ? undefined : themes.get(name);
  if (!asset && theme === undefined) return false;
  securityHeaders(res);
  res.status(200).set({ 'Content-Type': asset?.type ?? 'text/css; charset=utf-8', 'Cache-Control': IMMUTABLE }).send(asset?.body ?? theme);
  return true;
}
