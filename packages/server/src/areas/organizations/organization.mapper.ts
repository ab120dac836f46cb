import type { MembershipRow, OrganizationRow } from './organizations.repository.js';
import { permissions } from '../permissions-objects.js';
import type { ApiOrganization, Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';

/** The organization as the caller (with `membership`; none for a non-member) sees it. */
export function toApiOrganization(row: OrganizationRow, membership: MembershipRow | undefined, urls: Urls): ApiOrganization {
  return {
    object: 'organization',
    id: row.id,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    emailDomains: row.emailDomains,
    ...(row.hostname ? { hostname: row.hostname } : {}),
    // A self-hosted server has no plans, trials or billing: fixed values (docs/decisions.md, "Platform").
    type: 'business',
    ...(row.useCase ? { useCase: row.useCase as Schemas['OrganizationUseCase'] } : {}),
    ...(row.communityType ? { communityType: row.communityType as Schemas['OrganizationCommunityType'] } : {}),
    defaultRole: row.defaultRole,
    ...(row.defaultContentSiteId ? { defaultContent: { type: 'site' as const, site: row.defaultContentSiteId } } : {}),
    sso: row.sso,
    ai: row.ai,
    inviteLinks: row.inviteLinks,
    plan: 'enterprise',
    ...(row.customHostname ? { customHostname: row.customHostname } : {}),
    internal_isOnNewTrial: true,
    billing: { interval: 'yearly', endDate: null, hasPaymentFailed: false, isScheduledToCancel: false },
    trial: { status: 'notapplicable' },
    urls: {
      location: urls.api(`/v1/orgs/${row.id}`),
      app: urls.app(`/o/${row.id}`),
      ...(row.logoUrl ? { logo: row.logoUrl } : {}),
    },
    permissions: permissions().organization({ organization: row, membership }),
  };
}
