// The rows of principals (docs/design/access-model.md) as the API shows them, wherever they appear: a
// member (membership, user and exact counters) and a team's counters with the caller's role in it. The
// members, teams, permissions and SSO areas all read them, so they sit below the areas.
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../db/database.js';
import type { Role, TeamMembersTable } from '../db/schema.js';

export type MemberRow = {
  userId: string;
  role: Role | null;
  sso: boolean;
  joinedAt: Date;
  lastSeenAt: Date | null;
  email: string;
  displayName: string;
  photoUrl: string | null;
  /** The organization enforces SSO. */
  organizationSso: boolean;
  teamsCount: number;
  spacesCount: number;
};

const teamsCount = sql<number>`(
  SELECT count(*)::int FROM team_members tm WHERE tm.organization_id = m.organization_id AND tm.user_id = m.user_id
)`;

// Live spaces with a grant to the member or to one of their teams (collection grants are not counted:
// they are on collections).
const spacesCount = sql<number>`(
  SELECT count(DISTINCT g.space_id)::int FROM space_grants g
  JOIN spaces s ON s.organization_id = g.organization_id AND s.id = g.space_id AND s.deleted_at IS NULL
  WHERE g.organization_id = m.organization_id
    AND ((g.principal_kind = 'user' AND g.principal_id = m.user_id)
      OR (g.principal_kind = 'team' AND g.principal_id IN (
        SELECT tm.team_id FROM team_members tm WHERE tm.organization_id = m.organization_id AND tm.user_id = m.user_id)))
)`;

/**
 * Every member of the organization as `m` (membership), `u` (user) and `o` (organization), with the
 * member columns selected; callers add filters, joins and order.
 */
export function membersQuery(db: Executor, organizationId: string) {
  return db
    .selectFrom('organizationMembers as m')
    .innerJoin('users as u', 'u.id', 'm.userId')
    .innerJoin('organizations as o', 'o.id', 'm.organizationId')
    .where('m.organizationId', '=', organizationId)
    .select([
      'm.userId',
      'm.role',
      'm.sso',
      'm.joinedAt',
      'm.lastSeenAt',
      'u.email',
      'u.displayName',
      'u.photoUrl',
      'o.sso as organizationSso',
      teamsCount.as('teamsCount'),
      spacesCount.as('spacesCount'),
    ]);
}

/**
 * The counters of the team aliased `t` and `callerId`'s role in it, for any query that joins `teams as t`
 * (team lists, and teams named in grants).
 */
export function teamExtraColumns(callerId: string) {
  return [
    sql<number>`(SELECT count(*)::int FROM team_members tm WHERE tm.organization_id = t.organization_id AND tm.team_id = t.id)`.as(
      'membersCount',
    ),
    // Live spaces the team holds a grant on.
    sql<number>`(
      SELECT count(DISTINCT g.space_id)::int FROM space_grants g
      JOIN spaces s ON s.organization_id = g.organization_id AND s.id = g.space_id AND s.deleted_at IS NULL
      WHERE g.organization_id = t.organization_id AND g.principal_kind = 'team' AND g.principal_id = t.id
    )`.as('spacesCount'),
    // The caller's role in the team: null when they are not in it (no row).
    sql<Selectable<TeamMembersTable>['role'] | null>`(
      SELECT tm.role FROM team_members tm WHERE tm.organization_id = t.organization_id AND tm.team_id = t.id AND tm.user_id = ${callerId}
    )`.as('callerTeamRole'),
  ] as const;
}
