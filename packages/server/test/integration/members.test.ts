// Members: list, read, change role, remove or leave, SSO flag, ping, and a member's spaces and teams.
import { jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import {
  addTeamMember,
  createCollection,
  createMember,
  createOrganizationWithAdmin,
  createSpace,
  createTeam,
  createUser,
  grant,
  setMemberTimes,
  type TestUser,
} from '../support/factories.js';
import { expectedMember } from '../support/people.js';

const server = useTestServer();

const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const memberPath = (organizationId: string, userId: string) => ({ params: { path: { organizationId, userId } } });
const REFUSAL = { error: { code: 403, message: 'This needs the organization role "admin"' } };

async function membershipRow(t: TestServer, organizationId: string, who: TestUser) {
  return t.db.selectFrom('organizationMembers').selectAll().where('organizationId', '=', organizationId).where('userId', '=', who.user.id).executeTakeFirst();
}

describe('GET /v1/orgs/{organizationId}/members', () => {
  it('400 naming each invalid parameter', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    for (const [name, value] of [['role', 'owner'], ['sort', 'name'], ['order', 'up'], ['search', ''], ['search', 'x'.repeat(257)]]) {
      const { error, response } = await admin.client.GET('/v1/orgs/{organizationId}/members', {
        params: { path: { organizationId: organization.id }, query: { [name!]: value } as never },
      });
      expect(response.status).toBe(400);
      expect(error?.error.issues?.map((issue) => issue.path)).toEqual([`/query/${name}`]);
    }
  });

  it('lists members newest first with exact counters', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const reader = await createMember(t, organization, 'read');
    const [first, second, third, deleted] = [
      await createSpace(t, admin, organization),
      await createSpace(t, admin, organization),
      await createSpace(t, admin, organization),
      await createSpace(t, admin, organization),
    ];
    const collection = await createCollection(t, admin, organization);
    const teamA = await createTeam(t, organization, [reader]);
    const teamB = await createTeam(t, organization, [reader]);
    await grant(t, { kind: 'space', item: first }, { user: reader }, 'edit');
    await grant(t, { kind: 'space', item: first }, { team: teamA }, 'read'); // the same space again: counted once
    await grant(t, { kind: 'space', item: second }, { team: teamB }, 'comment');
    await grant(t, { kind: 'space', item: deleted }, { user: reader }, 'read');
    await grant(t, { kind: 'collection', item: collection }, { user: reader }, 'read'); // collections are not spaces
    await t.db.updateTable('spaces').set({ deletedAt: new Date() }).where('id', '=', deleted.id).execute();
    void third;
    await setMemberTimes(t, organization, admin, { joinedAt: '2026-01-01T00:00:00.000Z' });
    await setMemberTimes(t, organization, reader, { joinedAt: '2026-02-01T00:00:00.000Z', lastSeenAt: '2026-03-01T00:00:00.000Z' });

    const { data, response } = await admin.client.GET('/v1/orgs/{organizationId}/members', orgPath(organization.id));
    expect(response.status).toBe(200);
    expect(data).toEqual({
      count: 2,
      items: [
        expectedMember(reader, 'read', { joinedAt: '2026-02-01T00:00:00.000Z', lastSeenAt: '2026-03-01T00:00:00.000Z', spaces: 2, teams: 2 }),
        // The creator holds admin grants on every space made by the factory; the deleted one is not counted.
        expectedMember(admin, 'admin', { joinedAt: '2026-01-01T00:00:00.000Z', spaces: 3 }),
      ],
    });
  });

  it('filters by role (guest included) and searches names and e-mails, pattern characters taken literally', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const ada = await createUser(t, { name: 'Ada Lovelace', email: 'ada@math.test' });
    const grace = await createUser(t, { name: 'Grace Hopper', email: 'grace_100%@navy.test' });
    for (const [who, role] of [[ada, 'edit'], [grace, null]] as const) {
      await t.db.insertInto('organizationMembers').values({ organizationId: organization.id, userId: who.user.id, role }).execute();
    }
    const ids = async (query: Record<string, string>) =>
      (await admin.client.GET('/v1/orgs/{organizationId}/members', { params: { path: { organizationId: organization.id }, query } })).data?.items.map((m) => m.id);
    expect(await ids({ role: 'guest' })).toEqual([grace.user.id]);
    expect(await ids({ role: 'edit' })).toEqual([ada.user.id]);
    expect(await ids({ role: 'admin' })).toEqual([admin.user.id]);
    expect(await ids({ role: 'review' })).toEqual([]);
    expect(await ids({ search: 'LOVE' })).toEqual([ada.user.id]);
    expect(await ids({ search: 'NAVY.test' })).toEqual([grace.user.id]);
    expect(await ids({ search: '100%' })).toEqual([grace.user.id]);
    expect(await ids({ search: '%' })).toEqual([grace.user.id]);
    expect(await ids({ search: 'e_1' })).toEqual([grace.user.id]);
    expect(await ids({ search: 'ada', role: 'guest' })).toEqual([]);
  });

  it('sorts by joinedAt or lastSeenAt (members seen at least once), in either order, in pages', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const [a, b, c] = [await createMember(t, organization, 'read'), await createMember(t, organization, 'read'), await createMember(t, organization, 'read')];
    await setMemberTimes(t, organization, admin, { joinedAt: '2026-01-01T00:00:00.000Z' });
    await setMemberTimes(t, organization, a, { joinedAt: '2026-01-02T00:00:00.000Z', lastSeenAt: '2026-05-01T00:00:00.000Z' });
    await setMemberTimes(t, organization, b, { joinedAt: '2026-01-03T00:00:00.000Z' });
    await setMemberTimes(t, organization, c, { joinedAt: '2026-01-04T00:00:00.000Z', lastSeenAt: '2026-04-01T00:00:00.000Z' });
    const list = async (query: Record<string, string | number>) =>
      (await admin.client.GET('/v1/orgs/{organizationId}/members', { params: { path: { organizationId: organization.id }, query } })).data!;
    expect((await list({})).items.map((m) => m.id)).toEqual([c, b, a, admin].map((u) => u.user.id));
    expect((await list({ order: 'asc' })).items.map((m) => m.id)).toEqual([admin, a, b, c].map((u) => u.user.id));
    const seen = await list({ sort: 'lastSeenAt' });
    expect(seen).toMatchObject({ count: 2 });
    expect(seen.items.map((m) => m.id)).toEqual([a.user.id, c.user.id]);
    expect((await list({ sort: 'lastSeenAt', order: 'asc' })).items.map((m) => m.id)).toEqual([c.user.id, a.user.id]);

    const firstPage = await list({ limit: 3 });
    expect(firstPage.count).toBe(4);
    const rest = await list({ limit: 3, page: firstPage.next!.page });
    expect(rest.items.map((m) => m.id)).toEqual([admin.user.id]);
    expect(rest.next).toBeUndefined();
    // A cursor belongs to its query: another sort cannot reuse it.
    const { response } = await admin.client.GET('/v1/orgs/{organizationId}/members', {
      params: { path: { organizationId: organization.id }, query: { order: 'asc', page: firstPage.next!.page } },
    });
    expect(response.status).toBe(400);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}', () => {
  it('400 for a malformed user id', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const { error, response } = await admin.client.GET('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, 'not an id'));
    expect(response.status).toBe(400);
    expect(error?.error.issues?.[0]?.path).toBe('/path/userId');
  });

  it('404 for an unknown user and a user of another organization', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const other = await createOrganizationWithAdmin(t);
    for (const userId of ['unknownUser000000000', other.admin.user.id]) {
      const { error, response } = await admin.client.GET('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, userId));
      expect(response.status).toBe(404);
      expect(error).toEqual({ error: { code: 404, message: 'Member not found' } });
    }
  });

  // A guest reading someone else is the matrix's case (403); reading themself is this rule's.
  it('a guest reads their own membership', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const guest = await createMember(t, organization, null);
    const { data } = await guest.client.GET('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, guest.user.id));
    expect(data).toEqual(expectedMember(guest, null));
  });

  it('any non-guest member reads another member', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const reader = await createMember(t, organization, 'read');
    const { data, response } = await reader.client.GET('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, admin.user.id));
    expect(response.status).toBe(200);
    expect(data).toEqual(expectedMember(admin, 'admin'));
  });
});

