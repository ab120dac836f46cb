// The answers every published-site response shares: its security headers, HTML, and the one answer for
// a site that is not there for the visitor (issue 25, F8). An unknown name, a malformed address, an
// unpublished site and a share-link site without its key all answer these same bytes, so none of them
// tells a site exists: no status, header or body differs.
import type { Response } from 'express';

/** `script-src 'self'`, no inline anything; images from the site itself (and the emoji favicon's data: URL). */
export const SITE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The policy of the authors' bytes (files, icons): never a page of the site's origin, nothing runs. */
export const FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** Raster images: the only authors' bytes a browser opened on them shows rather than downloads. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/x-icon', 'image/vnd.microsoft.icon']);

/**
 * Whether a file of this (declared) type opens in the browser at its address: raster images only. An
 * SVG or an HTML file is a document that can carry script and links; under the `sandbox` policy it
 * would run nothing, but it is not shown on the site's origin at all (pages still load SVG images:
 * `Content-Disposition` only decides what opening the address does). With `nosniff`, bytes declared as
 * a raster image are never taken for anything else.
 */
export const opensInline = (contentType: string) => INLINE_TYPES.has(contentType.split(';')[0]!.trim().toLowerCase());

export function securityHeaders(res: Response) {
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

export function sendHtml(res: Response, status: number, html: string, headers: Record<string, string> = {}) {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', ...headers }).send(html);
}

const ABSENT_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><main><h1>Not found</h1><p>There is nothing published at this address.</p></main></body></html>';

/**
 * The answer for a site nobody may see here: nothing of the site (not even its name), whatever the
 * reason. Sets every header itself, so no earlier step of the request can make two of them differ.
 */
export function sendAbsent(res: Response) {
  securityHeaders(res);
  res.removeHeader('Vary');
  sendHtml(res, 404, ABSENT_HTML, { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });
}

/** A 429 that names no site: for addresses whose site is unknown, absent, or not seen a moment ago. */
export const BARE_TOO_MANY_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many requests</title></head><body><main><h1>Too many requests</h1><p>Try again in a moment.</p></main></body></html>';
