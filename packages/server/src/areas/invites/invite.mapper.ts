import type { InviteRow } from './invites.repository.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';

export function toApiInvite(row: InviteRow, urls: Urls): Schemas['Invite'] {
  const location = urls.api(`/v1/orgs/${row.organizationId}/link-invites/${row.id}`);
  return {
    object: 'invite',
    id: row.id,
    ...(row.role ? { role: row.role } : {}),
    redundant: row.redundant,
    createdAt: row.createdAt.toISOString(),
    urls: { location, join: `${location}/join` },
  };
}
