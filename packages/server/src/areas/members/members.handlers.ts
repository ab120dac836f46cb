import { signMemberClaims } from './member-claims.js';
import { filteredMembersQuery, findMember, touchLastSeen, updateMember } from './members.repository.js';
import { keysetPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiMember } from './member.mapper.js';
import { changeMemberRole, removeMember } from './members.service.js';
import { inTransaction } from '../../db/database.js';
import { actorOf, recordEvent } from '../events/index.js';

export const memberHandlers = {
  async listOrganizationMembers({ access, query, app }) {
    const organizationId = access.organization.id;
    const sort = query.sort ?? 'joinedAt';
    const direction = query.order ?? 'desc';
    const rows = filteredMembersQuery(app.db, organizationId, { role: query.role, search: query.search, seenOnly: sort === 'lastSeenAt' });
    const page = await keysetPage(app.db, rows, {
      keys: [
        sort === 'lastSeenAt'
          ? { column: 'm.lastSeenAt', direction, value: (row) => row.lastSeenAt }
          : { column: 'm.joinedAt', direction, value: (row) => row.joinedAt },
        { column: 'm.userId', direction, value: (row) => row.userId },
      ],
      request: query,
      list: { operation: 'listOrganizationMembers', within: organizationId, filters: [sort, direction, query.role, query.search] },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiMember(row, app.urls)) } };
  },

  async getOrganizationMember({ access, params, app }) {
    const member = await findMember(app.db, access.organization.id, params.userId);
    if (!member) throw notFound('Member');
    return { status: 200, body: toApiMember(member, app.urls) };
  },

  async updateOrganizationMember({ caller, access, params, body, app }) {
    const organizationId = access.organization.id;
    const member = await inTransaction(app.db, async (trx) => {
      const previousRole = await changeMemberRole(trx, organizationId, params.userId, body.role);
      const row = toApiMember((await findMember(trx, organizationId, params.userId))!, app.urls);
      if (previousRole !== body.role) {
        await recordEvent(trx, { type: 'member.role-changed', organizationId, actor: actorOf(caller, app.urls), data: { object: row, previousRole } });
      }
      return row;
    });
    return { status: 200, body: member };
  },

  async removeOrganizationMember({ caller, access, params, app }) {
    const organizationId = access.organization.id;
    await inTransaction(app.db, async (trx) => {
      const before = await findMember(trx, organizationId, params.userId);
      await removeMember(trx, organizationId, params.userId);
      await recordEvent(trx, { type: 'member.removed', organizationId, actor: actorOf(caller, app.urls), data: { object: toApiMember(before!, app.urls) } });
    });
    // Their tokens scoped to the organization went with the membership (a foreign key): other instances
    // drop them on the change notification, this one at once.
    app.tokens.invalidate(`u:${params.userId}`);
    return { status: 204 };
  },

  async pingOrganization({ caller, access, app }) {
    await touchLastSeen(app.db, access.organization.id, caller.user.id);
    const serviceVisitorClaims = await signMemberClaims(app.keys.jwt, app.config.publicUrl, {
      userId: caller.user.id,
      organizationId: access.organization.id,
      role: access.role,
      email: caller.user.email,
      name: caller.user.displayName,
    });
    return { status: 200, body: { serviceVisitorClaims } };
  },

  async setOrganizationMemberSso({ caller, access, params, app }) {
    const organizationId = access.organization.id;
    const member = await inTransaction(app.db, async (trx) => {
      const before = await findMember(trx, organizationId, params.userId);
      if (!before || !(await updateMember(trx, organizationId, params.userId, { sso: true }))) throw notFound('Member');
      const row = toApiMember((await findMember(trx, organizationId, params.userId))!, app.urls);
      // Already an SSO member: nothing changed, nothing to record.
      if (!before.sso) await recordEvent(trx, { type: 'member.updated', organizationId, actor: actorOf(caller, app.urls), data: { object: row } });
      return row;
    });
    return { status: 200, body: member };
  },
} satisfies AreaHandlers;
