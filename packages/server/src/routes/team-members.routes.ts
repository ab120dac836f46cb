import type { Caller } from '../auth/authenticate.js';
import { requireNonGuest, requireOrganizationMember, type OrganizationAccess } from '../auth/organization-access.js';
import { teamPermissions } from '../auth/permissions.js';
import type { Executor } from '../db/database.js';
import { memberRole } from '../db/repositories/members.repository.js';
import { findTeam, removeTeamMembers, teamMembersQuery, upsertTeamMembers, type TeamRow } from '../db/repositories/teams.repository.js';
import { keysetPage } from '../db/pagination.js';
import { forbidden, notFound } from '../http/errors.js';
import type { AreaHandlers } from '../http/handler.js';
import { toApiTeamMemberEntry } from '../mappers/team.mapper.js';
import { updateTeamMembers } from '../services/teams.service.js';

/** The team, when the caller may change its members: organization admins and the team's owners (403 otherwise). */
async function requireTeamManager(db: Executor, caller: Caller, organizationId: string, teamId: string): Promise<{ access: OrganizationAccess; team: TeamRow }> {
  const access = await requireOrganizationMember(db, caller, organizationId);
  const team = await findTeam(db, access.organization.id, teamId, caller.user.id);
  if (!team) throw notFound('Team');
  if (!teamPermissions(access.role, team.callerTeamRole).admin) throw forbidden('Only organization admins and the team’s owners may change its members');
  return { access, team };
}

export const teamMemberHandlers = {
  async listTeamMembers({ caller, params, query, app }) {
    const access = await requireOrganizationMember(app.db, caller, params.organizationId);
    requireNonGuest(access);
    const organizationId = access.organization.id;
    if (!(await findTeam(app.db, organizationId, params.teamId, caller.user.id))) throw notFound('Team');
    const page = await keysetPage(app.db, teamMembersQuery(app.db, organizationId, params.teamId), {
      keys: [
        { column: 'tm.addedAt', direction: 'desc', value: (row) => row.addedAt },
        { column: 'tm.userId', direction: 'desc', value: (row) => row.userId },
      ],
      request: query,
      queryKey: `listTeamMembers:${organizationId}:${params.teamId}`,
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiTeamMemberEntry(row, access.role, app.urls)) } };
  },

  async updateTeamMembers({ caller, params, body, app }) {
    const { access, team } = await requireTeamManager(app.db, caller, params.organizationId, params.teamId);
    await updateTeamMembers(app.db, access.organization.id, team.id, body);
    return { status: 204 };
  },

  async putTeamMember({ caller, params, body, app }) {
    const { access, team } = await requireTeamManager(app.db, caller, params.organizationId, params.teamId);
    if (!(await memberRole(app.db, access.organization.id, params.userId))) throw notFound('Member');
    await upsertTeamMembers(app.db, access.organization.id, team.id, [{ userId: params.userId, role: body.role }]);
    return { status: 204 };
  },

  async removeTeamMember({ caller, params, app }) {
    const { access, team } = await requireTeamManager(app.db, caller, params.organizationId, params.teamId);
    if ((await removeTeamMembers(app.db, access.organization.id, team.id, [params.userId])) === 0) throw notFound('Team member');
    return { status: 204 };
  },
} satisfies AreaHandlers;
