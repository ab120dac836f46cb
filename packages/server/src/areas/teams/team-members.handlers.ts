import { memberRole } from '../members/index.js';
import { findTeam, removeTeamMembers, teamMemberRoles, teamMembersQuery, teamsOfMemberQuery, upsertTeamMembers } from './teams.repository.js';
import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { actorOf, recordEvent } from '../events/index.js';
import { toApiTeam } from './team.mapper.js';

/**
 * Runs `change` of the team's members in one transaction with its `team.members-changed` event: who
 * joined, who left and whose team role changed (nothing recorded when nothing did).
 */
async function changeMembers(app: AppContext, caller: Caller, organizationId: string, teamId: string, change: (trx: Executor) => Promise<void>): Promise<void> {
  await inTransaction(app.db, async (trx) => {
    const before = await teamMemberRoles(trx, organizationId, teamId);
    await change(trx);
    const after = await teamMemberRoles(trx, organizationId, teamId);
    const added = [...after.keys()].filter((id) => !before.has(id));
    const removed = [...before.keys()].filter((id) => !after.has(id));
    const changed = [...after].filter(([id, role]) => before.has(id) && before.get(id) !== role).map(([id]) => id);
    if (added.length + removed.length + changed.length === 0) return;
    const team = toApiTeam((await findTeam(trx, organizationId, teamId, caller.user.id))!, 'admin');
    await recordEvent(trx, { type: 'team.members-changed', organizationId, actor: actorOf(caller, app.urls), data: { object: team, added, removed, changed } });
  });
}
import { keysetPage, newestFirst } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiMemberTeam, toApiTeamMemberEntry } from './team.mapper.js';
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

  async updateTeamMembers({ caller, access: { organization, team }, body, app }) {
    await changeMembers(app, caller, organization.id, team.id, (trx) => updateTeamMembers(trx, organization.id, team.id, body));
    return { status: 204 };
  },

  async putTeamMember({ caller, access: { organization, team }, params, body, app }) {
    if (!(await memberRole(app.db, organization.id, params.userId))) throw notFound('Member');
    await changeMembers(app, caller, organization.id, team.id, (trx) => upsertTeamMembers(trx, organization.id, team.id, [{ userId: params.userId, role: body.role }]));
    return { status: 204 };
  },

  async removeTeamMember({ caller, access: { organization, team }, params, app }) {
    await changeMembers(app, caller, organization.id, team.id, async (trx) => {
      if ((await removeTeamMembers(trx, organization.id, team.id, [params.userId])) === 0) throw notFound('Team member');
    });
    return { status: 204 };
  },
  // The teams of one member: served by the teams area (members know nothing of teams; teams build on members).
  async listOrganizationMemberTeams({ caller, access, params, query, app }) {
    const organizationId = access.organization.id;
    if (!(await memberRole(app.db, organizationId, params.userId))) throw notFound('Member');
    const page = await keysetPage(app.db, teamsOfMemberQuery(app.db, organizationId, params.userId, caller.user.id, query.title), {
      keys: newestFirst('t'),
      request: query,
      list: { operation: 'listOrganizationMemberTeams', within: `${organizationId}:${params.userId}`, filters: [query.title] },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiMemberTeam(row, access.role)) } };
  },
} satisfies AreaHandlers;
