import { requireNonGuest, requireOrganizationMember, requireOrganizationRole } from '../auth/organization-access.js';
import { filteredTeamsQuery, findTeam, updateTeamTitle } from '../db/repositories/teams.repository.js';
import { keysetPage } from '../db/pagination.js';
import { notFound } from '../http/errors.js';
import type { AreaHandlers } from '../http/handler.js';
import { toApiTeam } from '../mappers/team.mapper.js';
import { createTeam, deleteTeamWithGrants } from '../services/teams.service.js';

export const teamHandlers = {
  async listTeams({ caller, params, query, app }) {
    const access = await requireOrganizationMember(app.db, caller, params.organizationId);
    requireNonGuest(access);
    const organizationId = access.organization.id;
    const rows = filteredTeamsQuery(app.db, organizationId, caller.user.id, { title: query.title, owner: query.owner });
    const page = await keysetPage(app.db, rows, {
      keys: [
        { column: 't.createdAt', direction: 'desc', value: (row) => row.createdAt },
        { column: 't.id', direction: 'desc', value: (row) => row.id },
      ],
      request: query,
      queryKey: `listTeams:${organizationId}:${JSON.stringify([query.title ?? null, query.owner ?? null])}`,
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiTeam(row, access.role)) } };
  },

  async createTeam({ caller, params, body, app }) {
    const access = await requireOrganizationMember(app.db, caller, params.organizationId);
    requireOrganizationRole(access, 'admin');
    const teamId = await createTeam(app.db, access.organization.id, body.title, body.members ?? []);
    return { status: 201, body: toApiTeam((await findTeam(app.db, access.organization.id, teamId, caller.user.id))!, access.role) };
  },

  async getTeamById({ caller, params, app }) {
    const access = await requireOrganizationMember(app.db, caller, params.organizationId);
    requireNonGuest(access);
    const team = await findTeam(app.db, access.organization.id, params.teamId, caller.user.id);
    if (!team) throw notFound('Team');
    return { status: 200, body: toApiTeam(team, access.role) };
  },

  async updateTeamById({ caller, params, body, app }) {
    const access = await requireOrganizationMember(app.db, caller, params.organizationId);
    requireOrganizationRole(access, 'admin');
    if (!(await updateTeamTitle(app.db, access.organization.id, params.teamId, body.title))) throw notFound('Team');
    return { status: 200, body: toApiTeam((await findTeam(app.db, access.organization.id, params.teamId, caller.user.id))!, access.role) };
  },

  async deleteTeamById({ caller, params, app }) {
    const access = await requireOrganizationMember(app.db, caller, params.organizationId);
    requireOrganizationRole(access, 'admin');
    await deleteTeamWithGrants(app.db, access.organization.id, params.teamId);
    return { status: 204 };
  },
} satisfies AreaHandlers;