describe('PATCH /v1/orgs/{organizationId}/members/{userId}', () => {
  it('400 for a missing or unknown role', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const member = await createMember(t, organization, 'read');
    for (const body of [{}, { role: 'owner' }]) {
      const { error, response } = await admin.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberPath(organization.id, member.user.id), body: body as never });
      expect(response.status).toBe(400);
      expect(error?.error.issues?.[0]?.path).toMatch(/^\/body/);
    }
    expect((await membershipRow(t, organization.id, member))?.role).toBe('read');
  });

  it('404 for a user who is not a member, who stays one', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const outsider = await createUser(t);
    const { error, response } = await admin.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberPath(organization.id, outsider.user.id), body: { role: 'read' } });
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: { code: 404, message: 'Member not found' } });
    expect(await membershipRow(t, organization.id, outsider)).toBeUndefined();
  });

  // Each role's refusal is the matrix's; here, what it leaves.
  it('403 below admin changes nothing', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const caller = await createMember(t, organization, 'create');
    const target = await createMember(t, organization, 'read');
    const { error, response } = await caller.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberPath(organization.id, target.user.id), body: { role: 'edit' } });
    expect(response.status).toBe(403);
    expect(error).toEqual(REFUSAL);
    expect((await membershipRow(t, organization.id, target))?.role).toBe('read');
  });

  it('changes the role, null making a guest', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const member = await createMember(t, organization, 'read');
    const promoted = await admin.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberPath(organization.id, member.user.id), body: { role: 'review' } });
    expect(promoted.response.status).toBe(200);
    expect(promoted.data).toEqual(expectedMember(member, 'review'));
    const guest = await admin.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberPath(organization.id, member.user.id), body: { role: null } });
    expect(guest.data).toEqual(expectedMember(member, null));
    expect((await admin.client.GET('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, member.user.id))).data).toEqual(guest.data);
  });

  it('409 when demoting the last admin; with a second admin, an admin may step down', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const { error, response } = await admin.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberPath(organization.id, admin.user.id), body: { role: 'create' } });
    expect(response.status).toBe(409);
    expect(error?.error.message).toMatch(/at least one admin/);
    expect((await membershipRow(t, organization.id, admin))?.role).toBe('admin');
    // Re-stating admin is no demotion.
    expect((await admin.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberPath(organization.id, admin.user.id), body: { role: 'admin' } })).response.status).toBe(200);
    await createMember(t, organization, 'admin');
    const stepDown = await admin.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberPath(organization.id, admin.user.id), body: { role: 'create' } });
    expect(stepDown.data?.role).toBe('create');
  });

  it('two admins demoting each other at once: exactly one succeeds', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const other = await createMember(t, organization, 'admin');
    const results = await Promise.all([
      admin.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberPath(organization.id, other.user.id), body: { role: 'read' } }),
      other.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberPath(organization.id, admin.user.id), body: { role: 'read' } }),
    ]);
    // The loser is refused either by the last-admin rule (409) or, once demoted, for not being an admin (403).
    expect(results.filter((r) => r.response.status === 200)).toHaveLength(1);
    expect([403, 409]).toContain(results.find((r) => r.response.status !== 200)?.response.status);
    const admins = await t.db.selectFrom('organizationMembers').select('userId').where('organizationId', '=', organization.id).where('role', '=', 'admin').execute();
    expect(admins).toHaveLength(1);
  });
});

