// The answers every published-site response shares: its security headers, HTML, and the one answer for
// a site that is not there for the visitor (issue 25, F8). An unknown name, a malformed address, an
// unpublished site and a share-link site without its key all answer these same bytes, so none of them
// tells a site exists: no status, header or body differs. Those answers name no site, so they cannot
// speak its language: they speak the visitor's (`Accept-Language`, among the languages of
// site-words.ts), which depends on the request alone and so tells nothing either.
import type { Request, Response } from 'express';
import { SITE_ASSETS } from './site-assets.js';
import { LANGUAGES, wordsFor } from './site-words.js';

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

/** Where the stylesheet of the bare answers is, for a request on a site's hostname or below `/s/`: any name serves it (shared-assets.ts). */
const bareCss = (via: 'host' | 'path') => `${via === 'host' ? '' : '/s/_'}/_assets/${SITE_ASSETS.bare.name}`;

/** A compass drawn in the page (no request; the policy forbids inline style, not inline SVG). */
const ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><circle cx="12" cy="12" r="10"/><path d="m16.24 7.76-2.12 6.36-6.36 2.12 2.12-6.36 6.36-2.12z"/></svg>';

/** A page that names no site: its title and text, in the bare stylesheet. The words are the table's, never input. */
const barePage = (via: 'host' | 'path', language: string, title: string, text: string) =>
  `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><link rel="stylesheet" href="${bareCss(via)}"></head><body><main>${ICON}<h1>${title}</h1><p>${text}</p></main></body></html>`;

type Via = 'host' | 'path';

/** The bare pages of each kind, address form and language, made once. */
const BARE_PAGES = new Map<string, string>(
  (['host', 'path'] as const).flatMap((via) =>
    LANGUAGES.flatMap((language) => {
      const { messages } = wordsFor(language);
      return [
        [`absent:${via}:${language}`, barePage(via, language, messages.absent, messages.absentText)],
        [`tooMany:${via}:${language}`, barePage(via, language, messages.tooMany, messages.tooManyBare)],
      ] as const;
    }),
  ),
);

/** The visitor's language among the table's (English when they accept none of them). */
const visitorLanguage = (req: Request) => req.acceptsLanguages(...LANGUAGES) || 'en';

const barePageFor = (kind: 'absent' | 'tooMany', via: Via, req: Request) => BARE_PAGES.get(`${kind}:${via}:${visitorLanguage(req)}`)!;

/**
 * The answer for a site nobody may see here: nothing of the site (not even its name), whatever the
 * reason. Sets every header itself, so no earlier step of the request can make two of them differ; the
 * bytes depend only on whether the address was a hostname or a path below `/s/`.
 */
export function sendAbsent(req: Request, res: Response, via: Via) {
  securityHeaders(res);
  res.removeHeader('Vary');
  sendHtml(res, 404, barePageFor('absent', via, req), { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex', Vary: 'Accept-Language' });
}

/** A 429 that names no site: for addresses whose site is unknown, absent, or not seen a moment ago. */
export const bareTooMany = (req: Request, via: Via) => barePageFor('tooMany', via, req);
