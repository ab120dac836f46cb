// Link invites (list, create, read, change, delete), joining with one, and joining by e-mail domain.
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/db/schema.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createInvite, createMember, createOrganization, createOrganizationWithAdmin, createUser } from '../support/factories.js';
import { expectedMember } from '../support/people.js';

const server = useTestServer();

const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const invitePath = (organizationId: string, inviteId: string) => ({ params: { path: { organizationId, inviteId } } });

function expectedInvite(organizationId: string, id: string, role: Role | null, redundant = false) {
  const location = `http://api.test/v1/orgs/${organizationId}/link-invites/${id}`;
  return { object: 'invite', id, ...(role ? { role } : {}), redundant, createdAt: expect.any(String), urls: { location, join: `${location}/join` } };
}

async function membership(t: TestServer, organizationId: string, userId: string) {
  return t.db.selectFrom('organizationMembers').select('role').where('organizationId', '=', organizationId).where('userId', '=', userId).executeTakeFirst();
}

describe('GET and POST /v1/orgs/{organizationId}/link-invites', () => {
  it('400 for an unknown role or field', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    for (const body of [{ role: 'owner' }, { role: null }, { expires: 1 }]) {
      const { error, response } = await admin.client.POST('/v1/orgs/{organizationId}/link-invites', { ...orgPath(organization.id), body: body as never });
      expect(response.status).toBe(400);
      expect(error?.error.issues?.[0]?.path).toMatch(/^\/body/);
    }
    expect((await admin.client.GET('/v1/orgs/{organizationId}/link-invites', orgPath(organization.id))).data?.count).toBe(0);
  });

  it('creates invites with long secret ids and lists them newest first, redundant when another gives the same role', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const create = async (body: { role?: Role }) => admin.client.POST('/v1/orgs/{organizationId}/link-invites', { ...orgPath(organization.id), body });
    const first = await create({ role: 'edit' });
    expect(first.response.status).toBe(201);
    expect(first.data).toEqual(expectedInvite(organization.id, first.data!.id, 'edit'));
    expect(first.data!.id).toMatch(/^[A-Za-z0-9]{32}$/);
    const second = await create({ role: 'edit' });
    expect(second.data?.redundant).toBe(true);
    const roleless = await create({});
    expect(roleless.data).toEqual(expectedInvite(organization.id, roleless.data!.id, null));
    for (const [invite, at] of [[first, '01'], [second, '02'], [roleless, '03']] as const) {
      await t.db.updateTable('linkInvites').set({ createdAt: `2026-01-${at}T00:00:00.000Z` } as never).where('id', '=', invite.data!.id).execute();
    }

    const { data } = await admin.client.GET('/v1/orgs/{organizationId}/link-invites', orgPath(organization.id));
    expect(data).toEqual({
      count: 3,
      items: [
        expectedInvite(organization.id, roleless.data!.id, null, false),
        expectedInvite(organization.id, second.data!.id, 'edit', true),
        expectedInvite(organization.id, first.data!.id, 'edit', true),
      ],
    });
    const page = await admin.client.GET('/v1/orgs/{organizationId}/link-invites', { params: { path: { organizationId: organization.id }, query: { limit: 2 } } });
    const rest = await admin.client.GET('/v1/orgs/{organizationId}/link-invites', { params: { path: { organizationId: organization.id }, query: { limit: 2, page: page.data!.next!.page } } });
    expect(rest.data?.items.map((invite) => invite.id)).toEqual([first.data!.id]);
  });
});

