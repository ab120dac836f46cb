// The access model (docs/design/access-model.md): every source of an effective role, checked through the API on a
// single read and on the list reads (which compute roles in bulk, with another query), and every
// `permissions` flag for each role.
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/db/schema.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import {
  addMember,
  createCollection,
  createMember,
  createOrganizationWithAdmin,
  createSpace,
  createTeam,
  createUser,
  grant,
  type TestUser,
} from '../support/factories.js';

const server = useTestServer();

const spaceFlags: Record<Role, Record<string, boolean>> = {
  read: { view: true, access: true, comment: false, edit: false, triggerGitSync: false, review: false, merge: false, admin: false, viewInviteLinks: false },
  comment: { view: true, access: true, comment: true, edit: false, triggerGitSync: false, review: false, merge: false, admin: false, viewInviteLinks: false },
  edit: { view: true, access: true, comment: true, edit: true, triggerGitSync: true, review: false, merge: false, admin: false, viewInviteLinks: false },
  review: { view: true, access: true, comment: true, edit: true, triggerGitSync: true, review: true, merge: true, admin: false, viewInviteLinks: false },
  create: { view: true, access: true, comment: true, edit: true, triggerGitSync: true, review: true, merge: true, admin: false, viewInviteLinks: false },
  admin: { view: true, access: true, comment: true, edit: true, triggerGitSync: true, review: true, merge: true, admin: true, viewInviteLinks: true },
};
const collectionFlags: Record<Role, Record<string, boolean>> = {
  read: { view: true, create: false, admin: false, viewInviteLinks: false },
  comment: { view: true, create: false, admin: false, viewInviteLinks: false },
  edit: { view: true, create: false, admin: false, viewInviteLinks: false },
  review: { view: true, create: false, admin: false, viewInviteLinks: false },
  create: { view: true, create: true, admin: false, viewInviteLinks: false },
  admin: { view: true, create: true, admin: true, viewInviteLinks: true },
};
const ROLES = Object.keys(spaceFlags) as Role[];

/**
 * Asserts the caller's permissions on a space are those of `role` (null: the space reads 404), on the
 * single read and on both lists (which compute roles in bulk with another query).
 */
async function expectSpaceRole(t: TestServer, who: TestUser, space: { id: string; organizationId: string; parentCollectionId: string | null }, role: Role | null) {
  const single = await who.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
  if (role === null) expect(single.response.status).toBe(404);
  else expect(single.data?.permissions).toEqual(spaceFlags[role]);

  const list = await who.client.GET('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId: space.organizationId }, query: { limit: 1000 } } });
  const listed = list.data?.items.find((item) => item.id === space.id);
  expect(listed?.permissions ?? null, 'organization list agrees with the single read').toEqual(single.data?.permissions ?? null);
  if (space.parentCollectionId) {
    const inCollection = await who.client.GET('/v1/collections/{collectionId}/spaces', { params: { path: { collectionId: space.parentCollectionId }, query: { limit: 1000 } } });
    const item = inCollection.data?.items.find((entry) => entry.id === space.id);
    if (inCollection.response.status === 200) expect(item?.permissions ?? null, 'collection list agrees').toEqual(single.data?.permissions ?? null);
  }
}

async function collectionRole(t: TestServer, who: TestUser, collection: { id: string; organizationId: string }): Promise<Role | null> {
  const single = await who.client.GET('/v1/collections/{collectionId}', { params: { path: { collectionId: collection.id } } });
  const list = await who.client.GET('/v1/orgs/{organizationId}/collections', { params: { path: { organizationId: collection.organizationId }, query: { limit: 1000 } } });
  const listed = list.data?.items.find((item) => item.id === collection.id);
  expect(listed?.permissions ?? null, 'list agrees with the single read').toEqual(single.data?.permissions ?? null);
  if (single.response.status === 404) return null;
  const flags = single.data!.permissions;
  if (flags.admin) return 'admin';
  if (flags.create) return 'create';
  return 'read';
}

describe('permissions objects for each effective role', () => {
  it.each(ROLES)('%s: every space and collection flag', async (role) => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization, { defaultLevel: null });
    const space = await createSpace(t, admin, organization, { defaultLevel: null });
    const member = await createMember(t, organization, 'read');
    await grant(t, { kind: 'space', item: space }, { user: member }, role);
    await grant(t, { kind: 'collection', item: collection }, { user: member }, role);
    const { data: s } = await member.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    expect(s?.permissions).toEqual(spaceFlags[role]);
    const { data: c } = await member.client.GET('/v1/collections/{collectionId}', { params: { path: { collectionId: collection.id } } });
    expect(c?.permissions).toEqual(collectionFlags[role]);
  });
});

