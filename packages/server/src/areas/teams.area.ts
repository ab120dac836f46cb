import { teamMemberHandlers } from '../routes/team-members.routes.js';
import { teamHandlers } from '../routes/teams.routes.js';
import { defineArea } from './area.js';

/** Teams belong to their organization (their grants on a transferred space are dropped: see the permissions area). */
export const teamsArea = defineArea({
  name: 'teams',
  handlers: { ...teamHandlers, ...teamMemberHandlers },
  tables: ['teams', 'team_members'],
  transfer: 'none',
  purge: 'none',
  duplicate: 'none',
});
