// Favicons given as image addresses (`customizations.site.favicon.icon.{light,dark}`): the visitor's
// browser never fetches them from their origin (the pages' policy is `img-src 'self'`, and a site's
// visitors should not be announced to a third party). The server fetches the icon through the outbound
// guard (public addresses only, every redirect checked, a deadline and a size cap), keeps it only when
// its bytes are an image (PNG, GIF, JPEG, WebP, ICO or SVG, read from the bytes, not from the remote
// Content-Type), and serves it from the site's own address `_favicon/{hash of the address}`. Only the
// addresses of the site's own customization are fetched: this is no open proxy.
//
// Kept in memory per address (the `siteFavicons` cache) for an hour (a failure for five minutes, so a
// broken icon does not cost a fetch per page view); concurrent first requests share one fetch.
import { createHash } from 'node:crypto';
import type { Caches } from '../../../caches.js';
import { readImageInfo } from '../../../content/image-info.js';
import { fetchGuarded, OutboundError, type OutboundPolicy } from '../../../outbound.js';

/** Bytes an icon may have. */
export const MAX_FAVICON_BYTES = 256 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const FRESH_MS = 60 * 60_000;
const FAILED_MS = 5 * 60_000;

export type Favicon = { contentType: string; body: Buffer; etag: string };
/** What is kept of an address: its icon, or undefined when it could not be had. */
export type FaviconEntry = { icon: Favicon | undefined };

/** The name of an icon's address under the site: it changes with the address it is fetched from. */
export const faviconName = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 16);

const SVG = /^\s*(<\?xml[^>]{0,200}\?>\s*)?(<!--[\s\S]{0,2000}?-->\s*)*(<!doctype svg[^>]{0,500}>\s*)?<svg[\s>]/i;

/** The image type of `bytes`, read from them; undefined when they are not an icon. */
export function iconType(bytes: Buffer): string | undefined {
  const image = readImageInfo(bytes);
  if (image) return image.contentType;
  // ICO: reserved 0, type 1, at least one image.
  if (bytes.length >= 6 && bytes.readUInt16LE(0) === 0 && bytes.readUInt16LE(2) === 1 && bytes.readUInt16LE(4) > 0) return 'image/x-icon';
  const head = bytes.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '');
  if (SVG.test(head)) return 'image/svg+xml';
  return undefined;
}

async function fetchIcon(url: string, policy: OutboundPolicy): Promise<Favicon | undefined> {
  try {
    const response = await fetchGuarded(url, { ...policy, maxBytes: Math.min(policy.maxBytes, MAX_FAVICON_BYTES), timeoutMs: Math.min(policy.timeoutMs, FETCH_TIMEOUT_MS) });
    const contentType = iconType(response.body);
    if (!contentType) return undefined;
    return { contentType, body: response.body, etag: `"${createHash('sha256').update(response.body).digest('base64url').slice(0, 27)}"` };
  } catch (error) {
    if (error instanceof OutboundError) return undefined;
    throw error;
  }
}

/** The icon at `url`, fetched at most once an hour (undefined when it cannot be had, or is no image). */
export async function favicon(caches: Caches, url: string, policy: OutboundPolicy): Promise<Favicon | undefined> {
  const entry = await caches.siteFavicons.load(url, async () => ({ icon: await fetchIcon(url, policy) }), FRESH_MS);
  // A failure is kept for a shorter time: the address may work again soon.
  if (!entry.icon && caches.siteFavicons.remainingMs(url) > FAILED_MS) caches.siteFavicons.set(url, entry, FAILED_MS);
  return entry.icon;
}
