// Serving a request of a site once it is found and charged (site-routes.ts): who may see it is decided
// first (issue 25, F8) — to a visitor it is absent for (unpublished; share-link without its key)
// nothing of it answers: no robots.txt, no redirect, no cookie, not even a 405, only the bytes an
// unknown name gets. Then the endpoint of the address (site-endpoints.ts): its methods (else 405), a
// credential given in the address kept in a cookie and the address reloaded without it, the sign-in
// a visitor-auth site requires before any `visitor` endpoint, and the endpoint's answer.
import type { Request, Response } from 'express';
import type { AppContext } from '../../../context.js';
import { EMPTY_STRUCTURE, indexable } from './site-chrome.js';
import { rememberChrome } from './site-charge.js';
import { endpointFor } from './site-endpoints.js';
import { renderMessage } from './site-layout.js';
import { securityHeaders, sendAbsent, sendHtml } from './site-responses.js';
import type { SiteState } from './site-state.js';
import type { SiteTarget } from './site-target.js';
import { siteChrome, siteOrigin, visitOf, type SiteRequest } from './site-visit.js';
import { admit, type SetCookie } from './visitor.js';

const DEFAULT_METHODS: readonly string[] = ['GET', 'HEAD'];

function setCookies(req: Request, res: Response, root: string, cookies: SetCookie[]) {
  for (const cookie of cookies) {
    res.cookie(cookie.name, cookie.value, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: root || '/', maxAge: cookie.maxAgeSeconds * 1000 });
  }
}

/** Answers the site at `target` (`state`, just read) for `req`; a malformed path below it as an absent site. */
export async function serveSite(app: AppContext, target: SiteTarget & { address: string }, state: SiteState, req: Request, res: Response): Promise<void> {
  if (!target.segments) return sendAbsent(req, res, target.via);
  const { site } = state;
  const url = new URL(req.originalUrl, 'http://site.invalid');
  const request: SiteRequest = { app, req, state, site, root: target.root, segments: target.segments, url, viaHost: target.via === 'host' };
  securityHeaders(res);
  const endpoint = endpointFor(request);
  const admission = await admit(site, state.shareKeyHashes, req, url.searchParams, endpoint.credentials);
  if (admission.kind === 'absent') return sendAbsent(req, res, target.via);
  const methods = endpoint.methods ?? DEFAULT_METHODS;
  if (!methods.includes(req.method)) {
    res.status(405).set({ Allow: methods.join(', '), 'Content-Type': 'text/plain; charset=utf-8' }).send('Method not allowed');
    return;
  }
  // The site shows itself to this visitor (a visitor-auth site, its sign-in): its 429 page may show it too.
  if (site.visibility !== 'share-link') rememberChrome(app.caches, target.address, `${site.id}:${site.updatedAt.getTime()}:${request.root}`, () => siteChrome(request, EMPTY_STRUCTURE));
  if (admission.kind === 'reload') {
    setCookies(req, res, request.root, admission.cookies);
    const query = admission.query.toString();
    res.status(303).set({ Location: `${url.pathname}${query ? `?${query}` : ''}`, 'Cache-Control': 'no-store' }).end();
    return;
  }
  if (endpoint.audience === 'anyone') return endpoint.serve(request, res);

  if (admission.kind === 'login') {
    res.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });
    if (endpoint.credentials === 'request') {
      res.status(401).set({ 'WWW-Authenticate': 'Bearer realm="site", error="invalid_token"', 'Content-Type': 'text/plain; charset=utf-8' });
      res.send('This site is for signed-in visitors: send your visitor token as `Authorization: Bearer <token>`.\n');
      return;
    }
    const requested = `${siteOrigin(request)}${url.pathname}${url.search}`;
    if (admission.fallbackUrl) {
      const fallback = new URL(admission.fallbackUrl);
      fallback.searchParams.set('location', requested);
      res.redirect(302, fallback.toString());
      return;
    }
    const chrome = siteChrome(request);
    return sendHtml(res, 401, renderMessage(chrome, { title: chrome.words.messages.signIn, text: chrome.words.messages.signInText }));
  }
  res.set({ Vary: 'Cookie' });
  if (!indexable(site)) res.set('X-Robots-Tag', 'noindex');
  return endpoint.serve(visitOf(request, admission.visitor, admission.restricted, admission.shareKey), res);
}