describe('DELETE /v1/orgs/{organizationId}/members/{userId}', () => {
  it('400 for a malformed id', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, 'bad id'))).response.status).toBe(400);
  });

  it('404 for a user who is not a member', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const outsider = await createUser(t);
    const { error, response } = await admin.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, outsider.user.id));
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: { code: 404, message: 'Member not found' } });
  });

  it('403 below admin removing someone else removes nothing', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const caller = await createMember(t, organization, 'create');
    const target = await createMember(t, organization, 'read');
    const { error, response } = await caller.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, target.user.id));
    expect(response.status).toBe(403);
    expect(error).toEqual({ error: { code: 403, message: 'This needs the organization role "admin", or to be that member' } });
    expect(await membershipRow(t, organization.id, target)).toEqual(expect.objectContaining({ role: 'read' }));
  });

  it('removes the member with their grants and team memberships, and nothing of anyone else', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const [leaving, staying] = [await createMember(t, organization, 'edit'), await createMember(t, organization, 'edit')];
    const space = await createSpace(t, admin, organization);
    const collection = await createCollection(t, admin, organization);
    const team = await createTeam(t, organization, [leaving, staying]);
    for (const who of [leaving, staying]) {
      await grant(t, { kind: 'space', item: space }, { user: who }, 'review');
      await grant(t, { kind: 'collection', item: collection }, { user: who }, 'review');
    }
    await grant(t, { kind: 'space', item: space }, { team }, 'comment');

    const { response } = await admin.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, leaving.user.id));
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await admin.client.GET('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, leaving.user.id))).response.status).toBe(404);
    const grantsOf = async (userId: string) => [
      ...(await t.db.selectFrom('spaceGrants').select('role').where('principalId', '=', userId).execute()),
      ...(await t.db.selectFrom('collectionGrants').select('role').where('principalId', '=', userId).execute()),
    ];
    expect(await grantsOf(leaving.user.id)).toEqual([]);
    expect(await grantsOf(staying.user.id)).toHaveLength(2);
    const teamMembers = await t.db.selectFrom('teamMembers').select('userId').where('teamId', '=', team.id).execute();
    expect(teamMembers).toEqual([{ userId: staying.user.id }]);
    expect(await t.db.selectFrom('spaceGrants').select('role').where('principalId', '=', team.id).execute()).toEqual([{ role: 'comment' }]);
    // The former member no longer reaches the organization.
    expect((await leaving.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).response.status).toBe(404);
  });

  it('any member may leave (guests included); the last admin may not (409)', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    for (const role of ['read', null] as const) {
      const member = await createMember(t, organization, role);
      expect((await member.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, member.user.id))).response.status).toBe(204);
      expect(await membershipRow(t, organization.id, member)).toBeUndefined();
    }
    const { error, response } = await admin.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, admin.user.id));
    expect(response.status).toBe(409);
    expect(error?.error.message).toMatch(/at least one admin/);
    await createMember(t, organization, 'admin');
    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, admin.user.id))).response.status).toBe(204);
  });
});

