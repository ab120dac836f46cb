import { teamMemberHandlers } from './team-members.handlers.js';
import { teamHandlers } from './teams.handlers.js';
import { defineArea } from '../area.js';
import { teamRules } from './teams.rules.js';

const OWN_TEAMS = 'Teams belong to their organization, with their members (their grants on a transferred space are dropped)';

/** Teams belong to their organization (their grants on a transferred space are dropped: see the permissions area). */
export const teamsArea = defineArea({
  name: 'teams',
  handlers: { ...teamHandlers, ...teamMemberHandlers },
  tables: { teams: { stays: OWN_TEAMS }, teamMembers: { stays: OWN_TEAMS } },
  events: ['team.members-changed'],
  rules: teamRules,
  conflicts: {
    team_members_organization_id_user_id_fkey: 'The member was removed from the organization meanwhile',
    team_members_organization_id_team_id_fkey: 'The team was deleted meanwhile',
  },
});

// What other areas use of this one: the only names they may import (eslint.config.js, boundaries).
export { toApiTeam } from './team.mapper.js';
export { teamsQuery, upsertTeamMembers, type TeamRow } from './teams.repository.js';
