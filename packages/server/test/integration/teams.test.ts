// Teams: list (owner and title filters), create, read, rename, delete (with its grants).
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { addTeamMember, createMember, createOrganizationWithAdmin, createSpace, createTeam, createUser, grant } from '../support/factories.js';

const server = useTestServer();

const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const teamPath = (organizationId: string, teamId: string) => ({ params: { path: { organizationId, teamId } } });
const NEEDS_ADMIN = { error: { code: 403, message: 'This needs the organization role "admin"' } };

function expectedTeam(id: string, title: string, overrides: Record<string, unknown> = {}) {
  return { object: 'team', id, title, members: 0, spaces: 0, createdAt: expect.any(String), permissions: { view: true, admin: true }, ...overrides };
}

describe('GET /v1/orgs/{organizationId}/teams', () => {
  it('400 for invalid filters', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    for (const [name, value] of [['owner', 'bad id'], ['title', ''], ['title', 'x'.repeat(65)]]) {
      const { error, response } = await admin.client.GET('/v1/orgs/{organizationId}/teams', { params: { path: { organizationId: organization.id }, query: { [name!]: value } } });
      expect(response.status).toBe(400);
      expect(error?.error.issues?.map((issue) => issue.path)).toEqual([`/query/${name}`]);
    }
  });

  it('lists teams newest first with exact counters and the caller’s permissions, in pages', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const [owner, plain] = [await createMember(t, organization, 'read'), await createMember(t, organization, 'read')];
    const older = await createTeam(t, organization, [owner, plain], 'Older');
    const newer = await createTeam(t, organization, [], 'Newer');
    await addTeamMember(t, organization, older, owner, 'owner');
    const [s1, s2, gone] = [await createSpace(t, admin, organization), await createSpace(t, admin, organization), await createSpace(t, admin, organization)];
    for (const space of [s1, s2, gone]) await grant(t, { kind: 'space', item: space }, { team: older }, 'read');
    await t.db.updateTable('spaces').set({ deletedAt: new Date() }).where('id', '=', gone.id).execute();
    await t.db.updateTable('teams').set({ createdAt: '2026-01-01T00:00:00.000Z' } as never).where('id', '=', older.id).execute();

    const { data } = await plain.client.GET('/v1/orgs/{organizationId}/teams', orgPath(organization.id));
    expect(data).toEqual({
      count: 2,
      items: [
        expectedTeam(newer.id, 'Newer', { permissions: { view: true, admin: false } }),
        expectedTeam(older.id, 'Older', { members: 2, spaces: 2, createdAt: '2026-01-01T00:00:00.000Z', permissions: { view: true, admin: false } }),
      ],
    });
    const asOwner = await owner.client.GET('/v1/orgs/{organizationId}/teams', orgPath(organization.id));
    expect(asOwner.data?.items.map((team) => team.permissions.admin)).toEqual([false, true]);
    const asAdmin = await admin.client.GET('/v1/orgs/{organizationId}/teams', { params: { path: { organizationId: organization.id }, query: { limit: 1 } } });
    expect(asAdmin.data?.items).toEqual([expectedTeam(newer.id, 'Newer')]);
    const second = await admin.client.GET('/v1/orgs/{organizationId}/teams', { params: { path: { organizationId: organization.id }, query: { limit: 1, page: asAdmin.data!.next!.page } } });
    expect(second.data?.items.map((team) => team.id)).toEqual([older.id]);
    expect(second.data?.next).toBeUndefined();
  });

  it('filters by title (contains, case-insensitive) and by who can manage them', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const owner = await createMember(t, organization, 'edit');
    const docs = await createTeam(t, organization, [], 'Docs writers');
    const api = await createTeam(t, organization, [], 'API reviewers');
    await addTeamMember(t, organization, docs, owner, 'owner');
    await addTeamMember(t, organization, api, owner, 'member');
    const ids = async (query: Record<string, string>) =>
      (await owner.client.GET('/v1/orgs/{organizationId}/teams', { params: { path: { organizationId: organization.id }, query } })).data?.items.map((team) => team.id);
    expect(await ids({ title: 'WRITER' })).toEqual([docs.id]);
    expect(await ids({ owner: owner.user.id })).toEqual([docs.id]);
    expect((await ids({ owner: admin.user.id }))?.sort()).toEqual([docs.id, api.id].sort());
    expect(await ids({ owner: (await createUser(t)).user.id })).toEqual([]);
    expect(await ids({ owner: admin.user.id, title: 'api' })).toEqual([api.id]);
  });
});