describe('POST /v1/orgs/{organizationId}/ping', () => {
  it('400 for a malformed id', async () => {
    const alice = await createUser(server());
    expect((await alice.client.POST('/v1/orgs/{organizationId}/ping', orgPath('bad id'))).response.status).toBe(400);
  });


  it('records the last-seen time and returns the member’s claims signed with the server’s key (guests too)', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const guest = await createMember(t, organization, null);
    const before = Date.now();
    const { data, response } = await guest.client.POST('/v1/orgs/{organizationId}/ping', orgPath(organization.id));
    expect(response.status).toBe(200);
    const { payload, protectedHeader } = await jwtVerify(data!.serviceVisitorClaims, t.context.keys.jwt, { issuer: 'http://api.test' });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toEqual({
      iss: 'http://api.test',
      sub: guest.user.id,
      organization: organization.id,
      role: null,
      email: guest.user.email,
      name: guest.user.displayName,
      iat: expect.any(Number),
      exp: payload.iat! + 600,
    });
    await expect(jwtVerify(data!.serviceVisitorClaims, new Uint8Array(32))).rejects.toThrow();
    const seen = (await membershipRow(t, organization.id, guest))!.lastSeenAt!;
    expect(seen.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const { data: member } = await guest.client.GET('/v1/orgs/{organizationId}/members/{userId}', memberPath(organization.id, guest.user.id));
    expect(member?.lastSeenAt).toBe(seen.toISOString());
  });
});

