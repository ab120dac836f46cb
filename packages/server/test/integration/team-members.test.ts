// Team members: list, bulk change, add or change one, remove one. Admins and team owners manage them.
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/db/schema.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { addTeamMember, createMember, createOrganizationWithAdmin, createTeam, createUser, type TestUser } from '../support/factories.js';
import { expectedMember } from '../support/people.js';

const server = useTestServer();

const teamPath = (organizationId: string, teamId: string) => ({ params: { path: { organizationId, teamId } } });
const entryPath = (organizationId: string, teamId: string, userId: string) => ({ params: { path: { organizationId, teamId, userId } } });
const NON_ADMIN: Array<Role | null> = ['create', 'review', 'edit', 'comment', 'read', null];
const TEAM_NOT_FOUND = { error: { code: 404, message: 'Team not found' } };
const NOT_TEAM_OWNER = { error: { code: 403, message: 'This needs the organization role "admin", or to own the team' } };

async function teamRoles(t: TestServer, team: { id: string }): Promise<Record<string, string>> {
  const rows = await t.db.selectFrom('teamMembers').select(['userId', 'role']).where('teamId', '=', team.id).execute();
  return Object.fromEntries(rows.map((row) => [row.userId, row.role]));
}

/** An organization, a team, and a member of the organization who is not in it yet. */
async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const team = await createTeam(t, organization);
  const member = await createMember(t, organization, 'read');
  return { admin, organization, team, member };
}

describe('GET /v1/orgs/{organizationId}/teams/{teamId}/members', () => {
  it('400 for an out-of-range limit', async () => {
    const { admin, organization, team } = await world(server());
    const { error } = await admin.client.GET('/v1/orgs/{organizationId}/teams/{teamId}/members', { params: { path: { organizationId: organization.id, teamId: team.id }, query: { limit: 0 } } });
    expect(error?.error.issues?.[0]?.path).toBe('/query/limit');
  });

  // A non-member and a guest are the sweep's and the matrix's cases.
  it('404 for an unknown team', async () => {
    const { admin, organization } = await world(server());
    const { error, response } = await admin.client.GET('/v1/orgs/{organizationId}/teams/{teamId}/members', teamPath(organization.id, 'unknownTeam000000000'));
    expect(response.status).toBe(404);
    expect(error).toEqual(TEAM_NOT_FOUND);
  });

  it('lists entries, most recently added first, in pages', async () => {
    const t = server();
    const { admin, organization, team, member } = await world(t);
    await addTeamMember(t, organization, team, admin, 'owner');
    await addTeamMember(t, organization, team, member, 'member');
    await t.db.updateTable('teamMembers').set({ addedAt: '2026-01-01T00:00:00.000Z' } as never).where('userId', '=', admin.user.id).execute();

    const { data, response } = await member.client.GET('/v1/orgs/{organizationId}/teams/{teamId}/members', teamPath(organization.id, team.id));
    expect(response.status).toBe(200);
    expect(data).toEqual({
      count: 2,
      items: [
        { organization: expectedMember(member, 'read', { teams: 1 }), team: { role: 'member' }, permissions: { view: true } },
        { organization: expectedMember(admin, 'admin', { teams: 1 }), team: { role: 'owner' }, permissions: { view: true } },
      ],
    });
    const first = await member.client.GET('/v1/orgs/{organizationId}/teams/{teamId}/members', { params: { path: { organizationId: organization.id, teamId: team.id }, query: { limit: 1 } } });
    const second = await member.client.GET('/v1/orgs/{organizationId}/teams/{teamId}/members', {
      params: { path: { organizationId: organization.id, teamId: team.id }, query: { limit: 1, page: first.data!.next!.page } },
    });
    expect([...first.data!.items, ...second.data!.items].map((entry) => entry.organization.id)).toEqual([member.user.id, admin.user.id]);
  });
});

