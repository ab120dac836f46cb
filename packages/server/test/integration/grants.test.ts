// Grants on spaces and collections through the API: the same operations for both kinds of item, and
// their effect on the effective role (docs/design/access-model.md), transfer and deletion.
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import {
  createCollection,
  createMember,
  createOrganizationWithAdmin,
  createSpace,
  createTeam,
  createUser,
  type TestUser,
} from '../support/factories.js';
import { expectedUser } from '../support/people.js';
import { expectRefusal } from '../support/refusals.js';

const server = useTestServer();

type Kind = 'space' | 'collection';

/** The six grant operations of one kind of item, called through the SDK. */
function api(kind: Kind) {
  const base = kind === 'space' ? '/v1/spaces/{spaceId}' : '/v1/collections/{collectionId}';
  const key = kind === 'space' ? 'spaceId' : 'collectionId';
  const path = (id: string, extra: Record<string, string> = {}) => ({ params: { path: { [key]: id, ...extra } as never } });
  return {
    list: (who: TestUser | undefined, id: string, query: { limit?: number; page?: string } = {}, t = server()) =>
      (who?.client ?? t.client()).GET(`${base}/permissions` as '/v1/spaces/{spaceId}/permissions', { params: { path: { [key]: id } as never, query } }),
    add: (who: TestUser | undefined, id: string, body: Record<string, unknown>, t = server()) =>
      (who?.client ?? t.client()).POST(`${base}/permissions` as '/v1/spaces/{spaceId}/permissions', { ...path(id), body: body as never }),
    change: (who: TestUser | undefined, id: string, principal: 'users' | 'teams', principalId: string, body: Record<string, unknown>, t = server()) =>
      principal === 'users'
        ? (who?.client ?? t.client()).PATCH(`${base}/permissions/users/{userId}` as '/v1/spaces/{spaceId}/permissions/users/{userId}', {
            ...path(id, { userId: principalId }),
            body: body as never,
          })
        : (who?.client ?? t.client()).PATCH(`${base}/permissions/teams/{teamId}` as '/v1/spaces/{spaceId}/permissions/teams/{teamId}', {
            ...path(id, { teamId: principalId }),
            body: body as never,
          }),
    revoke: (who: TestUser | undefined, id: string, principal: 'users' | 'teams', principalId: string, t = server()) =>
      principal === 'users'
        ? (who?.client ?? t.client()).DELETE(`${base}/permissions/users/{userId}` as '/v1/spaces/{spaceId}/permissions/users/{userId}', path(id, { userId: principalId }))
        : (who?.client ?? t.client()).DELETE(`${base}/permissions/teams/{teamId}` as '/v1/spaces/{spaceId}/permissions/teams/{teamId}', path(id, { teamId: principalId })),
  };
}

async function itemOf(t: TestServer, kind: Kind, creator: TestUser, organization: { id: string }) {
  return kind === 'space' ? createSpace(t, creator, organization, { defaultLevel: null }) : createCollection(t, creator, organization, { defaultLevel: null });
}

async function world(t: TestServer, kind: Kind) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const item = await itemOf(t, kind, admin, organization);
  const member = await createMember(t, organization, 'read');
  const team = await createTeam(t, organization, [member], 'Writers');
  return { admin, organization, item, member, team };
}

function teamBody(id: string, overrides: Record<string, unknown> = {}) {
  return { object: 'team', id, title: 'Writers', members: 1, spaces: 0, createdAt: expect.any(String), permissions: { view: true, admin: true }, ...overrides };
}

