// Published-site requests against the visitor's address budget (the API's `RATE_LIMIT_PER_ADDRESS`),
// issue 25 F7: a request is charged BEFORE anything of it costs a query, and a refusal over the limit
// runs none — the counters decide it in memory (http/rate-limit-store.ts), and the 429 page comes from
// memory too. It shows the site's style only when this instance served the site at that address a
// moment ago (public, unlisted and visitor-auth sites, which show themselves to any visitor; the
// `siteChromes` cache, for CHROME_TTL_MS); otherwise it is bare: nothing of a site shows to whom it may
// be absent, and an unknown name answers the same.
import type { Request, Response } from 'express';
import type { Caches } from '../../../caches.js';
import type { AppContext } from '../../../context.js';
import { HttpError } from '../../../errors.js';
import { renderMessage, type Chrome } from './site-layout.js';
import { bareTooMany, securityHeaders, sendHtml } from './site-responses.js';

/** How long a site's look is remembered for its 429 page after it was last served at an address. */
const CHROME_TTL_MS = 60_000;

/**
 * Remembers the look of a site served at `address` for its 429 page (see above for which sites).
 * `version` names what the look is made of: an entry of the same version is only renewed once half its
 * time is gone, so a page view does not build the look again.
 */
export function rememberChrome(caches: Caches, address: string, version: string, build: () => Chrome): void {
  const remembered = caches.siteChromes.get(address);
  if (remembered && remembered.version === version && caches.siteChromes.remainingMs(address) > CHROME_TTL_MS / 2) return;
  caches.siteChromes.set(address, { chrome: build(), version }, CHROME_TTL_MS);
}

function refuse(caches: Caches, req: Request, res: Response, error: HttpError, address: string | null): false {
  securityHeaders(res);
  res.removeHeader('Vary');
  const headers = { ...error.headers, 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };
  const remembered = address === null ? undefined : caches.siteChromes.get(address);
  if (!remembered) {
    sendHtml(res, 429, bareTooMany(req, address?.startsWith('host:') ? 'host' : 'path'), headers);
    return false;
  }
  const seconds = Number(error.headers?.['Retry-After'] ?? 1);
  const { messages } = remembered.chrome.words;
  sendHtml(res, 429, renderMessage(remembered.chrome, { title: messages.tooMany, text: messages.tooManyText(seconds) }), headers);
  return false;
}

const isTooMany = (error: unknown): error is HttpError => error instanceof HttpError && error.status === 429;

/**
 * Charges the request to the visitor's address; false when refused, with the 429 page sent. A refusal
 * over the limit is decided in memory; near the limit the charge itself may ask the shared counter.
 */
export async function chargeVisit(app: AppContext, req: Request, res: Response, address: string | null): Promise<boolean> {
  if (!app.rateLimits.enabled) return true;
  try {
    await app.rateLimits.chargeAddress(req, res);
    return true;
  } catch (error) {
    if (!isTooMany(error)) throw error;
    return refuse(app.caches, req, res, error, address);
  }
}

/**
 * Refuses, in memory and without charging, a request whose address has spent its budget: for a request
 * that must look its site up before it knows whether it is a site's at all (a Host never seen), and is
 * charged afterwards to the site, or else by the API it goes on to.
 */
export function refuseSpentVisit(app: AppContext, req: Request, res: Response, address: string): boolean {
  try {
    app.rateLimits.refuseSpentAddress(req, res);
    return true;
  } catch (error) {
    if (!isTooMany(error)) throw error;
    return refuse(app.caches, req, res, error, address);
  }
}
