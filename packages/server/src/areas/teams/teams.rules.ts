// The `team-owner` access rule: a team's owners manage its members along with organization admins.
import type { AccessRule } from '../../access/rules.js';
import type { OrganizationAccess } from '../../access/scopes.js';
import { notFound } from '../../errors.js';
import { findTeam, type TeamRow } from './teams.repository.js';

declare module '../../access/rules.js' {
  interface RuleData {
    'team-owner': { team: TeamRow };
  }
}

export const teamRules = {
  'team-owner': {
    load: async (ctx) => {
      const access = ctx.access as OrganizationAccess;
      const team = await findTeam(ctx.app.db, access.organization.id, ctx.params.teamId!, ctx.caller.user.id);
      if (!team) throw notFound('Team');
      return team;
    },
    admits: (_ctx, team) => team.callerTeamRole === 'owner',
    alternative: 'or to own the team',
    check: (_ctx, team) => ({ team }),
  } satisfies AccessRule<TeamRow, { team: TeamRow }>,
};