describe('PUT /v1/orgs/{organizationId}/teams/{teamId}/members', () => {
  const put = (who: TestUser, organizationId: string, teamId: string, body: Record<string, unknown>) =>
    who.client.PUT('/v1/orgs/{organizationId}/teams/{teamId}/members', { ...teamPath(organizationId, teamId), body: body as never });

  it('400 for malformed bodies and for users who are not members of the organization, changing nothing', async () => {
    const t = server();
    const { admin, organization, team, member } = await world(t);
    for (const body of [{ add: 'x' }, { memberships: { [member.user.id]: { role: 'boss' } } }, { memberships: { 'bad key!': { role: 'owner' } } }]) {
      const { error, response } = await put(admin, organization.id, team.id, body);
      expect(response.status).toBe(400);
      expect(error?.error.issues?.[0]?.path).toMatch(/^\/body/);
    }
    const outsider = await createUser(t, { email: 'outsider@example.test' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ add: [member.user.id, outsider.user.id] }, '/body/add/1'],
      [{ add: [member.user.id, 'OUTSIDER@example.test'] }, '/body/add/1'],
      [{ remove: ['nobody@example.test'] }, '/body/remove/0'],
      [{ memberships: { [outsider.user.id]: { role: 'owner' } } }, `/body/memberships/${outsider.user.id}`],
    ];
    for (const [body, path] of cases) {
      const { error, response } = await put(admin, organization.id, team.id, body);
      expect(response.status).toBe(400);
      expect(error?.error.issues).toEqual([{ path, message: 'is not a member of this organization' }]);
    }
    expect(await teamRoles(t, team)).toEqual({});
  });

  it('404 for an unknown team', async () => {
    const { admin, organization, member } = await world(server());
    const { error, response } = await put(admin, organization.id, 'unknownTeam000000000', { add: [member.user.id] });
    expect(response.status).toBe(404);
    expect(error).toEqual(TEAM_NOT_FOUND);
  });

  it.each(NON_ADMIN)('403 for the role %s unless they own the team', async (role) => {
    const t = server();
    const { organization, team, member } = await world(t);
    const caller = await createMember(t, organization, role);
    await addTeamMember(t, organization, team, caller, 'member');
    const refused = await put(caller, organization.id, team.id, { add: [member.user.id] });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toEqual(NOT_TEAM_OWNER);
    expect(Object.keys(await teamRoles(t, team))).toEqual([caller.user.id]);
    await addTeamMember(t, organization, team, caller, 'owner');
    expect((await put(caller, organization.id, team.id, { add: [member.user.id] })).response.status).toBe(204);
    expect((await teamRoles(t, team))[member.user.id]).toBe('member');
  });

  it('adds by id or e-mail, sets roles, removes; remove wins; add keeps existing roles', async () => {
    const t = server();
    const { admin, organization, team } = await world(t);
    const [a, b, c, d, e] = await Promise.all([1, 2, 3, 4, 5].map(() => createMember(t, organization, 'read')));
    await addTeamMember(t, organization, team, a!, 'owner');
    await addTeamMember(t, organization, team, d!, 'member');
    const { response } = await put(admin, organization.id, team.id, {
      add: [a!.user.id, b!.user.email.toUpperCase(), c!.user.id],
      remove: [c!.user.id, d!.user.email, e!.user.id],
      memberships: { [e!.user.id]: { role: 'owner' }, [admin.user.id]: { role: 'owner' } },
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(await teamRoles(t, team)).toEqual({ [a!.user.id]: 'owner', [b!.user.id]: 'member', [admin.user.id]: 'owner' });
    const { data } = await admin.client.GET('/v1/orgs/{organizationId}/teams/{teamId}', teamPath(organization.id, team.id));
    expect(data?.members).toBe(3);
    // memberships changes the role of someone already in the team
    await put(admin, organization.id, team.id, { memberships: { [a!.user.id]: { role: 'member' } } });
    expect((await teamRoles(t, team))[a!.user.id]).toBe('member');
  });
});

describe('PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', () => {
  it('400 for an unknown role', async () => {
    const { admin, organization, team, member } = await world(server());
    const { error } = await admin.client.PUT('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', { ...entryPath(organization.id, team.id, member.user.id), body: { role: 'boss' as never } });
    expect(error?.error.issues?.[0]?.path).toBe('/body/role');
  });

  // A non-member caller, and each role outside the team, are the sweep's and the matrix's cases.
  it('404 for an unknown team and a user who is not a member of the organization; nobody is added', async () => {
    const t = server();
    const { admin, organization, team, member } = await world(t);
    const outsider = await createUser(t);
    const unknownTeam = await admin.client.PUT('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', { ...entryPath(organization.id, 'unknownTeam000000000', member.user.id), body: {} });
    expect(unknownTeam.error).toEqual(TEAM_NOT_FOUND);
    const { error } = await admin.client.PUT('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', { ...entryPath(organization.id, team.id, outsider.user.id), body: {} });
    expect(error).toEqual({ error: { code: 404, message: 'Member not found' } });
    expect(await teamRoles(t, team)).toEqual({});
  });

  it('403 for a member who does not own the team adds nobody', async () => {
    const t = server();
    const { organization, team, member } = await world(t);
    const caller = await createMember(t, organization, 'create');
    const { error, response } = await caller.client.PUT('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', { ...entryPath(organization.id, team.id, member.user.id), body: {} });
    expect(response.status).toBe(403);
    expect(error).toEqual(NOT_TEAM_OWNER);
    expect(await teamRoles(t, team)).toEqual({});
  });

  it('adds as member, changes the role when given, keeps it when not', async () => {
    const t = server();
    const { admin, organization, team, member } = await world(t);
    const call = (body: { role?: 'owner' | 'member' }) =>
      admin.client.PUT('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', { ...entryPath(organization.id, team.id, member.user.id), body });
    expect((await call({})).response.status).toBe(204);
    expect(await teamRoles(t, team)).toEqual({ [member.user.id]: 'member' });
    await call({ role: 'owner' });
    await call({});
    expect(await teamRoles(t, team)).toEqual({ [member.user.id]: 'owner' });
    // The new owner now manages the team's members.
    const other = await createMember(t, organization, null);
    expect((await member.client.PUT('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', { ...entryPath(organization.id, team.id, other.user.id), body: {} })).response.status).toBe(204);
  });
});

describe('DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', () => {
  it('400 for a malformed user id', async () => {
    const { admin, organization, team } = await world(server());
    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', entryPath(organization.id, team.id, 'bad id'))).response.status).toBe(400);
  });

  it('404 for an unknown team and a user not in the team', async () => {
    const t = server();
    const { admin, organization, team, member } = await world(t);
    await addTeamMember(t, organization, team, member);
    const unknownTeam = await admin.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', entryPath(organization.id, 'unknownTeam000000000', member.user.id));
    expect(unknownTeam.error).toEqual(TEAM_NOT_FOUND);
    const { error } = await admin.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', entryPath(organization.id, team.id, admin.user.id));
    expect(error).toEqual({ error: { code: 404, message: 'Team member not found' } });
    expect(await teamRoles(t, team)).toEqual({ [member.user.id]: 'member' });
  });

  it('403 for a plain team member; the owner removes members', async () => {
    const t = server();
    const { organization, team, member } = await world(t);
    const owner = await createMember(t, organization, 'read');
    await addTeamMember(t, organization, team, member);
    await addTeamMember(t, organization, team, owner, 'owner');
    const refused = await member.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', entryPath(organization.id, team.id, owner.user.id));
    expect(refused.response.status).toBe(403);
    expect(refused.error).toEqual(NOT_TEAM_OWNER);
    expect(await teamRoles(t, team)).toEqual({ [member.user.id]: 'member', [owner.user.id]: 'owner' });
    const { response } = await owner.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', entryPath(organization.id, team.id, member.user.id));
    expect(response.status).toBe(204);
    expect(await teamRoles(t, team)).toEqual({ [owner.user.id]: 'owner' });
  });
});
