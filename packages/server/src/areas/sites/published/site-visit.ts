// What an endpoint of a published site is given (site-endpoints.ts lists them): the request, resolved to
// its site (site-routes.ts) and, for an endpoint that answers admitted visitors only, to its visitor
// (site-serve.ts decided who may see the site before any endpoint runs). Endpoints share from here the
// structure the visitor sees, the site's chrome, and its "page not found".
import type { Request, Response } from 'express';
import type { AppContext } from '../../../context.js';
import type { Visitor } from '../condition.js';
import type { PublishedStructure } from '../published-structure.js';
import type { PublishedSiteRow } from './published.repository.js';
import { chromeOf, EMPTY_STRUCTURE } from './site-chrome.js';
import { renderMessage, type Chrome } from './site-layout.js';
import type { Located } from './site-navigation.js';
import { sendHtml } from './site-responses.js';
import { visibleStructure, type SiteState, type VisibleStructure } from './site-state.js';

/** A request of a site that is there for its visitor (an absent site never reaches an endpoint). */
export type SiteRequest = {
  app: AppContext;
  req: Request;
  state: SiteState;
  site: PublishedSiteRow;
  /** The site's address path ('' on its own hostname, `/s/{name}` below PUBLIC_URL). */
  root: string;
  /** The decoded path segments below the root. */
  segments: readonly string[];
  /** The request's address (path and query; its origin is a placeholder). */
  url: URL;
  /** Whether the request came on the site's custom hostname. */
  viaHost: boolean;
};

/** A request of an admitted visitor: who they are, and the site as they see it. */
export type SiteVisit = SiteRequest & {
  visitor: Visitor;
  /** A share-link or visitor-auth site: answers are private to the visitor (`Cache-Control: private`). */
  restricted: boolean;
  /** On a share-link site, the key this request was admitted with. */
  shareKey?: string;
  /** The structure this visitor sees (resolved once per structure version and claims: site-state.ts). */
  visible(): Promise<VisibleStructure>;
};

/**
 * An address of the site and how it is answered. Matched in site-endpoints.ts's order, before the
 * method is checked: an address answers only its endpoint's methods (405 otherwise).
 */
export type SiteEndpoint = {
  /** Named in logs and tests. */
  name: string;
  /** Whether this endpoint answers `request`'s address (from its segments, query and site: no query to the database). */
  matches(request: SiteRequest): boolean;
  /** The methods it answers; GET and HEAD when not given. */
  methods?: readonly string[];
  /**
   * `request`: an agent's endpoint — credentials count for the request that carries them (address,
   * `X-Share-Key`, a bearer visitor token), no cookie is set, no reload; a visitor-auth site without a
   * valid token answers 401 rather than a sign-in page (visitor.ts). `browser` when not given.
   */
  credentials?: 'browser' | 'request';
} & (
  | {
      /** Answers any visitor the site is there for, before a visitor-auth site asks them to sign in (robots.txt, the theme). */
      audience: 'anyone';
      serve(request: SiteRequest, res: Response): Promise<void> | void;
    }
  | {
      /** Answers admitted visitors only (signed in, where the site requires it). */
      audience: 'visitor';
      serve(visit: SiteVisit, res: Response): Promise<void> | void;
    }
);

export const visitOf = (request: SiteRequest, visitor: Visitor, restricted: boolean, shareKey?: string): SiteVisit => {
  let visible: Promise<VisibleStructure> | undefined;
  return { ...request, visitor, restricted, ...(shareKey !== undefined ? { shareKey } : {}), visible: () => (visible ??= visibleStructure(request.app, request.state, visitor)) };
};

/** The site's chrome for `structure` (its tabs current at `located`); an empty structure when none is given. */
export const siteChrome = (request: SiteRequest, structure?: PublishedStructure, located?: Located): Chrome =>
  chromeOf(request.app.caches, request.site, request.root, structure ?? EMPTY_STRUCTURE, located);

/** The site's own 404 page: no page at this address for this visitor. */
export function sendNotFound(visit: SiteRequest & { restricted: boolean }, res: Response, structure?: PublishedStructure) {
  const chrome = siteChrome(visit, structure);
  sendHtml(res, 404, renderMessage(chrome, { title: chrome.words.messages.notFound, text: chrome.words.messages.notFoundText, link: { title: chrome.words.messages.goTo(chrome.title), href: `${visit.root}/` } }), {
    'Cache-Control': visit.restricted ? 'private, no-store' : 'no-cache',
    'X-Robots-Tag': 'noindex',
  });
}

/**
 * The origin the visitor reached the site on, below which its addresses (`{root}/…`) are: the site's
 * hostname, or the server's public address (`/s/{name}`).
 */
export const siteOrigin = (request: SiteRequest): string =>
  request.viaHost ? `${new URL(request.app.urls.api('/')).protocol}//${request.site.hostname}` : request.app.config.publicUrl;

/** Whether the request's `If-None-Match` names `etag` (then answered 304). */
export function etagMatches(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Ids of pages, files and spaces as the API makes them. */
export const ID = /^[A-Za-z0-9_-]{1,64}$/;
