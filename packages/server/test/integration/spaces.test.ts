import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import {
  addMember,
  createCollection,
  createMember,
  createOrganizationWithAdmin,
  createSpace,
  createUser,
  grant,
} from '../support/factories.js';

const server = useTestServer();
const spacePath = (spaceId: string) => ({ params: { path: { spaceId } } });
const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const NEEDS_ADMIN = { error: { code: 403, message: 'This needs the "admin" role on the space' } };

const adminPermissions = { view: true, access: true, admin: true, viewInviteLinks: true, edit: true, triggerGitSync: true, comment: true, merge: true, review: true };

async function deletedDaysAgo(t: TestServer, spaceId: string, days: number) {
  await sql`UPDATE spaces SET deleted_at = now() - make_interval(days => ${days}) WHERE id = ${spaceId}`.execute(t.db);
}

describe('POST /v1/orgs/{organizationId}/spaces', () => {
  it('400 for a title or emoji over 50 characters, naming the field', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const { error, response } = await admin.client.POST('/v1/orgs/{organizationId}/spaces', {
      ...orgPath(organization.id),
      body: { title: 'x'.repeat(51), emoji: 'y'.repeat(51) },
    });
    expect(response.status).toBe(400);
    expect(error?.error.issues).toEqual([
      { path: '/body/title', message: 'must NOT have more than 50 characters' },
      { path: '/body/emoji', message: 'must NOT have more than 50 characters' },
    ]);
  });

  it('400 for in-collection at the top level; nothing is created', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const { error, response } = await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { visibility: 'in-collection' } });
    expect(response.status).toBe(400);
    expect(error?.error.issues).toEqual([{ path: '/body/visibility', message: '"in-collection" is only for spaces inside a collection' }]);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/spaces', orgPath(organization.id))).data?.count).toBe(0);
  });

  // A non-member is the sweep's case; a parent in the body is not.
  it('404 for a parent collection of another organization; nothing is created', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const other = await createOrganizationWithAdmin(t);
    const foreign = await createCollection(t, other.admin, other.organization);
    const { error } = await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { parent: foreign.id } });
    expect(error).toEqual({ error: { code: 404, message: 'Collection not found' } });
    expect(await t.db.selectFrom('spaces').select('id').where('organizationId', '=', organization.id).execute()).toEqual([]);
  });

  // Below create at the top level is the matrix's case; the parent collection's own role is this rule's.
  it('403 below create on a parent collection, creating nothing; create there is enough', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization);
    const editor = await createMember(t, organization, 'edit');
    const refused = await editor.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { parent: collection.id } });
    expect(refused.error).toEqual({ error: { code: 403, message: 'This needs the "create" role on the target collection' } });
    expect(await t.db.selectFrom('spaces').select('id').where('organizationId', '=', organization.id).execute()).toEqual([]);
    await grant(t, { kind: 'collection', item: collection }, { user: editor }, 'create');
    expect((await editor.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { parent: collection.id } })).response.status).toBe(201);
  });

  it('creates a space with an empty first revision and admin for its creator', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const creator = await createMember(t, organization, 'create');
    const { data, response } = await creator.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: 'Handbook', emoji: '📘' } });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      object: 'space',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      title: 'Handbook',
      emoji: '📘',
      visibility: 'private',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      editMode: 'live',
      organization: organization.id,
      revision: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      urls: { location: `http://api.test/v1/spaces/${data!.id}`, app: `http://app.test/s/${data!.id}` },
      permissions: adminPermissions,
    });
    const revision = await t.db.selectFrom('revisions').selectAll().where('id', '=', data!.revision).executeTakeFirstOrThrow();
    expect(revision).toMatchObject({ spaceId: data!.id, type: 'edits', parentIds: [], organizationId: organization.id });
    expect((await creator.client.GET('/v1/spaces/{spaceId}', spacePath(data!.id))).data).toEqual(data);
  });

  it('defaults to Untitled and, inside a collection, to in-collection', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization);
    const { data } = await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { parent: collection.id } });
    expect(data).toMatchObject({ title: 'Untitled', emoji: '', visibility: 'in-collection', parent: collection.id });
  });
});

