// The sites area: sites, their structure (sections, groups, site spaces), adaptive schema,
// customization, publication, audience (share links, visitor authentication) and custom hostnames
// (verified by their DNS, checked by a job); and the published sites, served outside the API (published/).
import type { PurgeStep, TransferStep } from '../area.js';
import { defineArea } from '../area.js';
import { verifyHostnamesWorker } from './hostnames.job.js';
import { publishedSiteRoutes } from './published/site-routes.js';
import { sitesRules } from './sites.rules.js';
import { insightsHandlers } from './insights.handlers.js';
import { redirectHandlers } from './redirects.handlers.js';
import { siteHandlers } from './sites.handlers.js';
import { structureHandlers } from './structure.handlers.js';
import { removeSiteSpacesOfSpaces } from './structure.repository.js';

export { SiteInsights } from './insights-recorder.js';

const SITE_OWN = 'A site belongs to its organization: spaces join and leave it, it never moves with them';

/** Sites stay in their organization: transferred spaces leave its sites (a purge does the same). */
const leaveSites: TransferStep = (trx, scope) => removeSiteSpacesOfSpaces(trx, scope.from, scope.spaceIds);

const purgeSiteSpaces: PurgeStep = async (trx, scope) => {
  const byOrganization = new Map<string, string[]>();
  for (const space of scope.spaces) byOrganization.set(space.organizationId, [...(byOrganization.get(space.organizationId) ?? []), space.id]);
  for (const [organizationId, spaceIds] of byOrganization) await removeSiteSpacesOfSpaces(trx, organizationId, spaceIds);
};

export const sitesArea = defineArea({
  name: 'sites',
  handlers: { ...siteHandlers, ...structureHandlers, ...redirectHandlers, ...insightsHandlers },
  tables: {
    sites: { stays: SITE_OWN },
    siteAddresses: { stays: SITE_OWN },
    siteSectionGroups: { stays: SITE_OWN },
    siteSections: { stays: SITE_OWN },
    siteShareLinks: { stays: SITE_OWN },
    siteRedirects: { stays: SITE_OWN },
    siteFeedback: { stays: 'Readers\' feedback on the site\'s pages: it stays with the site when a space leaves it' },
    siteSocialImages: { stays: 'A cache of the site\'s pages\' social images, keyed by what they show: an image of a page no longer on the site is never asked for' },
    sitePageViews: { stays: 'The site\'s daily counts: they stay with the site when a space leaves it' },
    siteSearches: { stays: 'The site\'s daily counts of searches' },
    siteSpaces: {
      transfer: { dropped: 'Sites stay in their organization: a transferred space leaves them (a step gives their sections another default)' },
      duplicate: { dropped: 'A duplicate starts in no site' },
    },
  },
  steps: { transfer: [leaveSites], purge: [purgeSiteSpaces] },
  events: ['site.created', 'site.updated', 'site.published', 'site.unpublished', 'site.deleted'],
  rules: sitesRules,
  jobs: (context) => [verifyHostnamesWorker(context)],
  // The published sites themselves: HTML for their visitors, on their hostnames and under /s/.
  routes: { beforeApi: publishedSiteRoutes },
  // A space purged or transferred between the access check and the insert of its site space.
  conflicts: {
    site_spaces_organization_id_space_id_fkey: 'The space was removed meanwhile',
    // Redirect writes run under the sites lock, which serializes them; kept for a write that bypasses it.
    site_redirects_organization_id_site_id_source_key: 'The site already has a redirect with this source',
  },
});

// What other areas use of this one: the only names they may import (eslint.config.js, boundaries).
export type { FaviconEntry } from './published/site-favicon.js';
export type { BodyTemplate } from './published/body-template.js';
export type { Chrome } from './published/site-layout.js';
export type { VisibleStructure } from './published/site-state.js';
export type { SpaceModel } from './published/space-model.js';
export { findSite } from './sites.repository.js';
