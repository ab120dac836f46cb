import { teamMemberHandlers } from './team-members.handlers.js';
import { teamHandlers } from './teams.handlers.js';
import { defineArea } from '../area.js';
import { teamRules } from './teams.rules.js';

/** Teams belong to their organization (their grants on a transferred space are dropped: see the permissions area). */
export const teamsArea = defineArea({
  name: 'teams',
  handlers: { ...teamHandlers, ...teamMemberHandlers },
  tables: ['teams', 'team_members'],
  transfer: 'none',
  purge: 'none',
  duplicate: 'none',
  rules: teamRules,
});
