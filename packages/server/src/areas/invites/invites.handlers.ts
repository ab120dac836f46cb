import { findVisibleOrganization } from '../../access/organization.js';
import { deleteInvite, findInvite, insertInvite, invitesQuery, updateInviteRole } from './invites.repository.js';
import { findMember, joinOrganization, toApiMember } from '../members/index.js';
import { organizationObjectsPage } from '../../db/pagination.js';
import { forbidden, notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiInvite, toInviteEventObject } from './invite.mapper.js';
import { emailDomainOf } from '../organizations/index.js';
import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { inTransaction, type Executor } from '../../db/database.js';
import type { Role } from '../../db/schema.js';
import { actorOf, recordEvent } from '../events/index.js';
import type { InviteRow } from './invites.repository.js';

/** Records `type` for the invite in `trx` (the change's transaction), without its id: the id is its secret. */
async function recordInviteEvent(trx: Executor, app: AppContext, caller: Caller, type: 'invite.created' | 'invite.updated' | 'invite.deleted', row: InviteRow) {
  await recordEvent(trx, { type, organizationId: row.organizationId, actor: actorOf(caller, app.urls), data: { object: toInviteEventObject(row) } });
}

/** Joins the caller to the organization with `role`, recording `member.added` when they were not a member yet. */
async function joinRecorded(app: AppContext, caller: Caller, organizationId: string, role: Role | null) {
  return inTransaction(app.db, async (trx) => {
    const joined = await joinOrganization(trx, organizationId, caller.user.id, role);
    const member = toApiMember((await findMember(trx, organizationId, caller.user.id))!, app.urls);
    if (joined) await recordEvent(trx, { type: 'member.added', organizationId, actor: actorOf(caller, app.urls), data: { object: member } });
    return { joined, member };
  });
}

export const inviteHandlers = {
  async listLinkInvites({ access, query, app }) {
    const organizationId = access.organization.id;
    const page = await organizationObjectsPage(app.db, app.cursors, invitesQuery(app.db, organizationId), { alias: 'i', operation: 'listLinkInvites', organizationId, request: query });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiInvite(row, app.urls)) } };
  },

  async createLinkInvite({ caller, access, body, app }) {
    const organizationId = access.organization.id;
    const invite = await inTransaction(app.db, async (trx) => {
      const id = await insertInvite(trx, { organizationId, role: body.role ?? null, createdBy: caller.user.id });
      const row = (await findInvite(trx, organizationId, id))!;
      await recordInviteEvent(trx, app, caller, 'invite.created', row);
      return row;
    });
    return { status: 201, body: toApiInvite(invite, app.urls) };
  },

  async getLinkInviteById({ access, params, app }) {
    const invite = await findInvite(app.db, access.organization.id, params.inviteId);
    if (!invite) throw notFound('Invite');
    return { status: 200, body: toApiInvite(invite, app.urls) };
  },

  async updateLinkInviteById({ caller, access, params, body, app }) {
    const organizationId = access.organization.id;
    const invite = await inTransaction(app.db, async (trx) => {
      const before = await findInvite(trx, organizationId, params.inviteId);
      if (!before || !(await updateInviteRole(trx, organizationId, params.inviteId, body.role))) throw notFound('Invite');
      const row = (await findInvite(trx, organizationId, params.inviteId))!;
      if (before.role !== row.role) await recordInviteEvent(trx, app, caller, 'invite.updated', row);
      return row;
    });
    return { status: 200, body: toApiInvite(invite, app.urls) };
  },

  async deleteLinkInviteById({ caller, access, params, app }) {
    const organizationId = access.organization.id;
    await inTransaction(app.db, async (trx) => {
      const before = await findInvite(trx, organizationId, params.inviteId);
      if (!before || !(await deleteInvite(trx, organizationId, params.inviteId))) throw notFound('Invite');
      await recordInviteEvent(trx, app, caller, 'invite.deleted', before);
    });
    return { status: 205 };
  },

  async joinWithLinkInvite({ caller, params, app }) {
    const found = await findVisibleOrganization(app.db, caller, params.organizationId);
    // The invite is looked up first: without its secret, the organization's settings stay hidden.
    const invite = found && (await findInvite(app.db, found.organization.id, params.inviteId));
    if (!found || !invite) throw notFound('Invite');
    if (!found.organization.inviteLinks) throw forbidden('This organization does not accept invite links');
    const organizationId = found.organization.id;
    const { joined, member } = await joinRecorded(app, caller, organizationId, invite.role ?? found.organization.defaultRole);
    return joined ? { status: 201, body: member } : { status: 200, body: member };
  },

  async joinOrganizationByEmailDomain({ caller, params, app }) {
    const found = await findVisibleOrganization(app.db, caller, params.organizationId);
    const domainMatches = found?.organization.emailDomains.includes(emailDomainOf(caller.user.email));
    // Neither a member nor of a listed domain: the organization is not visible to the caller.
    if (!found || (!found.membership && !domainMatches)) throw notFound('Organization');
    const organizationId = found.organization.id;
    if (found.membership) return { status: 200, body: toApiMember((await findMember(app.db, organizationId, caller.user.id))!, app.urls) };
    const { joined, member } = await joinRecorded(app, caller, organizationId, found.organization.defaultRole);
    return joined ? { status: 201, body: member } : { status: 200, body: member };
  },
} satisfies AreaHandlers;
