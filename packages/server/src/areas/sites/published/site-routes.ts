// Published sites served as HTML by the server itself (issue 20): the sites area's routes, mounted by
// app.ts before the API's request path (outside /v1, outside the OpenAPI contract and its validator:
// areas/area.ts `routes`). A site answers on its custom hostname once its DNS proved control (the
// request's Host, never one of the server's own: hostnames.service.ts) and at
// {PUBLIC_URL}/s/{basename or site id}/…; below the site's root: the section's path, the site space's
// path, the page's path.
//
// Per request: one statement (site-state.ts) reads the site, a version of its structure, the head
// revision of each of its spaces and its share keys; who may see it is decided from that
// (site-serve.ts, visitor.ts), then the address's endpoint answers (site-endpoints.ts). Every request
// but the shared assets (shared-assets.ts) is charged to the visitor's address before it costs a query
// (site-charge.ts), and a site that is not there for the visitor answers the same bytes whatever the
// reason (site-responses.ts).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../../context.js';
import { serveSharedAsset } from './shared-assets.js';
import { chargeVisit, refuseSpentVisit } from './site-charge.js';
import { sendAbsent } from './site-responses.js';
import { serveSite } from './site-serve.js';
import { loadSiteState } from './site-state.js';
import { hostTarget, pathTarget, recentlyUnknown, rememberUnknownHost, serverHostnames } from './site-target.js';

export { SITE_CSP } from './site-responses.js';

/**
 * Answers the requests for a site, and passes anything else on. Each step costs nothing the previous
 * one has not paid for (issue 25, F7):
 * - the shared files (`_assets/`) come from memory: no query, no charge;
 * - on a Host that may be a site's, a spent budget is refused in memory; then the one lookup, charged
 *   when it finds a site. A Host that names none goes on to the API, which charges it, and is
 *   remembered for a few seconds;
 * - below `/s/`, the request is charged first (refused in memory over the limit), then looked up; an
 *   unknown or malformed name answers exactly what an absent site does.
 */
export function publishedSiteRoutes(context: AppContext): RequestHandler {
  const ownHosts = serverHostnames(context.config);
  const { caches } = context;
  return async (req: Request, res: Response, next: NextFunction) => {
    const found = hostTarget(req, ownHosts);
    const host = found && !recentlyUnknown(caches, found.address) ? found : undefined;
    const path = pathTarget(req);
    if (!host && !path) return next();
    // Until a site is found, a failure (the database away) is the API's to answer.
    let answering = false;
    try {
      if (host) {
        if (serveSharedAsset(caches, host.segments, res)) return;
        if (!refuseSpentVisit(context, req, res, host.address)) return;
        const state = await loadSiteState(context.db, host.address);
        if (state) {
          answering = true;
          if (await chargeVisit(context, req, res, host.address)) await serveSite(context, host, state, req, res);
          return;
        }
        rememberUnknownHost(caches, host.address);
      }
      if (!path) return next();
      if (serveSharedAsset(caches, path.segments, res)) return;
      if (!(await chargeVisit(context, req, res, path.address))) return;
      const state = path.address && path.segments ? await loadSiteState(context.db, path.address) : undefined;
      answering = true;
      if (state) await serveSite(context, { ...path, address: path.address! }, state, req, res);
      else sendAbsent(req, res, 'path');
    } catch (error) {
      if (!answering) return next(error);
      req.log?.error({ err: error }, 'published site: unexpected error');
      if (res.headersSent) return res.end();
      res.status(500).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).send('The site could not be shown: try again in a moment.');
    }
  };
}
