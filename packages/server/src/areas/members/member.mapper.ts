import type { MemberRow } from '../../access/principals.repository.js';
import { isMemberDisabled } from '../../access/organization.js';
import { toApiUser } from '../users/index.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';

export type ApiMember = Schemas['Member'];

export function toApiMember(row: MemberRow, urls: Urls): ApiMember {
  return {
    object: 'member',
    id: row.userId,
    role: row.role,
    user: toApiUser({ id: row.userId, email: row.email, displayName: row.displayName, photoUrl: row.photoUrl }, urls),
    disabled: isMemberDisabled({ sso: row.organizationSso }, row),
    joinedAt: row.joinedAt.toISOString(),
    ...(row.lastSeenAt ? { lastSeenAt: row.lastSeenAt.toISOString() } : {}),
    sso: row.sso,
    spaces: row.spacesCount,
    teams: row.teamsCount,
  };
}
