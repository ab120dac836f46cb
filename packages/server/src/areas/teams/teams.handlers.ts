import { filteredTeamsQuery, findTeam, updateTeamTitle } from './teams.repository.js';
import { keysetPage, newestFirst } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiTeam } from './team.mapper.js';
import { createTeam, deleteTeamWithGrants } from './teams.service.js';
import { inTransaction } from '../../db/database.js';
import { actorOf, recordEvent } from '../events/index.js';

export const teamHandlers = {
  async listTeams({ caller, access, query, app }) {
    const organizationId = access.organization.id;
    const rows = filteredTeamsQuery(app.db, organizationId, caller.user.id, { title: query.title, owner: query.owner });
    const page = await keysetPage(app.db, rows, {
      keys: newestFirst('t'),
      request: query,
      list: { operation: 'listTeams', within: organizationId, filters: [query.title, query.owner] },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiTeam(row, access.role)) } };
  },

  async createTeam({ caller, access, body, app }) {
    const organizationId = access.organization.id;
    const team = await inTransaction(app.db, async (trx) => {
      const teamId = await createTeam(trx, organizationId, body.title, body.members ?? []);
      const row = (await findTeam(trx, organizationId, teamId, caller.user.id))!;
      await recordEvent(trx, { type: 'team.created', organizationId, actor: actorOf(caller, app.urls), data: { object: toApiTeam(row, 'admin') } });
      return row;
    });
    return { status: 201, body: toApiTeam(team, access.role) };
  },

  async getTeamById({ caller, access, params, app }) {
    const team = await findTeam(app.db, access.organization.id, params.teamId, caller.user.id);
    if (!team) throw notFound('Team');
    return { status: 200, body: toApiTeam(team, access.role) };
  },

  async updateTeamById({ caller, access, params, body, app }) {
    const organizationId = access.organization.id;
    const team = await inTransaction(app.db, async (trx) => {
      if (!(await updateTeamTitle(trx, organizationId, params.teamId, body.title))) throw notFound('Team');
      const row = (await findTeam(trx, organizationId, params.teamId, caller.user.id))!;
      await recordEvent(trx, { type: 'team.updated', organizationId, actor: actorOf(caller, app.urls), data: { object: toApiTeam(row, 'admin') } });
      return row;
    });
    return { status: 200, body: toApiTeam(team, access.role) };
  },

  async deleteTeamById({ caller, access, params, app }) {
    const organizationId = access.organization.id;
    await inTransaction(app.db, async (trx) => {
      const row = await findTeam(trx, organizationId, params.teamId, caller.user.id);
      if (!row) throw notFound('Team');
      await deleteTeamWithGrants(trx, organizationId, params.teamId);
      await recordEvent(trx, { type: 'team.deleted', organizationId, actor: actorOf(caller, app.urls), data: { object: toApiTeam(row, 'admin') } });
    });
    return { status: 204 };
  },
} satisfies AreaHandlers;
