import type { OrganizationRole } from '../../access/permissions.js';
import { samlServiceUrls } from './saml.js';
import type { SamlProviderRow } from './saml.repository.js';
import { type TeamRow, toApiTeam } from '../teams/index.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';

/** The provider as an organization admin (organization role `role`) sees it; `team` is its default team. */
export function toApiSamlProvider(
  organizationId: string,
  row: SamlProviderRow,
  team: TeamRow | undefined,
  role: OrganizationRole,
  urls: Urls,
): Schemas['SamlProvider'] {
  return {
    object: 'saml-provider',
    id: row.id,
    label: row.label,
    ...(row.ssoUrl !== null ? { ssoURL: row.ssoUrl } : {}),
    ...(row.entityId !== null ? { entityID: row.entityId } : {}),
    ...(row.certificate !== null ? { certificate: row.certificate } : {}),
    ...(team ? { defaultTeam: toApiTeam(team, role) } : {}),
    defaultRole: row.defaultRole,
    createdAt: row.createdAt.toISOString(),
    status: row.active ? 'active' : 'pending',
    service: samlServiceUrls(urls, organizationId, row.id),
    urls: { location: urls.api(`/v1/orgs/${organizationId}/saml/${row.id}`) },
  };
}

export function toApiSsoLoginInfo(organizationId: string, row: { id: string; label: string }, urls: Urls): Schemas['SsoLoginInfo'] {
  return { id: row.id, label: row.label, startURL: samlServiceUrls(urls, organizationId, row.id).startURL };
}
