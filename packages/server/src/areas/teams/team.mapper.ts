import type { TeamRow } from './teams.repository.js';
import type { MemberRow } from '../../access/principals.repository.js';
import { toApiMember } from '../members/index.js';
import type { TeamMemberRole } from '../../db/schema.js';
import type { OrganizationRole } from '../../access/permissions.js';
import { permissions } from '../permissions-objects.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';

export type ApiTeam = Schemas['Team'];

/** The team as a caller with organization role `role` sees it (their role in the team is on the row). */
export function toApiTeam(row: TeamRow, role: OrganizationRole): ApiTeam {
  return {
    object: 'team',
    id: row.id,
    title: row.title,
    members: row.membersCount,
    spaces: row.spacesCount,
    createdAt: row.createdAt.toISOString(),
    permissions: permissions().team(role, row),
  };
}

export function toApiTeamMemberEntry(row: MemberRow & { teamRole: TeamMemberRole }, role: OrganizationRole, urls: Urls): Schemas['TeamMemberEntry'] {
  return { organization: toApiMember(row, urls), team: { role: row.teamRole }, permissions: permissions().teamMemberEntry(role) };
}

export function toApiMemberTeam(row: TeamRow & { memberTeamRole: TeamMemberRole }, role: OrganizationRole): Schemas['MemberTeam'] {
  return { team: toApiTeam(row, role), member: { role: row.memberTeamRole } };
}