describe('PUT /v1/orgs/{organizationId}/teams', () => {
  it('400 for a missing or too long title, and for members who are not members of the organization', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    for (const body of [{}, { title: '' }, { title: 'x'.repeat(65) }]) {
      const { error, response } = await admin.client.PUT('/v1/orgs/{organizationId}/teams', { ...orgPath(organization.id), body: body as never });
      expect(response.status).toBe(400);
      expect(error?.error.issues?.[0]?.path).toMatch(/^\/body/);
    }
    const outsider = await createUser(t);
    const { error, response } = await admin.client.PUT('/v1/orgs/{organizationId}/teams', {
      ...orgPath(organization.id),
      body: { title: 'Team', members: [admin.user.id, outsider.user.id] },
    });
    expect(response.status).toBe(400);
    expect(error?.error.issues).toEqual([{ path: '/body/members/1', message: 'is not a member of this organization' }]);
    expect(await t.db.selectFrom('teams').select('id').where('organizationId', '=', organization.id).execute()).toEqual([]);
  });

  // Each role's refusal is the matrix's; here, what it leaves.
  it('403 below admin creates no team', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const caller = await createMember(t, organization, 'create');
    const { error, response } = await caller.client.PUT('/v1/orgs/{organizationId}/teams', { ...orgPath(organization.id), body: { title: 'T' } });
    expect(response.status).toBe(403);
    expect(error).toEqual(NEEDS_ADMIN);
    expect(await t.db.selectFrom('teams').select('id').where('organizationId', '=', organization.id).execute()).toEqual([]);
  });

  it('creates the team with its members (guests included), 201', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const [reader, guest] = [await createMember(t, organization, 'read'), await createMember(t, organization, null)];
    const { data, response } = await admin.client.PUT('/v1/orgs/{organizationId}/teams', {
      ...orgPath(organization.id),
      body: { title: 'Writers', members: [reader.user.id, guest.user.id] },
    });
    expect(response.status).toBe(201);
    expect(data).toEqual(expectedTeam(data!.id, 'Writers', { id: expect.stringMatching(/^[A-Za-z0-9]{20}$/), members: 2 }));
    expect((await admin.client.GET('/v1/orgs/{organizationId}/teams/{teamId}', teamPath(organization.id, data!.id))).data).toEqual(data);
    const roles = await t.db.selectFrom('teamMembers').select(['userId', 'role']).where('teamId', '=', data!.id).orderBy('userId').execute();
    expect(roles).toEqual([{ userId: reader.user.id, role: 'member' }, { userId: guest.user.id, role: 'member' }].sort((a, b) => (a.userId < b.userId ? -1 : 1)));
  });
});

describe('GET /v1/orgs/{organizationId}/teams/{teamId}', () => {
  it('400 for a malformed team id', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const { error } = await admin.client.GET('/v1/orgs/{organizationId}/teams/{teamId}', teamPath(organization.id, 'bad id'));
    expect(error?.error.issues?.[0]?.path).toBe('/path/teamId');
  });

  // A non-member and a guest are the sweep's and the matrix's cases.
  it('404 for an unknown team and another organization’s team', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const other = await createOrganizationWithAdmin(t);
    const foreign = await createTeam(t, other.organization);
    for (const teamId of [foreign.id, 'unknownTeam000000000']) {
      const { error } = await admin.client.GET('/v1/orgs/{organizationId}/teams/{teamId}', teamPath(organization.id, teamId));
      expect(error).toEqual({ error: { code: 404, message: 'Team not found' } });
    }
  });

  it('reads the team as any non-guest member', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const reader = await createMember(t, organization, 'read');
    const team = await createTeam(t, organization, [reader], 'Readers');
    const { data, response } = await reader.client.GET('/v1/orgs/{organizationId}/teams/{teamId}', teamPath(organization.id, team.id));
    expect(response.status).toBe(200);
    expect(data).toEqual(expectedTeam(team.id, 'Readers', { members: 1, permissions: { view: true, admin: false } }));
  });
});

