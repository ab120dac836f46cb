import type { GrantViewRow } from './grants.repository.js';
import type { OrganizationRole } from '../../access/permissions.js';
import { toApiTeam } from '../teams/index.js';
import { toApiUser } from '../users/index.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';

/** A grant as a caller with organization role `role` sees it (which sets the team's permissions). */
export function toApiGrant(row: GrantViewRow, role: OrganizationRole, urls: Urls): Schemas['Grant'] {
  const principal: Schemas['Grant']['principal'] =
    row.principalKind === 'user'
      ? {
          type: 'user',
          user: toApiUser({ id: row.principalId, email: row.userEmail!, displayName: row.userDisplayName!, photoUrl: row.userPhotoUrl }, urls),
        }
      : {
          type: 'team',
          team: toApiTeam(
            {
              id: row.principalId,
              title: row.teamTitle!,
              createdAt: row.teamCreatedAt!,
              membersCount: row.membersCount ?? 0,
              spacesCount: row.spacesCount ?? 0,
              callerTeamRole: row.callerTeamRole,
            },
            role,
          ),
        };
  return { object: 'grant', principal, role: row.role, grantedAt: row.grantedAt.toISOString() };
}