describe('GET /v1/spaces/{spaceId}', () => {
  it('400 for a malformed id or an unknown parameter', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    expect((await admin.client.GET('/v1/spaces/{spaceId}', spacePath('no spaces!'))).response.status).toBe(400);
    const { response } = await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id }, query: { expand: 'x' } as never } });
    expect(response.status).toBe(400);
  });

  // Another organization's space is the sweep's case.
  it('404 for a deleted space', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    await admin.client.DELETE('/v1/spaces/{spaceId}', spacePath(space.id));
    expect((await admin.client.GET('/v1/spaces/{spaceId}', spacePath(space.id))).error).toEqual({ error: { code: 404, message: 'Space not found' } });
  });

  it('reads the space, shareKey accepted', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { title: 'Docs' });
    const { data } = await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id }, query: { shareKey: 'abc' } } });
    expect(data).toMatchObject({ id: space.id, title: 'Docs', revision: space.headRevisionId, organization: organization.id });
  });
});

describe('PATCH /v1/spaces/{spaceId}', () => {
  it('400 for invalid values and for in-collection outside a collection; nothing changes', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { title: 'Before' });
    const invalid = await admin.client.PATCH('/v1/spaces/{spaceId}', { ...spacePath(space.id), body: { title: 'x'.repeat(51), editMode: 'frozen' as never } });
    expect(invalid.error?.error.issues?.map((i) => i.path)).toEqual(['/body/editMode', '/body/title']);
    const misplaced = await admin.client.PATCH('/v1/spaces/{spaceId}', { ...spacePath(space.id), body: { title: 'After', visibility: 'in-collection' } });
    expect(misplaced.response.status).toBe(400);
    expect((await admin.client.GET('/v1/spaces/{spaceId}', spacePath(space.id))).data?.title).toBe('Before');
  });

  // An outsider and each role are the sweep's and the matrix's cases; here, what a refusal leaves.
  it('403 below admin leaves the space as it was', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { title: 'Kept' });
    const creator = await createMember(t, organization, 'create');
    const { error } = await creator.client.PATCH('/v1/spaces/{spaceId}', { ...spacePath(space.id), body: { title: 'x' } });
    expect(error).toEqual(NEEDS_ADMIN);
    expect((await admin.client.GET('/v1/spaces/{spaceId}', spacePath(space.id))).data?.title).toBe('Kept');
  });

  it('updates every field it accepts', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const { data } = await admin.client.PATCH('/v1/spaces/{spaceId}', {
      ...spacePath(space.id),
      body: { title: 'Renamed', emoji: '🚀', editMode: 'locked', defaultLevel: null, visibility: 'unlisted' },
    });
    expect(data).toMatchObject({ title: 'Renamed', emoji: '🚀', editMode: 'locked', defaultLevel: null, visibility: 'unlisted' });
    expect(data?.urls.public).toBe(`http://app.test/public/s/${space.id}`);
    expect(Date.parse(data!.updatedAt)).toBeGreaterThanOrEqual(Date.parse(space.updatedAt.toISOString()));
    expect((await admin.client.GET('/v1/spaces/{spaceId}', spacePath(space.id))).data).toEqual(data);
  });
});