describe('GET, PATCH and DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}', () => {
  it('400 for a malformed id and for a missing or unknown role', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const invite = await createInvite(t, organization, admin, 'read');
    expect((await admin.client.GET('/v1/orgs/{organizationId}/link-invites/{inviteId}', invitePath(organization.id, 'bad id'))).response.status).toBe(400);
    for (const body of [{}, { role: 'owner' }, { role: null }]) {
      const { error } = await admin.client.PATCH('/v1/orgs/{organizationId}/link-invites/{inviteId}', { ...invitePath(organization.id, invite.id), body: body as never });
      expect(error?.error.code).toBe(400);
    }
  });

  it('404 for a non-member, an unknown invite and another organization’s invite', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const other = await createOrganizationWithAdmin(t);
    const foreign = await createInvite(t, other.organization, other.admin, 'read');
    const mine = await createInvite(t, organization, admin, 'read');
    expect((await other.admin.client.GET('/v1/orgs/{organizationId}/link-invites/{inviteId}', invitePath(organization.id, mine.id))).response.status).toBe(404);
    for (const inviteId of [foreign.id, 'unknownInvite0000000']) {
      expect((await admin.client.GET('/v1/orgs/{organizationId}/link-invites/{inviteId}', invitePath(organization.id, inviteId))).error).toEqual({
        error: { code: 404, message: 'Invite not found' },
      });
      expect((await admin.client.PATCH('/v1/orgs/{organizationId}/link-invites/{inviteId}', { ...invitePath(organization.id, inviteId), body: { role: 'edit' } })).response.status).toBe(404);
      expect((await admin.client.DELETE('/v1/orgs/{organizationId}/link-invites/{inviteId}', invitePath(organization.id, inviteId))).response.status).toBe(404);
    }
  });

  // Each role's 403 is the matrix's: one refusal of each write shows that it changed nothing.
  it('a refusal below admin changes nothing', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const invite = await createInvite(t, organization, admin, 'read');
    const caller = await createMember(t, organization, 'create');
    expect((await caller.client.GET('/v1/orgs/{organizationId}/link-invites/{inviteId}', invitePath(organization.id, invite.id))).response.status).toBe(403);
    expect((await caller.client.PATCH('/v1/orgs/{organizationId}/link-invites/{inviteId}', { ...invitePath(organization.id, invite.id), body: { role: 'admin' } })).response.status).toBe(403);
    expect((await caller.client.DELETE('/v1/orgs/{organizationId}/link-invites/{inviteId}', invitePath(organization.id, invite.id))).response.status).toBe(403);
    expect((await t.db.selectFrom('linkInvites').select('role').where('id', '=', invite.id).executeTakeFirst())?.role).toBe('read');
  });

  it('reads, changes the role (redundancy follows), and deletes (205)', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const invite = await createInvite(t, organization, admin, 'read');
    await createInvite(t, organization, admin, 'comment');
    const { data } = await admin.client.GET('/v1/orgs/{organizationId}/link-invites/{inviteId}', invitePath(organization.id, invite.id));
    expect(data).toEqual(expectedInvite(organization.id, invite.id, 'read', false));
    const changed = await admin.client.PATCH('/v1/orgs/{organizationId}/link-invites/{inviteId}', { ...invitePath(organization.id, invite.id), body: { role: 'comment' } });
    expect(changed.response.status).toBe(200);
    expect(changed.data).toEqual(expectedInvite(organization.id, invite.id, 'comment', true));
    expect((await admin.client.GET('/v1/orgs/{organizationId}/link-invites/{inviteId}', invitePath(organization.id, invite.id))).data).toEqual(changed.data);

    const deleted = await admin.client.DELETE('/v1/orgs/{organizationId}/link-invites/{inviteId}', invitePath(organization.id, invite.id));
    expect(deleted.response.status).toBe(205);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/link-invites/{inviteId}', invitePath(organization.id, invite.id))).response.status).toBe(404);
    const joiner = await createUser(t);
    expect((await joiner.client.POST('/v1/orgs/{organizationId}/link-invites/{inviteId}/join', invitePath(organization.id, invite.id))).response.status).toBe(404);
  });
});