describe('effective role: default levels', () => {
  it.each(ROLES)('a top-level space inheriting gives each member their organization role (%s)', async (orgRole) => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const member = await createMember(t, organization, orgRole);
    await expectSpaceRole(t, member, space, orgRole);
  });

  it('a role as defaultLevel sets that level for every member, above or below their own role', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { defaultLevel: 'comment' });
    await expectSpaceRole(t, await createMember(t, organization, 'read'), space, 'comment');
    await expectSpaceRole(t, await createMember(t, organization, 'create'), space, 'comment');
  });

  it('defaultLevel null gives members nothing (404); admins keep admin', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { defaultLevel: null });
    await expectSpaceRole(t, await createMember(t, organization, 'create'), space, null);
    await expectSpaceRole(t, await createMember(t, organization, 'admin'), space, 'admin');
  });

  it('inherit walks up through nested collections to the first level that is not inherit', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const top = await createCollection(t, admin, organization, { defaultLevel: 'review' });
    const middle = await createCollection(t, admin, organization, { parent: top });
    const space = await createSpace(t, admin, organization, { parent: middle, visibility: 'private' });
    const reader = await createMember(t, organization, 'read');
    await expectSpaceRole(t, reader, space, 'review');
    expect(await collectionRole(t, reader, middle)).toBe('read'); // review shows as view without create
  });

  it('inherit at the top of the collections resolves to the member’s own role', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const top = await createCollection(t, admin, organization);
    const space = await createSpace(t, admin, organization, { parent: top, visibility: 'private' });
    await expectSpaceRole(t, await createMember(t, organization, 'edit'), space, 'edit');
  });

  it('a collection with defaultLevel null hides what inherits from it', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const closed = await createCollection(t, admin, organization, { defaultLevel: null });
    const space = await createSpace(t, admin, organization, { parent: closed, visibility: 'private' });
    const member = await createMember(t, organization, 'create');
    await expectSpaceRole(t, member, space, null);
    expect(await collectionRole(t, member, closed)).toBeNull();
  });

  it('an in-collection space takes the collection’s level instead of its own defaultLevel', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization, { defaultLevel: 'edit' });
    const space = await createSpace(t, admin, organization, { parent: collection, visibility: 'in-collection', defaultLevel: null });
    const twin = await createSpace(t, admin, organization, { parent: collection, visibility: 'private', defaultLevel: null });
    const member = await createMember(t, organization, 'read');
    await expectSpaceRole(t, member, space, 'edit');
    await expectSpaceRole(t, member, twin, null);
  });
});

