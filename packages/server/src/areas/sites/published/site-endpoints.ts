// Every address a published site answers below its root, in the order they are tried: the first
// endpoint whose `matches` accepts the request answers it (site-visit.ts says what an endpoint is).
// A new kind of answer (another form of a page, an agent endpoint, a feedback form) is one file in
// endpoints/ and one line here; the page endpoint, which takes any address, stays last.
//
// Before any of them runs (site-serve.ts): the site was looked up and the request charged
// (site-routes.ts), the site is there for the visitor (else the one absent answer), the method is one
// the endpoint answers (else 405), and for `visitor` endpoints the visitor is admitted (signed in).
import { faviconEndpoint } from './endpoints/favicon.js';
import { feedbackEndpoint } from './endpoints/feedback.js';
import { filesEndpoint } from './endpoints/files.js';
import { llmsEndpoint, llmsFullEndpoint } from './endpoints/llms.js';
import { mcpEndpoint } from './endpoints/mcp.js';
import { pageEndpoint } from './endpoints/page.js';
import { pageMarkdownEndpoint } from './endpoints/page-markdown.js';
import { robotsEndpoint } from './endpoints/robots.js';
import { searchJsonEndpoint } from './endpoints/search-json.js';
import { searchEndpoint } from './endpoints/search.js';
import { sitemapEndpoint } from './endpoints/sitemap.js';
import { socialImageEndpoint } from './endpoints/social-image.js';
import { themeEndpoint } from './endpoints/theme.js';
import type { SiteEndpoint, SiteRequest } from './site-visit.js';

export const SITE_ENDPOINTS: readonly SiteEndpoint[] = [
  // Answered before a visitor-auth site asks for a sign-in.
  themeEndpoint,
  robotsEndpoint,
  sitemapEndpoint,
  // Admitted visitors only.
  filesEndpoint,
  faviconEndpoint,
  searchEndpoint,
  searchJsonEndpoint,
  feedbackEndpoint,
  socialImageEndpoint,
  // For agents: credentials per request (visitor.ts).
  llmsEndpoint,
  llmsFullEndpoint,
  mcpEndpoint,
  pageMarkdownEndpoint,
  pageEndpoint,
];

/** The endpoint answering `request` (the page endpoint answers any address no other takes). */
export const endpointFor = (request: SiteRequest): SiteEndpoint => SITE_ENDPOINTS.find((endpoint) => endpoint.matches(request)) ?? pageEndpoint;