describe('DELETE /v1/spaces/{spaceId} and POST /v1/spaces/{spaceId}/restore', () => {
  it('400 for malformed ids', async () => {
    const alice = await createUser(server());
    expect((await alice.client.DELETE('/v1/spaces/{spaceId}', spacePath('a/b'))).response.status).toBe(400); // sent as a%2Fb
    expect((await alice.client.POST('/v1/spaces/{spaceId}/restore', spacePath('a b'))).response.status).toBe(400);
  });

  // An outsider and each role are the sweep's and the matrix's cases; here, what a refusal leaves.
  it('403 below admin neither deletes nor restores (both operations)', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const creator = await createMember(t, organization, 'create');
    const deletedAt = async () => (await t.db.selectFrom('spaces').select('deletedAt').where('id', '=', space.id).executeTakeFirstOrThrow()).deletedAt;
    expect((await creator.client.DELETE('/v1/spaces/{spaceId}', spacePath(space.id))).error).toEqual(NEEDS_ADMIN);
    expect(await deletedAt()).toBeNull();
    await admin.client.DELETE('/v1/spaces/{spaceId}', spacePath(space.id));
    expect((await creator.client.POST('/v1/spaces/{spaceId}/restore', spacePath(space.id))).error).toEqual(NEEDS_ADMIN);
    expect(await deletedAt()).not.toBeNull();
  });

  it('deletes (205, empty), hides everywhere, and restores within 7 days', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const deleted = await admin.client.DELETE('/v1/spaces/{spaceId}', spacePath(space.id));
    expect(deleted.response.status).toBe(205);
    expect(await deleted.response.text()).toBe('');
    expect((await admin.client.GET('/v1/orgs/{organizationId}/spaces', orgPath(organization.id))).data?.count).toBe(0);
    expect((await admin.client.DELETE('/v1/spaces/{spaceId}', spacePath(space.id))).response.status).toBe(404);

    await deletedDaysAgo(t, space.id, 6);
    const { data, response } = await admin.client.POST('/v1/spaces/{spaceId}/restore', spacePath(space.id));
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id: space.id, permissions: adminPermissions });
    expect(data?.deletedAt).toBeUndefined();
    expect((await admin.client.GET('/v1/spaces/{spaceId}', spacePath(space.id))).data?.id).toBe(space.id);
    // Restoring a live space is a conflict.
    expect((await admin.client.POST('/v1/spaces/{spaceId}/restore', spacePath(space.id))).response.status).toBe(409);
  });

  it('after 7 days the space is gone, purged or not', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    await admin.client.DELETE('/v1/spaces/{spaceId}', spacePath(space.id));
    await deletedDaysAgo(t, space.id, 8);
    const { error } = await admin.client.POST('/v1/spaces/{spaceId}/restore', spacePath(space.id));
    expect(error).toEqual({ error: { code: 404, message: 'Space not found' } });
  });
});

describe('POST /v1/spaces/{spaceId}/move', () => {
  const move = (t: TestServer, who: { client: ReturnType<TestServer['client']> }, spaceId: string, body: object) =>
    who.client.POST('/v1/spaces/{spaceId}/move', { ...spacePath(spaceId), body: body as never });

  it('400 for both before and after, a non-sibling reference, or the space itself', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization);
    const [a, b] = [await createSpace(t, admin, organization), await createSpace(t, admin, organization)];
    const inside = await createSpace(t, admin, organization, { parent: collection });
    const both = await move(t, admin, a.id, { position: { before: { type: 'space', space: b.id }, after: { type: 'space', space: b.id } } });
    expect(both.response.status).toBe(400);
    const notSibling = await move(t, admin, a.id, { position: { before: { type: 'space', space: inside.id } } });
    expect(notSibling.error?.error.issues).toEqual([{ path: '/body/position/before', message: 'must name a sibling in the target parent' }]);
    const itself = await move(t, admin, a.id, { position: { after: { type: 'space', space: a.id } } });
    expect(itself.response.status).toBe(400);
  });

  // An outsider is the sweep's case; a target collection in the body is not.
  it('404 for a target collection of another organization; the space stays', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const other = await createOrganizationWithAdmin(t);
    await addMember(t, other.organization, admin, 'admin');
    const space = await createSpace(t, admin, organization);
    const foreign = await createCollection(t, admin, other.organization);
    const { error } = await move(t, admin, space.id, { parent: foreign.id });
    expect(error).toEqual({ error: { code: 404, message: 'Collection not found' } });
    expect(await t.db.selectFrom('spaces').select('parentCollectionId').where('id', '=', space.id).executeTakeFirst()).toEqual({ parentCollectionId: null });
  });

  // Below admin on the space is the matrix's case; the target's own role is this rule's.
  it('403 below create on the target; the space stays', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const target = await createCollection(t, admin, organization, { defaultLevel: 'read' });
    const member = await createMember(t, organization, 'edit');
    const space = await createSpace(t, member, organization); // member is the space's admin (creator)
    expect((await move(t, member, space.id, { parent: target.id })).error).toEqual({ error: { code: 403, message: 'This needs the "create" role on the target collection' } });
    expect(await t.db.selectFrom('spaces').select('parentCollectionId').where('id', '=', space.id).executeTakeFirst()).toEqual({ parentCollectionId: null });
  });

  it('moves between parents and among siblings, in-collection becoming private at the top level', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization);
    const [a, b, c] = [await createSpace(t, admin, organization, { title: 'A' }), await createSpace(t, admin, organization, { title: 'B' }), await createSpace(t, admin, organization, { title: 'C' })];
    const titles = async () => (await admin.client.GET('/v1/orgs/{organizationId}/spaces', orgPath(organization.id))).data?.items.map((s) => s.title);
    expect(await titles()).toEqual(['A', 'B', 'C']);
    await move(t, admin, c.id, { position: { before: { type: 'space', space: a.id } } });
    expect(await titles()).toEqual(['C', 'A', 'B']);
    await move(t, admin, c.id, { position: { after: { type: 'space', space: a.id } } });
    expect(await titles()).toEqual(['A', 'C', 'B']);
    // Collections and spaces share one order under a parent.
    const placed = await move(t, admin, b.id, { position: { before: { type: 'collection', collection: collection.id } } });
    expect(placed.response.status).toBe(200);

    const into = await move(t, admin, a.id, { parent: collection.id });
    expect(into.data).toMatchObject({ parent: collection.id, visibility: 'private' });
    await admin.client.PATCH('/v1/spaces/{spaceId}', { ...spacePath(a.id), body: { visibility: 'in-collection' } });
    const out = await move(t, admin, a.id, { parent: null });
    expect(out.data?.parent).toBeUndefined();
    expect(out.data?.visibility).toBe('private');
    expect((await admin.client.GET('/v1/spaces/{spaceId}', spacePath(a.id))).data).toEqual(out.data);
  });
});

