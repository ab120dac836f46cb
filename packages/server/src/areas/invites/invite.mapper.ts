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

/** How many characters of an invite's id its events show: enough to tell it in the list, never enough to join. */
export const INVITE_EVENT_ID_PREFIX = 6;

/**
 * The invite as its events carry it: without its id, which is its secret — an event leaves the server
 * in webhook deliveries (docs/decisions.md, "Link invites, custom field values and member SSO in events").
 */
export function toInviteEventObject(row: InviteRow): Schemas['InviteEventObject'] {
  return {
    object: 'invite',
    idPrefix: row.id.slice(0, INVITE_EVENT_ID_PREFIX),
    ...(row.role ? { role: row.role } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}
