import { memberRole } from '../members/members.repository.js';
import { findTeam, removeTeamMembers, teamMembersQuery, upsertTeamMembers } from './teams.repository.js';
import { keysetPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiTeamMemberEntry } from './team.mapper.js';
import { updateTeamMembers } from './teams.service.js';

export const teamMemberHandlers = {
  async listTeamMembers({ caller, access, params, query, app }) {
    const organizationId = access.organization.id;
    if (!(await findTeam(app.db, organizationId, params.teamId, caller.user.id))) throw notFound('Team');
    const page = await keysetPage(app.db, teamMembersQuery(app.db, organizationId, params.teamId), {
      keys: [
        { column: 'tm.addedAt', direction: 'desc', value: (row) => row.addedAt },
        { column: 'tm.userId', direction: 'desc', value: (row) => row.userId },
      ],
      request: query,
      list: { operation: 'listTeamMembers', within: params.teamId },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiTeamMemberEntry(row, access.role, app.urls)) } };
  },

  async updateTeamMembers({ access: { organization, team }, body, app }) {
    await updateTeamMembers(app.db, organization.id, team.id, body);
    return { status: 204 };
  },

  async putTeamMember({ access: { organization, team }, params, body, app }) {
    if (!(await memberRole(app.db, organization.id, params.userId))) throw notFound('Member');
    await upsertTeamMembers(app.db, organization.id, team.id, [{ userId: params.userId, role: body.role }]);
    return { status: 204 };
  },

  async removeTeamMember({ access: { organization, team }, params, app }) {
    if ((await removeTeamMembers(app.db, organization.id, team.id, [params.userId])) === 0) throw notFound('Team member');
    return { status: 204 };
  },
} satisfies AreaHandlers;