describe('effective role: grants', () => {
  it('a direct grant raises a member above the default level, never lowers', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const member = await createMember(t, organization, 'edit');
    await grant(t, { kind: 'space', item: space }, { user: member }, 'review');
    await expectSpaceRole(t, member, space, 'review');
    await grant(t, { kind: 'space', item: space }, { user: member }, 'read');
    await expectSpaceRole(t, member, space, 'edit');
  });

  it('grants on a collection flow down to nested collections and their spaces', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const top = await createCollection(t, admin, organization, { defaultLevel: null });
    const nested = await createCollection(t, admin, organization, { parent: top, defaultLevel: null });
    const space = await createSpace(t, admin, organization, { parent: nested, visibility: 'private', defaultLevel: null });
    const member = await createMember(t, organization, 'read');
    await grant(t, { kind: 'collection', item: top }, { user: member }, 'create');
    expect(await collectionRole(t, member, nested)).toBe('create');
    await expectSpaceRole(t, member, space, 'create');
  });

  it('team grants count for the team’s members only', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { defaultLevel: null });
    const [inTeam, outside] = [await createMember(t, organization, 'read'), await createMember(t, organization, 'read')];
    const team = await createTeam(t, organization, [inTeam]);
    await grant(t, { kind: 'space', item: space }, { team }, 'comment');
    await expectSpaceRole(t, inTeam, space, 'comment');
    await expectSpaceRole(t, outside, space, null);
  });

  it('guests get only their grants', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization);
    const open = await createSpace(t, admin, organization);
    const granted = await createSpace(t, admin, organization, { parent: collection });
    const guest = await createMember(t, organization, null);
    await expectSpaceRole(t, guest, open, null);
    expect(await collectionRole(t, guest, collection)).toBeNull();
    await grant(t, { kind: 'collection', item: collection }, { user: guest }, 'comment');
    await expectSpaceRole(t, guest, granted, 'comment');
    expect(await collectionRole(t, guest, collection)).toBe('read');
  });

  it('the creator of a space or collection gets admin on it', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const creator = await createMember(t, organization, 'create');
    const { data: collection } = await creator.client.POST('/v1/orgs/{organizationId}/collections', { params: { path: { organizationId: organization.id } }, body: {} });
    const { data: space } = await creator.client.POST('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId: organization.id } }, body: {} });
    expect(collection?.permissions).toEqual(collectionFlags.admin);
    expect(space?.permissions).toEqual(spaceFlags.admin);
    const otherCreator = await createMember(t, organization, 'create');
    await expectSpaceRole(t, otherCreator, { ...space!, organizationId: organization.id, parentCollectionId: null }, 'create');
  });
});

describe('effective role: public and unlisted spaces, outsiders', () => {
  it('anyone authenticated reads public and unlisted spaces, and nothing else of the organization', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization);
    const publicSpace = await createSpace(t, admin, organization, { parent: collection, visibility: 'public' });
    const unlisted = await createSpace(t, admin, organization, { visibility: 'unlisted' });
    const privateSpace = await createSpace(t, admin, organization);
    const outsider = await createUser(t);
    for (const space of [publicSpace, unlisted]) {
      const { data } = await outsider.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
      expect(data?.permissions).toEqual(spaceFlags.read);
      expect(data?.urls.public).toBe(`http://app.test/public/s/${space.id}`);
    }
    expect((await outsider.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: privateSpace.id } } })).response.status).toBe(404);
    expect((await outsider.client.GET('/v1/collections/{collectionId}', { params: { path: { collectionId: collection.id } } })).response.status).toBe(404);
    expect((await outsider.client.GET('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId: organization.id } } })).response.status).toBe(404);
    // A guest sees the public space in lists too, with read.
    const guest = await createMember(t, organization, null);
    await expectSpaceRole(t, guest, publicSpace, 'read');
  });

  it('organization admins get admin everywhere', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const closed = await createCollection(t, admin, organization, { defaultLevel: null });
    const space = await createSpace(t, admin, organization, { parent: closed, visibility: 'private', defaultLevel: null });
    const otherAdmin = await createMember(t, organization, 'admin');
    await expectSpaceRole(t, otherAdmin, space, 'admin');
    expect(await collectionRole(t, otherAdmin, closed)).toBe('admin');
  });

  it('ids of another organization read as absent even for its members’ admins', async () => {
    const t = server();
    const first = await createOrganizationWithAdmin(t);
    const second = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, first.admin, first.organization);
    await addMember(t, second.organization, first.admin, 'read');
    await expectSpaceRole(t, second.admin, space, null);
  });
});