describe.each(['space', 'collection'] as const)('grants on a %s', (kind) => {
  const grants = api(kind);

  describe('list', () => {
    it('400 for an invalid limit', async () => {
      const { admin, item } = await world(server(), kind);
      const { error } = await grants.list(admin, item.id, { limit: 1001 });
      expect(error?.error.issues?.[0]?.path).toBe('/query/limit');
    });

    it('404 for an unknown item, with the error body', async () => {
      const t = server();
      const { admin } = await world(t, kind);
      expectRefusal(await grants.list(admin, 'unknownItem000000000'), 404, kind === 'space' ? 'Space not found' : 'Collection not found');
    });

    it('lists user and team grants, newest first, in pages', async () => {
      const t = server();
      const { admin, item, member, team } = await world(t, kind);
      await grants.add(admin, item.id, { user: member.user.id, role: 'edit' });
      await grants.add(admin, item.id, { team: team.id, role: 'comment' });
      const table = kind === 'space' ? 'spaceGrants' : 'collectionGrants';
      for (const [principalId, at] of [[admin.user.id, '01'], [member.user.id, '02'], [team.id, '03']] as const) {
        await t.db.updateTable(table).set({ grantedAt: `2026-01-${at}T00:00:00.000Z` } as never).where('principalId', '=', principalId).execute();
      }
      const { data, response } = await grants.list(admin, item.id);
      expect(response.status).toBe(200);
      expect(data).toEqual({
        count: 3,
        items: [
          { object: 'grant', principal: { type: 'team', team: teamBody(team.id, { spaces: kind === 'space' ? 1 : 0 }) }, role: 'comment', grantedAt: '2026-01-03T00:00:00.000Z' },
          { object: 'grant', principal: { type: 'user', user: expectedUser(member) }, role: 'edit', grantedAt: '2026-01-02T00:00:00.000Z' },
          { object: 'grant', principal: { type: 'user', user: expectedUser(admin) }, role: 'admin', grantedAt: '2026-01-01T00:00:00.000Z' },
        ],
      });
      const first = await grants.list(admin, item.id, { limit: 2 });
      const rest = await grants.list(admin, item.id, { limit: 2, page: first.data!.next!.page });
      expect(rest.data?.items.map((g) => g.role)).toEqual(['admin']);
      expect(rest.data?.next).toBeUndefined();
    });
  });

  describe('add', () => {
    it('400 for both or neither principal, an unknown role, and principals outside the organization', async () => {
      const t = server();
      const { admin, item, member, team } = await world(t, kind);
      for (const body of [{ user: member.user.id, team: team.id, role: 'read' }, { role: 'read' }, { user: member.user.id, role: 'owner' }, { user: member.user.id }]) {
        const { error, response } = await grants.add(admin, item.id, body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(error?.error.issues?.[0]?.path).toMatch(/^\/body/);
      }
      const other = await createOrganizationWithAdmin(t);
      const foreignTeam = await createTeam(t, other.organization);
      const outsider = await createUser(t);
      expect((await grants.add(admin, item.id, { user: outsider.user.id, role: 'read' })).error?.error.issues).toEqual([
        { path: '/body/user', message: 'is not a member of this organization' },
      ]);
      expect((await grants.add(admin, item.id, { team: foreignTeam.id, role: 'read' })).error?.error.issues).toEqual([
        { path: '/body/team', message: 'is not a team of this organization' },
      ]);
      expect((await grants.list(admin, item.id)).data?.count).toBe(1);
    });

    it('404 for an unknown item, and nothing is granted', async () => {
      const t = server();
      const { admin, member } = await world(t, kind);
      expectRefusal(await grants.add(admin, 'unknownItem000000000', { user: member.user.id, role: 'read' }), 404, kind === 'space' ? 'Space not found' : 'Collection not found');
      const table = kind === 'space' ? 'spaceGrants' : 'collectionGrants';
      expect(await t.db.selectFrom(table).select('principalId').where('principalId', '=', member.user.id).execute()).toEqual([]);
    });

    it('grants a user (guests included) or a team (201); a second grant to the same principal is a 409', async () => {
      const t = server();
      const { admin, organization, item, team } = await world(t, kind);
      const guest = await createMember(t, organization, null);
      const added = await grants.add(admin, item.id, { user: guest.user.id, role: 'review' });
      expect(added.response.status).toBe(201);
      expect(added.data).toEqual({ object: 'grant', principal: { type: 'user', user: expectedUser(guest) }, role: 'review', grantedAt: expect.any(String) });
      const teamGrant = await grants.add(admin, item.id, { team: team.id, role: 'read' });
      expect(teamGrant.data).toEqual({
        object: 'grant',
        principal: { type: 'team', team: teamBody(team.id, { spaces: kind === 'space' ? 1 : 0 }) },
        role: 'read',
        grantedAt: expect.any(String),
      });
      const again = await grants.add(admin, item.id, { user: guest.user.id, role: 'read' });
      expect(again.response.status).toBe(409);
      const { data } = await grants.list(admin, item.id);
      expect(data?.items.find((g) => g.principal.type === 'user' && g.principal.user.id === guest.user.id)).toEqual(added.data);
    });
  });

  describe('change and revoke', () => {
    it('400 for a malformed principal id and an unknown role', async () => {
      const { admin, item, member } = await world(server(), kind);
      expect((await grants.change(admin, item.id, 'users', 'bad id', { role: 'read' })).error?.error.issues?.[0]?.path).toBe('/path/userId');
      expect((await grants.revoke(admin, item.id, 'teams', 'bad id')).error?.error.issues?.[0]?.path).toBe('/path/teamId');
      expect((await grants.change(admin, item.id, 'users', member.user.id, { role: 'boss' })).error?.error.issues?.[0]?.path).toBe('/body/role');
    });

    it('404 for an outsider, and for a principal without a grant here', async () => {
      const t = server();
      const { admin, item, member, team } = await world(t, kind);
      const outsider = await createUser(t);
      expect((await grants.change(outsider, item.id, 'users', admin.user.id, { role: 'read' })).response.status).toBe(404);
      expect((await grants.revoke(outsider, item.id, 'users', admin.user.id)).response.status).toBe(404);
      expect((await grants.change(admin, item.id, 'users', member.user.id, { role: 'read' })).error).toEqual({ error: { code: 404, message: 'Grant not found' } });
      expect((await grants.change(admin, item.id, 'teams', team.id, { role: 'read' })).response.status).toBe(404);
      expect((await grants.revoke(admin, item.id, 'users', member.user.id)).response.status).toBe(404);
      expect((await grants.revoke(admin, item.id, 'teams', team.id)).response.status).toBe(404);
    });

    it('changes and revokes user and team grants (205), read back', async () => {
      const t = server();
      const { admin, item, member, team } = await world(t, kind);
      await grants.add(admin, item.id, { user: member.user.id, role: 'read' });
      await grants.add(admin, item.id, { team: team.id, role: 'read' });
      const changedUser = await grants.change(admin, item.id, 'users', member.user.id, { role: 'create' });
      expect(changedUser.response.status).toBe(200);
      expect(changedUser.data).toMatchObject({ principal: { type: 'user', user: { id: member.user.id } }, role: 'create' });
      const changedTeam = await grants.change(admin, item.id, 'teams', team.id, { role: 'edit' });
      expect(changedTeam.data).toMatchObject({ principal: { type: 'team', team: { id: team.id } }, role: 'edit' });
      expect((await grants.list(admin, item.id)).data?.items.map((g) => g.role).sort()).toEqual(['admin', 'create', 'edit']);

      expect((await grants.revoke(admin, item.id, 'users', member.user.id)).response.status).toBe(205);
      expect((await grants.revoke(admin, item.id, 'teams', team.id)).response.status).toBe(205);
      expect((await grants.list(admin, item.id)).data?.items.map((g) => g.principal.type === 'user' && g.principal.user.id)).toEqual([admin.user.id]);
    });
  });
});

describe('grants made through the API set the effective role', () => {
  const spaceGrants = api('space');
  const collectionGrants = api('collection');
  const permissionsOn = async (who: TestUser, spaceId: string) => {
    const { data, response } = await who.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId } } });
    return response.status === 404 ? null : data!.permissions;
  };

  it('direct, team and collection grants raise the role; revoking takes it away', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization, { defaultLevel: null });
    const space = await createSpace(t, admin, organization, { parent: collection, visibility: 'private', defaultLevel: null });
    const member = await createMember(t, organization, 'read');
    const team = await createTeam(t, organization, [member]);
    expect(await permissionsOn(member, space.id)).toBeNull();

    await collectionGrants.add(admin, collection.id, { user: member.user.id, role: 'comment' });
    expect(await permissionsOn(member, space.id)).toMatchObject({ view: true, comment: true, edit: false });
    await spaceGrants.add(admin, space.id, { team: team.id, role: 'review' });
    expect(await permissionsOn(member, space.id)).toMatchObject({ review: true, admin: false });
    await spaceGrants.add(admin, space.id, { user: member.user.id, role: 'admin' });
    expect(await permissionsOn(member, space.id)).toMatchObject({ admin: true });
    // The member, now admin on the space, may manage its grants.
    expect((await spaceGrants.list(member, space.id)).response.status).toBe(200);

    await spaceGrants.revoke(admin, space.id, 'users', member.user.id);
    await spaceGrants.revoke(admin, space.id, 'teams', team.id);
    expect(await permissionsOn(member, space.id)).toMatchObject({ comment: true, review: false });
    await collectionGrants.revoke(admin, collection.id, 'users', member.user.id);
    expect(await permissionsOn(member, space.id)).toBeNull();
  });

  it('a guest sees only what was granted to them', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const [granted, other] = [await createSpace(t, admin, organization), await createSpace(t, admin, organization)];
    const guest = await createMember(t, organization, null);
    await spaceGrants.add(admin, granted.id, { user: guest.user.id, role: 'edit' });
    expect(await permissionsOn(guest, granted.id)).toMatchObject({ edit: true, admin: false });
    expect(await permissionsOn(guest, other.id)).toBeNull();
    const { data } = await guest.client.GET('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId: organization.id } } });
    expect(data?.items.map((s) => s.id)).toEqual([granted.id]);
  });

  it('a transfer carries user grants of members of the target organization and drops team grants', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const target = await createOrganizationWithAdmin(t);
    await t.db.insertInto('organizationMembers').values({ organizationId: target.organization.id, userId: admin.user.id, role: 'admin' }).execute();
    const [both, onlyHere] = [await createMember(t, organization, 'read'), await createMember(t, organization, 'read')];
    await t.db.insertInto('organizationMembers').values({ organizationId: target.organization.id, userId: both.user.id, role: 'read' }).execute();
    const team = await createTeam(t, organization, [both]);
    const space = await createSpace(t, admin, organization);
    await spaceGrants.add(admin, space.id, { user: both.user.id, role: 'edit' });
    await spaceGrants.add(admin, space.id, { user: onlyHere.user.id, role: 'edit' });
    await spaceGrants.add(admin, space.id, { team: team.id, role: 'edit' });

    const moved = await admin.client.POST('/v1/spaces/{spaceId}/transfer', { params: { path: { spaceId: space.id } }, body: { organization: target.organization.id } });
    expect(moved.response.status).toBe(200);
    const { data } = await spaceGrants.list(admin, space.id);
    expect(data?.items.map((g) => (g.principal.type === 'user' ? g.principal.user.id : g.principal.team.id)).sort()).toEqual([admin.user.id, both.user.id].sort());
  });

  it('deleting a collection removes it with its grants', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization);
    const member = await createMember(t, organization, 'read');
    await collectionGrants.add(admin, collection.id, { user: member.user.id, role: 'edit' });
    expect((await admin.client.DELETE('/v1/collections/{collectionId}', { params: { path: { collectionId: collection.id } } })).response.status).toBe(205);
    expect((await collectionGrants.list(admin, collection.id)).response.status).toBe(404);
    expect(await t.db.selectFrom('collectionGrants').select('role').where('collectionId', '=', collection.id).execute()).toEqual([]);
  });
});