describe('POST /v1/orgs/{organizationId}/members/{userId}/sso and disabled members', () => {
  it('400 for a malformed id', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    expect((await admin.client.POST('/v1/orgs/{organizationId}/members/{userId}/sso', memberPath(organization.id, 'bad id'))).response.status).toBe(400);
  });

  it('404 for a user who is not a member', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const outsider = await createUser(t);
    const { error, response } = await admin.client.POST('/v1/orgs/{organizationId}/members/{userId}/sso', memberPath(organization.id, outsider.user.id));
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: { code: 404, message: 'Member not found' } });
  });

  // The matrix marks another member; no rule lets a member mark themself either.
  it('403 below admin marking themself, who stays a non-SSO member', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const caller = await createMember(t, organization, 'create');
    const { error, response } = await caller.client.POST('/v1/orgs/{organizationId}/members/{userId}/sso', memberPath(organization.id, caller.user.id));
    expect(response.status).toBe(403);
    expect(error).toEqual(REFUSAL);
    expect((await membershipRow(t, organization.id, caller))?.sso).toBe(false);
  });

  it('with SSO enforced, non-SSO members other than admins are disabled and refused the content (403) until made SSO members', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const member = await createMember(t, organization, 'create');
    const collection = await createCollection(t, admin, organization);
    const space = await createSpace(t, admin, organization);
    await admin.client.PATCH('/v1/orgs/{organizationId}', { ...orgPath(organization.id), body: { sso: true } });

    const { data: listed } = await admin.client.GET('/v1/orgs/{organizationId}/members', orgPath(organization.id));
    expect(listed?.items.find((m) => m.id === member.user.id)).toMatchObject({ disabled: true, sso: false });
    expect(listed?.items.find((m) => m.id === admin.user.id)).toMatchObject({ disabled: false, sso: false });
    const contentCalls = [
      () => member.client.GET('/v1/orgs/{organizationId}/spaces', orgPath(organization.id)),
      () => member.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: {} }),
      () => member.client.GET('/v1/orgs/{organizationId}/collections', orgPath(organization.id)),
      () => member.client.POST('/v1/orgs/{organizationId}/collections', { ...orgPath(organization.id), body: {} }),
      () => member.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } }),
      () => member.client.GET('/v1/collections/{collectionId}', { params: { path: { collectionId: collection.id } } }),
      () => member.client.GET('/v1/orgs/{organizationId}/members/{userId}/spaces', memberPath(organization.id, member.user.id)),
    ];
    for (const call of contentCalls) {
      const { error, response } = await call();
      expect(response.status).toBe(403);
      expect(error?.error.message).toMatch(/single sign-on/);
    }
    // The organization itself stays readable, so the member can find how to sign in.
    expect((await member.client.GET('/v1/orgs/{organizationId}', orgPath(organization.id))).response.status).toBe(200);

    const { data, response } = await admin.client.POST('/v1/orgs/{organizationId}/members/{userId}/sso', memberPath(organization.id, member.user.id));
    expect(response.status).toBe(200);
    expect(data).toEqual(expectedMember(member, 'create', { sso: true }));
    for (const call of contentCalls) expect((await call()).response.status).toBeLessThan(300);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces', () => {
  const path = memberPath;

  it('400 for an unknown order', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const { error, response } = await admin.client.GET('/v1/orgs/{organizationId}/members/{userId}/spaces', {
      params: { path: { organizationId: organization.id, userId: admin.user.id }, query: { order: 'sideways' as never } },
    });
    expect(response.status).toBe(400);
    expect(error?.error.issues?.[0]?.path).toBe('/query/order');
  });

  // A non-member caller, and each role reading someone else's, are the sweep's and the matrix's cases.
  it('404 for a user who is not a member', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const outsider = await createUser(t);
    const { error, response } = await admin.client.GET('/v1/orgs/{organizationId}/members/{userId}/spaces', path(organization.id, outsider.user.id));
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: { code: 404, message: 'Member not found' } });
  });

  it('lists each space the member can access with their effective role; the member reads their own', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const member = await createMember(t, organization, 'read');
    const closed = await createSpace(t, admin, organization, { defaultLevel: null, title: 'Closed' });
    const open = await createSpace(t, admin, organization, { title: 'Open' });
    const granted = await createSpace(t, admin, organization, { defaultLevel: null, title: 'Granted' });
    const viaTeam = await createSpace(t, admin, organization, { defaultLevel: null, title: 'Via team' });
    const team = await createTeam(t, organization, [member]);
    await grant(t, { kind: 'space', item: granted }, { user: member }, 'edit');
    await grant(t, { kind: 'space', item: viaTeam }, { team }, 'review');
    for (const [i, space] of [closed, open, granted, viaTeam].entries()) {
      await t.db.updateTable('spaces').set({ createdAt: `2026-01-0${i + 1}T00:00:00.000Z` } as never).where('id', '=', space.id).execute();
    }

    const own = await member.client.GET('/v1/orgs/{organizationId}/members/{userId}/spaces', path(organization.id, member.user.id));
    expect(own.response.status).toBe(200);
    expect(own.data?.count).toBe(3);
    expect(own.data?.items.map((item) => [item.space.title, item.permission, item.space.permissions.admin])).toEqual([
      ['Via team', 'review', false],
      ['Granted', 'edit', false],
      ['Open', 'read', false],
    ]);
    expect(own.data?.items[0]?.space).toMatchObject({ object: 'space', id: viaTeam.id, permissions: { view: true, review: true, admin: false } });

    // An admin sees the member's roles; the space objects carry the admin's own permissions.
    const asAdmin = await admin.client.GET('/v1/orgs/{organizationId}/members/{userId}/spaces', {
      params: { path: { organizationId: organization.id, userId: member.user.id }, query: { order: 'asc', limit: 2 } },
    });
    expect(asAdmin.data?.items.map((item) => [item.space.title, item.permission, item.space.permissions.admin])).toEqual([
      ['Open', 'read', true],
      ['Granted', 'edit', true],
    ]);
    const next = await admin.client.GET('/v1/orgs/{organizationId}/members/{userId}/spaces', {
      params: { path: { organizationId: organization.id, userId: member.user.id }, query: { order: 'asc', limit: 2, page: asAdmin.data!.next!.page } },
    });
    expect(next.data?.items.map((item) => item.space.title)).toEqual(['Via team']);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/teams', () => {
  const path = memberPath;

  it('400 for a title that is too long', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const { error } = await admin.client.GET('/v1/orgs/{organizationId}/members/{userId}/teams', {
      params: { path: { organizationId: organization.id, userId: admin.user.id }, query: { title: 'x'.repeat(65) } },
    });
    expect(error?.error.issues?.[0]?.path).toBe('/query/title');
  });

  // A non-member caller, and each role reading someone else's, are the sweep's and the matrix's cases.
  it('404 for a user who is not a member', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const outsider = await createUser(t);
    const { error, response } = await admin.client.GET('/v1/orgs/{organizationId}/members/{userId}/teams', path(organization.id, outsider.user.id));
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: { code: 404, message: 'Member not found' } });
  });

  it('lists the member’s teams with their role in each, filtered by title', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const member = await createMember(t, organization, 'edit');
    const writers = await createTeam(t, organization, [], 'Writers');
    const reviewers = await createTeam(t, organization, [], 'Reviewers');
    await createTeam(t, organization, [], 'Not theirs');
    await addTeamMember(t, organization, writers, member, 'owner');
    await addTeamMember(t, organization, reviewers, member, 'member');
    await t.db.updateTable('teams').set({ createdAt: '2026-01-01T00:00:00.000Z' } as never).where('id', '=', writers.id).execute();

    const { data, response } = await member.client.GET('/v1/orgs/{organizationId}/members/{userId}/teams', path(organization.id, member.user.id));
    expect(response.status).toBe(200);
    expect(data).toEqual({
      count: 2,
      items: [
        {
          team: { object: 'team', id: reviewers.id, title: 'Reviewers', members: 1, spaces: 0, createdAt: expect.any(String), permissions: { view: true, admin: false } },
          member: { role: 'member' },
        },
        {
          team: { object: 'team', id: writers.id, title: 'Writers', members: 1, spaces: 0, createdAt: '2026-01-01T00:00:00.000Z', permissions: { view: true, admin: true } },
          member: { role: 'owner' },
        },
      ],
    });
    const filtered = await admin.client.GET('/v1/orgs/{organizationId}/members/{userId}/teams', {
      params: { path: { organizationId: organization.id, userId: member.user.id }, query: { title: 'WRIT' } },
    });
    expect(filtered.data?.items.map((item) => [item.team.id, item.team.permissions.admin])).toEqual([[writers.id, true]]);
  });
});