describe('POST /v1/orgs/{organizationId}/link-invites/{inviteId}/join', () => {
  const join = (client: ReturnType<TestServer['client']>, organizationId: string, inviteId: string) =>
    client.POST('/v1/orgs/{organizationId}/link-invites/{inviteId}/join', invitePath(organizationId, inviteId));

  it('400 for a malformed invite id', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const { error } = await join((await createUser(t)).client, organization.id, 'bad id!');
    expect(error?.error.issues?.[0]?.path).toBe('/path/inviteId');
  });

  it('404 for an unknown invite, an invite of another organization and an unknown organization', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const other = await createOrganizationWithAdmin(t);
    const foreign = await createInvite(t, other.organization, other.admin, 'read');
    const mine = await createInvite(t, organization, admin, 'read');
    const joiner = await createUser(t);
    for (const [organizationId, inviteId] of [[organization.id, 'unknownInvite0000000'], [organization.id, foreign.id], ['unknownOrg0000000000', mine.id]]) {
      expect((await join(joiner.client, organizationId!, inviteId!)).error).toEqual({ error: { code: 404, message: 'Invite not found' } });
    }
    expect(await membership(t, organization.id, joiner.user.id)).toBeUndefined();
  });

  it('403 when the organization has invite links off', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const invite = await createInvite(t, organization, admin, 'read');
    await admin.client.PATCH('/v1/orgs/{organizationId}', { ...orgPath(organization.id), body: { inviteLinks: false } });
    const joiner = await createUser(t);
    const { error, response } = await join(joiner.client, organization.id, invite.id);
    expect(response.status).toBe(403);
    expect(error?.error.message).toMatch(/invite links/);
    expect(await membership(t, organization.id, joiner.user.id)).toBeUndefined();
  });

  it('makes the caller a member with the invite’s role (201); a member stays as they are (200)', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const invite = await createInvite(t, organization, admin, 'edit');
    const joiner = await createUser(t);
    const { data, response } = await join(joiner.client, organization.id, invite.id);
    expect(response.status).toBe(201);
    expect(data).toEqual(expectedMember(joiner, 'edit'));
    expect((await joiner.client.GET('/v1/orgs/{organizationId}', orgPath(organization.id))).data?.permissions.listMembers).toBe(true);

    const guest = await createMember(t, organization, null);
    const again = await join(guest.client, organization.id, invite.id);
    expect(again.response.status).toBe(200);
    expect(again.data).toEqual(expectedMember(guest, null));
    expect(await membership(t, organization.id, guest.user.id)).toEqual({ role: null });
  });

  it('an invite without a role gives the organization’s defaultRole at the time of joining', async () => {
    const t = server();
    const owner = await createUser(t);
    const organization = await createOrganization(t, owner, { defaultRole: 'comment' });
    const invite = await createInvite(t, organization, owner, null);
    expect((await join((await createUser(t)).client, organization.id, invite.id)).data?.role).toBe('comment');
    await owner.client.PATCH('/v1/orgs/{organizationId}', { ...orgPath(organization.id), body: { defaultRole: null } });
    expect((await join((await createUser(t)).client, organization.id, invite.id)).data?.role).toBeNull();
  });
});

describe('POST /v1/orgs/{organizationId}/join', () => {
  const join = (client: ReturnType<TestServer['client']>, organizationId: string) => client.POST('/v1/orgs/{organizationId}/join', orgPath(organizationId));

  it('400 for a malformed id', async () => {
    expect((await join((await createUser(server())).client, 'bad id')).response.status).toBe(400);
  });

  it('404 when the caller’s e-mail domain is not one of the organization’s, as for an unknown organization', async () => {
    const t = server();
    const owner = await createUser(t, { email: 'owner@corp-a.test' });
    const organization = await createOrganization(t, owner, { emailDomains: ['corp-a.test'] });
    const stranger = await createUser(t, { email: 'someone@corp-b.test' });
    const lookalike = await createUser(t, { email: 'someone@sub.corp-a.test' });
    for (const [who, organizationId] of [[stranger, organization.id], [lookalike, organization.id], [stranger, 'unknownOrg0000000000']] as const) {
      expect((await join(who.client, organizationId)).error).toEqual({ error: { code: 404, message: 'Organization not found' } });
    }
    expect(await membership(t, organization.id, stranger.user.id)).toBeUndefined();
  });

  it('joins with the defaultRole (201); a member stays as they are (200); the domain lookup then shows it as theirs', async () => {
    const t = server();
    const owner = await createUser(t, { email: 'owner@corp.test' });
    const organization = await createOrganization(t, owner, { emailDomains: ['corp.test'], defaultRole: 'review' });
    const colleague = await createUser(t, { email: 'Colleague@CORP.test' });
    const before = await colleague.client.GET('/v1/email-domains/{emailDomain}/orgs', { params: { path: { emailDomain: 'corp.test' } } });
    expect(before.data?.organizations.map((o) => [o.id, o.permissions.view])).toEqual([[organization.id, false]]);

    const { data, response } = await join(colleague.client, organization.id);
    expect(response.status).toBe(201);
    expect(data).toEqual(expectedMember(colleague, 'review'));
    const after = await colleague.client.GET('/v1/email-domains/{emailDomain}/orgs', { params: { path: { emailDomain: 'corp.test' } } });
    expect(after.data?.organizations.map((o) => [o.id, o.permissions.view])).toEqual([[organization.id, true]]);

    await t.db.updateTable('organizationMembers').set({ role: 'read' }).where('userId', '=', colleague.user.id).execute();
    const again = await join(colleague.client, organization.id);
    expect(again.response.status).toBe(200);
    expect(again.data?.role).toBe('read');
    // A member whose domain is not listed is still a member: 200, unchanged.
    const elsewhere = await createMember(t, organization, 'edit');
    expect(elsewhere.user.email).toMatch(/@example\.com$/);
    expect((await join(elsewhere.client, organization.id)).response.status).toBe(200);
  });
});