describe('POST /v1/spaces/{spaceId}/transfer', () => {
  const transfer = (who: { client: ReturnType<TestServer['client']> }, spaceId: string, body: { organization: string; collection?: string }) =>
    who.client.POST('/v1/spaces/{spaceId}/transfer', { ...spacePath(spaceId), body });

  it('400 without a target organization', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const { error } = await admin.client.POST('/v1/spaces/{spaceId}/transfer', { ...spacePath(space.id), body: {} as never });
    expect(error?.error.issues).toEqual([{ path: '/body/organization', message: "must have required property 'organization'" }]);
  });

  // Below admin on the space is the matrix's case; the target organization, in the body, is not.
  it('404 for a target organization the caller is not in; 403 when not its admin; the space stays', async () => {
    const t = server();
    const source = await createOrganizationWithAdmin(t);
    const target = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, source.admin, source.organization);
    expect((await transfer(source.admin, space.id, { organization: target.organization.id })).error).toEqual({ error: { code: 404, message: 'Organization not found' } });
    await addMember(t, target.organization, source.admin, 'create');
    expect((await transfer(source.admin, space.id, { organization: target.organization.id })).error).toEqual({
      error: { code: 403, message: 'This needs the organization role "admin"' },
    });
    expect(await t.db.selectFrom('spaces').select('organizationId').where('id', '=', space.id).executeTakeFirst()).toEqual({ organizationId: source.organization.id });
  });

  it('412 for a target collection outside the target organization; 409 when nothing would change', async () => {
    const t = server();
    const source = await createOrganizationWithAdmin(t);
    const target = await createOrganizationWithAdmin(t);
    await addMember(t, target.organization, source.admin, 'admin');
    const space = await createSpace(t, source.admin, source.organization);
    const sourceCollection = await createCollection(t, source.admin, source.organization);
    const { error } = await transfer(source.admin, space.id, { organization: target.organization.id, collection: sourceCollection.id });
    expect(error).toEqual({ error: { code: 412, message: 'The target collection is not in the target organization' } });
    expect((await transfer(source.admin, space.id, { organization: source.organization.id })).response.status).toBe(409);
  });

  it('moves the space with its revisions and member grants to another organization', async () => {
    const t = server();
    const source = await createOrganizationWithAdmin(t);
    const target = await createOrganizationWithAdmin(t);
    await addMember(t, target.organization, source.admin, 'admin');
    const collection = await createCollection(t, target.admin, target.organization);
    const space = await createSpace(t, source.admin, source.organization, { title: 'Moving' });
    const [both, sourceOnly] = [await createMember(t, source.organization, 'read'), await createMember(t, source.organization, 'read')];
    await addMember(t, target.organization, both, 'read');
    await grant(t, { kind: 'space', item: space }, { user: both }, 'edit');
    await grant(t, { kind: 'space', item: space }, { user: sourceOnly }, 'edit');

    const { data, response } = await transfer(source.admin, space.id, { organization: target.organization.id, collection: collection.id });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id: space.id, organization: target.organization.id, parent: collection.id, title: 'Moving', revision: space.headRevisionId });
    const revisions = await t.db.selectFrom('revisions').select(['organizationId']).where('spaceId', '=', space.id).execute();
    expect(revisions).toEqual([{ organizationId: target.organization.id }]);
    expect((await target.admin.client.GET('/v1/spaces/{spaceId}', spacePath(space.id))).data?.permissions.admin).toBe(true);
    expect((await both.client.GET('/v1/spaces/{spaceId}', spacePath(space.id))).data?.permissions.edit).toBe(true);
    expect((await sourceOnly.client.GET('/v1/spaces/{spaceId}', spacePath(space.id))).response.status).toBe(404);
    expect((await source.admin.client.GET('/v1/orgs/{organizationId}/spaces', orgPath(source.organization.id))).data?.count).toBe(0);
  });

  it('within the organization it is a move to the collection', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization);
    const space = await createSpace(t, admin, organization);
    const { data } = await transfer(admin, space.id, { organization: organization.id, collection: collection.id });
    expect(data).toMatchObject({ organization: organization.id, parent: collection.id });
  });
});

