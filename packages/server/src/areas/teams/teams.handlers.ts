import { filteredTeamsQuery, findTeam, updateTeamTitle } from './teams.repository.js';
import { keysetPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiTeam } from './team.mapper.js';
import { createTeam, deleteTeamWithGrants } from './teams.service.js';

export const teamHandlers = {
  async listTeams({ caller, access, query, app }) {
    const organizationId = access.organization.id;
    const rows = filteredTeamsQuery(app.db, organizationId, caller.user.id, { title: query.title, owner: query.owner });
    const page = await keysetPage(app.db, rows, {
      keys: [
        { column: 't.createdAt', direction: 'desc', value: (row) => row.createdAt },
        { column: 't.id', direction: 'desc', value: (row) => row.id },
      ],
      request: query,
      list: { operation: 'listTeams', within: organizationId, filters: [query.title, query.owner] },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiTeam(row, access.role)) } };
  },

  async createTeam({ caller, access, body, app }) {
    const teamId = await createTeam(app.db, access.organization.id, body.title, body.members ?? []);
    return { status: 201, body: toApiTeam((await findTeam(app.db, access.organization.id, teamId, caller.user.id))!, access.role) };
  },

  async getTeamById({ caller, access, params, app }) {
    const team = await findTeam(app.db, access.organization.id, params.teamId, caller.user.id);
    if (!team) throw notFound('Team');
    return { status: 200, body: toApiTeam(team, access.role) };
  },

  async updateTeamById({ caller, access, params, body, app }) {
    if (!(await updateTeamTitle(app.db, access.organization.id, params.teamId, body.title))) throw notFound('Team');
    return { status: 200, body: toApiTeam((await findTeam(app.db, access.organization.id, params.teamId, caller.user.id))!, access.role) };
  },

  async deleteTeamById({ access, params, app }) {
    await deleteTeamWithGrants(app.db, access.organization.id, params.teamId);
    return { status: 204 };
  },
} satisfies AreaHandlers;
