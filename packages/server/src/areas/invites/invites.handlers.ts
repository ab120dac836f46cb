import { findVisibleOrganization } from '../../access/organization.js';
import { deleteInvite, findInvite, insertInvite, invitesQuery, updateInviteRole } from './invites.repository.js';
import { findMember, joinOrganization, toApiMember } from '../members/index.js';
import { keysetPage } from '../../db/pagination.js';
import { forbidden, notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiInvite } from './invite.mapper.js';
import { emailDomainOf } from '../organizations/index.js';
import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import type { Role } from '../../db/schema.js';
import { actorOf, recordEvent } from '../events/index.js';

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
    const page = await keysetPage(app.db, invitesQuery(app.db, organizationId), {
      keys: [
        { column: 'i.createdAt', direction: 'desc', value: (row) => row.createdAt },
        { column: 'i.id', direction: 'desc', value: (row) => row.id },
      ],
      request: query,
      list: { operation: 'listLinkInvites', within: organizationId },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiInvite(row, app.urls)) } };
  },

  async createLinkInvite({ caller, access, body, app }) {
    const organizationId = access.organization.id;
    const id = await insertInvite(app.db, { organizationId, role: body.role ?? null, createdBy: caller.user.id });
    return { status: 201, body: toApiInvite((await findInvite(app.db, organizationId, id))!, app.urls) };
  },

  async getLinkInviteById({ access, params, app }) {
    const invite = await findInvite(app.db, access.organization.id, params.inviteId);
    if (!invite) throw notFound('Invite');
    return { status: 200, body: toApiInvite(invite, app.urls) };
  },

  async updateLinkInviteById({ access, params, body, app }) {
    if (!(await updateInviteRole(app.db, access.organization.id, params.inviteId, body.role))) throw notFound('Invite');
    return { status: 200, body: toApiInvite((await findInvite(app.db, access.organization.id, params.inviteId))!, app.urls) };
  },

  async deleteLinkInviteById({ access, params, app }) {
    if (!(await deleteInvite(app.db, access.organization.id, params.inviteId))) throw notFound('Invite');
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