describe('GET /v1/orgs/{organizationId}/spaces', () => {
  it('400 for a limit over 1000', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const { response } = await admin.client.GET('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId: organization.id }, query: { limit: 1001 } } });
    expect(response.status).toBe(400);
  });


  it('lists visible spaces, top level first then by collection, in pages', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization);
    await createSpace(t, admin, organization, { parent: collection, title: 'Inside' });
    await createSpace(t, admin, organization, { title: 'Top 1' });
    await createSpace(t, admin, organization, { title: 'Top 2' });
    await createSpace(t, admin, organization, { title: 'Hidden', defaultLevel: null });
    const reader = await createMember(t, organization, 'read');
    const first = await reader.client.GET('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId: organization.id }, query: { limit: 2 } } });
    expect(first.data?.count).toBe(3);
    expect(first.data?.items.map((s) => s.title)).toEqual(['Top 1', 'Top 2']);
    const second = await reader.client.GET('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId: organization.id }, query: { limit: 2, page: first.data!.next!.page } } });
    expect(second.data?.items.map((s) => s.title)).toEqual(['Inside']);
    expect(second.data?.next).toBeUndefined();
  });
});

describe('list counts', () => {
  it('stay exact as spaces, levels, grants and memberships change (cached counts are invalidated)', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const reader = await createMember(t, organization, 'read');
    const twin = await createMember(t, organization, 'read'); // same profile: shares the cached count
    const count = async (who: { client: ReturnType<TestServer['client']> }) =>
      (await who.client.GET('/v1/orgs/{organizationId}/spaces', orgPath(organization.id))).data?.count;
    const first = await createSpace(t, admin, organization);
    expect([await count(reader), await count(twin)]).toEqual([1, 1]);
    const second = await createSpace(t, admin, organization);
    expect([await count(reader), await count(twin)]).toEqual([2, 2]);
    await admin.client.PATCH('/v1/spaces/{spaceId}', { ...spacePath(second.id), body: { defaultLevel: null } });
    expect([await count(reader), await count(twin), await count(admin)]).toEqual([1, 1, 2]);
    await grant(t, { kind: 'space', item: second }, { user: reader }, 'read');
    expect([await count(reader), await count(twin)]).toEqual([2, 1]);
    await admin.client.DELETE('/v1/spaces/{spaceId}', spacePath(first.id));
    expect([await count(reader), await count(twin)]).toEqual([1, 0]);
    await t.db.updateTable('organizationMembers').set({ role: 'admin' }).where('userId', '=', twin.user.id).execute();
    expect(await count(twin)).toBe(1);
  });
});