describe('PATCH /v1/orgs/{organizationId}/teams/{teamId}', () => {
  it('400 for a missing or empty title', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const team = await createTeam(t, organization, [], 'Kept');
    for (const body of [{}, { title: '' }, { title: 'T', extra: 1 }]) {
      expect((await admin.client.PATCH('/v1/orgs/{organizationId}/teams/{teamId}', { ...teamPath(organization.id, team.id), body: body as never })).response.status).toBe(400);
    }
    expect((await admin.client.GET('/v1/orgs/{organizationId}/teams/{teamId}', teamPath(organization.id, team.id))).data?.title).toBe('Kept');
  });

  it('404 for an unknown team', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const { error, response } = await admin.client.PATCH('/v1/orgs/{organizationId}/teams/{teamId}', { ...teamPath(organization.id, 'unknownTeam000000000'), body: { title: 'T' } });
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: { code: 404, message: 'Team not found' } });
  });

  // Owning the team is no licence to rename it (the matrix's callers own no team).
  it('403 for a team owner below admin; the title stays', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const owner = await createMember(t, organization, 'create');
    const team = await createTeam(t, organization, [], 'Writers');
    await addTeamMember(t, organization, team, owner, 'owner');
    const { error, response } = await owner.client.PATCH('/v1/orgs/{organizationId}/teams/{teamId}', { ...teamPath(organization.id, team.id), body: { title: 'T' } });
    expect(response.status).toBe(403);
    expect(error).toEqual(NEEDS_ADMIN);
    expect((await t.db.selectFrom('teams').select('title').where('id', '=', team.id).executeTakeFirst())?.title).toBe('Writers');
  });

  it('renames the team', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const team = await createTeam(t, organization, [], 'Before');
    const { data, response } = await admin.client.PATCH('/v1/orgs/{organizationId}/teams/{teamId}', { ...teamPath(organization.id, team.id), body: { title: 'After' } });
    expect(response.status).toBe(200);
    expect(data).toEqual(expectedTeam(team.id, 'After'));
    expect((await admin.client.GET('/v1/orgs/{organizationId}/teams/{teamId}', teamPath(organization.id, team.id))).data).toEqual(data);
  });
});

describe('DELETE /v1/orgs/{organizationId}/teams/{teamId}', () => {
  it('400 for a malformed id', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}', teamPath(organization.id, 'bad id'))).response.status).toBe(400);
  });

  it('404 for an unknown team', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const { error, response } = await admin.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}', teamPath(organization.id, 'unknownTeam000000000'));
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: { code: 404, message: 'Team not found' } });
  });

  it('403 for a team owner below admin; the team stays', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const owner = await createMember(t, organization, 'create');
    const team = await createTeam(t, organization, [owner]);
    await addTeamMember(t, organization, team, owner, 'owner');
    const { error, response } = await owner.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}', teamPath(organization.id, team.id));
    expect(response.status).toBe(403);
    expect(error).toEqual(NEEDS_ADMIN);
    expect(await t.db.selectFrom('teams').select('id').where('id', '=', team.id).executeTakeFirst()).toEqual({ id: team.id });
  });

  it('deletes the team with its memberships and grants; its members lose what came through it', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const member = await createMember(t, organization, 'read');
    const team = await createTeam(t, organization, [member]);
    const keep = await createTeam(t, organization, [member]);
    const space = await createSpace(t, admin, organization, { defaultLevel: null });
    await grant(t, { kind: 'space', item: space }, { team }, 'edit');
    await grant(t, { kind: 'space', item: space }, { team: keep }, 'read');
    expect((await member.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).data?.permissions.edit).toBe(true);

    const { response } = await admin.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}', teamPath(organization.id, team.id));
    expect(response.status).toBe(204);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/teams/{teamId}', teamPath(organization.id, team.id))).response.status).toBe(404);
    expect(await t.db.selectFrom('spaceGrants').select('principalId').where('spaceId', '=', space.id).where('principalKind', '=', 'team').execute()).toEqual([
      { principalId: keep.id },
    ]);
    expect(await t.db.selectFrom('teamMembers').select('teamId').where('userId', '=', member.user.id).execute()).toEqual([{ teamId: keep.id }]);
    const { data } = await member.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    expect(data?.permissions).toMatchObject({ view: true, edit: false });
  });
});
