// The social image of a published page (issue 28, "SEO and sharing"), on the main thread: what it shows
// (bounded here), the hash of that and of the renderer's version (its address carries it, so the image
// is cached for a year by browsers and crawlers and a new one gets a new address), the cache in
// PostgreSQL (`site_social_images`, one row per page: rendered once per hash), and the rendering in the
// parse pool (social-image.ts). Only sites anyone may read announce it (`og:image`): see `socialImageOf`.
//
// The site's logo (its light one: the image is white) is the one the site keeps for its header
// (site-favicon.ts: fetched through the outbound guard at most once an hour, kept in memory), handed to
// the worker as bytes: the renderer fetches nothing. Its address is part of the hash (a new logo, a new
// image address); its bytes are part of the kept image's key, so a logo that could not be had at first,
// or that changed at the same address, is drawn once the site has it.
import { createHash } from 'node:crypto';
import type { AppContext } from '../../../context.js';
import { siteAddress } from '../../../publication/site-addresses.js';
import { findSocialImage, keepSocialImage } from './published.repository.js';
import type { SocialInput, SocialLogo } from './social-image.js';
import { customizationOf } from './site-chrome.js';
import { favicon } from './site-favicon.js';
import { siteSpacePath } from './site-navigation.js';
import type { SitePage } from './site-page.js';
import type { SiteVisit } from './site-visit.js';

/** Bumped when the image's layout changes: every page gets a new image (and address). */
const RENDERER_VERSION = 'social-2';
/** Characters of each text the image is given: it shows three lines of each at most anyway. */
const MAX_TITLE = 160;
const MAX_DESCRIPTION = 300;
const MAX_SITE_TITLE = 80;
/** A rendering takes ~0.1–1 s on a loaded machine: past this it is stopped (and the request fails alone). */
const RENDER_DEADLINE_MS = 10_000;
const DEFAULT_COLOR = '#346DDB';

/** `text` cut to `max` characters (whole graphemes: no half emoji), control characters removed, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.slice(0, max * 4).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(clean)].map((part) => part.segment);
  return graphemes.length > max || clean.length < text.length ? `${graphemes.slice(0, max - 1).join('').trimEnd()}…` : clean;
}

/**
 * The logo types drawn: those satori sizes and resvg 2.6 reads (PNG and SVG exercised by the tests). A
 * WebP or ICO logo, not tried with resvg-js 2.6.2, keeps the coloured square.
 */
const DRAWN_LOGO_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml']);

/** What the image shows, as its hash sees it: the texts and colour, and the logo by its address. */
type SocialShown = Omit<SocialInput, 'logo'> & { logoAddress: string | undefined };

/** What the page's image shows, bounded; the logo by its address (its bytes are had by `socialImage`). */
export function socialInput(visit: SiteVisit, found: SitePage): SocialShown {
  const customization = customizationOf(visit.site);
  const { page } = found;
  const color = customization.styling.primaryColor.light;
  return {
    locale: customization.internationalization.locale,
    logoAddress: customization.logo?.light,
    siteTitle: clip(customization.title, MAX_SITE_TITLE),
    pageTitle: clip(page.title, MAX_TITLE),
    description: page.layout?.description === false ? '' : clip(page.description ?? '', MAX_DESCRIPTION),
    color: /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color) ? color : DEFAULT_COLOR,
  };
}

export const socialHash = (input: SocialShown) => createHash('sha256').update(JSON.stringify([RENDERER_VERSION, input])).digest('base64url').slice(0, 22);

/**
 * The absolute address of the page's image, for `og:image`; undefined on a site not everyone may read.
 * A share-link or visitor-auth site's image is served only to who may read the page (a crawler has no
 * key, so a preview could not show it anyway), and its pages do not name it: no address of a private
 * page's image is handed to a link preview.
 */
export function socialImageOf(visit: SiteVisit, found: SitePage): string | undefined {
  if (visit.site.visibility !== 'public' && visit.site.visibility !== 'unlisted') return undefined;
  const { located, model, page } = found;
  const path = `${siteSpacePath(located.section, located.siteSpace)}/${model.pathById.get(page.id) ?? ''}`;
  return `${siteAddress(visit.app.urls, visit.site)}/_social${path}.png?v=${socialHash(socialInput(visit, found))}`;
}

/** The site's logo as the site keeps it, when the renderer can draw it. */
async function socialLogo(app: Pick<AppContext, 'caches' | 'config'>, address: string | undefined): Promise<(SocialLogo & { etag: string }) | undefined> {
  const icon = address ? await favicon(app.caches, address, app.config.outbound) : undefined;
  return icon && DRAWN_LOGO_TYPES.has(icon.contentType) ? { contentType: icon.contentType, data: icon.body, etag: icon.etag } : undefined;
}

/**
 * The page's image: kept, or rendered in the parse pool and kept (replacing the page's image of an
 * older key). `hash` is the address's `v`; `etag` names the image itself (it also changes with the
 * logo's bytes).
 */
export async function socialImage(app: Pick<AppContext, 'db' | 'parsing' | 'caches' | 'config'>, visit: SiteVisit, found: SitePage): Promise<{ png: Uint8Array; hash: string; etag: string }> {
  const shown = socialInput(visit, found);
  const hash = socialHash(shown);
  const { logoAddress, ...text } = shown;
  const logo = await socialLogo(app, logoAddress);
  const etag = logo ? createHash('sha256').update(`${hash} ${logo.etag}`).digest('base64url').slice(0, 22) : hash;
  const key = { organizationId: visit.site.organizationId, siteId: visit.site.id, spaceId: found.located.siteSpace.spaceId, pageId: found.page.id, inputHash: etag };
  const kept = await findSocialImage(app.db, key);
  if (kept) return { png: kept, hash, etag };
  const input: SocialInput = { ...text, ...(logo ? { logo: { contentType: logo.contentType, data: logo.data } } : {}) };
  const png = await app.parsing.run('social-image', input, { deadlineMs: RENDER_DEADLINE_MS, lane: 'long' });
  await keepSocialImage(app.db, { ...key, png: Buffer.from(png) });
  return { png, hash, etag };
}
