import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import { addMember, createCollection, createMember, createOrganizationWithAdmin, createSpace, grant } from '../support/factories.js';

const server = useTestServer();
const collectionPath = (collectionId: string) => ({ params: { path: { collectionId } } });
const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
type Client = ReturnType<TestServer['client']>;
const NEEDS_ADMIN = { error: { code: 403, message: 'This needs the "admin" role on the collection' } };

describe('POST /v1/orgs/{organizationId}/collections', () => {
  it('400 for a title over 50 or a description over 100 characters', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const { error } = await admin.client.POST('/v1/orgs/{organizationId}/collections', {
      ...orgPath(organization.id),
      body: { title: 'x'.repeat(51), description: 'y'.repeat(101) },
    });
    expect(error?.error.issues).toEqual([
      { path: '/body/title', message: 'must NOT have more than 50 characters' },
      { path: '/body/description', message: 'must NOT have more than 100 characters' },
    ]);
  });

  // A non-member and a role below create are the sweep's and the matrix's cases; a parent in the body is not.
  it('404 for an unknown parent or another organization’s collection; nothing is created', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const other = await createOrganizationWithAdmin(t);
    const foreign = await createCollection(t, other.admin, other.organization);
    for (const parent of ['noSuchCollection000', foreign.id]) {
      const { error, response } = await admin.client.POST('/v1/orgs/{organizationId}/collections', { ...orgPath(organization.id), body: { parent } });
      expect(response.status).toBe(404);
      expect(error).toEqual({ error: { code: 404, message: 'Collection not found' } });
    }
    expect(await t.db.selectFrom('collections').select('id').where('organizationId', '=', organization.id).execute()).toEqual([]);
  });

  it('creates a collection, nested or not, with admin for its creator', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const { data, response } = await admin.client.POST('/v1/orgs/{organizationId}/collections', {
      ...orgPath(organization.id),
      body: { title: 'Guides', description: 'How-tos', defaultLevel: 'comment' },
    });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      object: 'collection',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      title: 'Guides',
      description: 'How-tos',
      organization: organization.id,
      defaultLevel: 'comment',
      urls: { location: `http://api.test/v1/collections/${data!.id}`, app: `http://app.test/c/${data!.id}` },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    const nested = await admin.client.POST('/v1/orgs/{organizationId}/collections', { ...orgPath(organization.id), body: { parent: data!.id } });
    expect(nested.data).toMatchObject({ title: 'Untitled', parent: data!.id, defaultLevel: 'inherit' });
    expect((await admin.client.GET('/v1/collections/{collectionId}', collectionPath(data!.id))).data).toEqual(data);
  });
});

describe('GET /v1/collections/{collectionId}', () => {
  // 401, a malformed id and a stranger's 404 are the sweep's cases.
  it('reads the collection', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization, { title: 'Read me' });
    expect((await admin.client.GET('/v1/collections/{collectionId}', collectionPath(collection.id))).data?.title).toBe('Read me');
  });
});

describe('PATCH /v1/collections/{collectionId}', () => {
  // 401, a stranger's 404 and each role's 403 are the sweep's and the matrix's cases; here, what a refusal leaves.
  it('400, 403 leaving the collection as it was, then updates and reads back', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization, { title: 'Old' });
    const patch = (client: Client, body: object) => client.PATCH('/v1/collections/{collectionId}', { ...collectionPath(collection.id), body: body as never });
    expect((await patch(admin.client, { title: '' })).error?.error.issues).toEqual([{ path: '/body/title', message: 'must NOT have fewer than 1 characters' }]);
    const refused = await patch((await createMember(t, organization, 'create')).client, { title: 'x' });
    expect(refused.error).toEqual(NEEDS_ADMIN);
    expect((await admin.client.GET('/v1/collections/{collectionId}', collectionPath(collection.id))).data?.title).toBe('Old');
    const { data } = await patch(admin.client, { title: 'New', description: 'Now described', defaultLevel: null });
    expect(data).toMatchObject({ title: 'New', description: 'Now described', defaultLevel: null });
    const cleared = await patch(admin.client, { description: null });
    expect(cleared.data?.description).toBeUndefined();
    expect((await admin.client.GET('/v1/collections/{collectionId}', collectionPath(collection.id))).data).toEqual(cleared.data);
  });
});

describe('DELETE /v1/collections/{collectionId}', () => {
  // 401, a malformed id, a stranger and each role are the sweep's and the matrix's cases; here, what a refusal leaves.
  it('403 below admin deletes nothing', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization);
    const space = await createSpace(t, admin, organization, { parent: collection });
    const { error, response } = await (await createMember(t, organization, 'create')).client.DELETE('/v1/collections/{collectionId}', collectionPath(collection.id));
    expect(response.status).toBe(403);
    expect(error).toEqual(NEEDS_ADMIN);
    expect((await admin.client.GET('/v1/collections/{collectionId}', collectionPath(collection.id))).response.status).toBe(200);
    expect((await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).response.status).toBe(200);
  });

  it('deletes nested collections and soft-deletes their spaces, which restore to the top level as private', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const top = await createCollection(t, admin, organization);
    const nested = await createCollection(t, admin, organization, { parent: top });
    const [inTop, inNested] = [await createSpace(t, admin, organization, { parent: top }), await createSpace(t, admin, organization, { parent: nested })];
    const survivor = await createSpace(t, admin, organization);
    const { response } = await admin.client.DELETE('/v1/collections/{collectionId}', collectionPath(top.id));
    expect(response.status).toBe(205);
    for (const id of [top.id, nested.id]) expect((await admin.client.GET('/v1/collections/{collectionId}', collectionPath(id))).response.status).toBe(404);
    const listed = await admin.client.GET('/v1/orgs/{organizationId}/spaces', orgPath(organization.id));
    expect(listed.data?.items.map((s) => s.id)).toEqual([survivor.id]);
    for (const space of [inTop, inNested]) {
      const restored = await admin.client.POST('/v1/spaces/{spaceId}/restore', { params: { path: { spaceId: space.id } } });
      expect(restored.data?.parent).toBeUndefined();
      expect(restored.data?.visibility).toBe('private');
    }
    const locators = await t.db.selectFrom('collectionLocators').select('collectionId').where('collectionId', 'in', [top.id, nested.id]).execute();
    expect(locators).toEqual([]);
  });
});

describe('GET /v1/collections/{collectionId}/spaces', () => {
  it('the visible spaces directly inside, in order', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization);
    const nested = await createCollection(t, admin, organization, { parent: collection });
    const path = collectionPath(collection.id);
    await createSpace(t, admin, organization, { parent: collection, title: 'One' });
    await createSpace(t, admin, organization, { parent: collection, title: 'Two', visibility: 'private', defaultLevel: null });
    await createSpace(t, admin, organization, { parent: nested, title: 'Deeper' });
    const reader = await createMember(t, organization, 'read');
    const { data } = await reader.client.GET('/v1/collections/{collectionId}/spaces', path);
    expect(data?.items.map((s) => s.title)).toEqual(['One']);
    expect(data?.count).toBe(1);
    expect((await admin.client.GET('/v1/collections/{collectionId}/spaces', path)).data?.items.map((s) => s.title)).toEqual(['One', 'Two']);
  });
});

describe('POST /v1/collections/{collectionId}/move', () => {
  const move = (client: Client, collectionId: string, body: object) => client.POST('/v1/collections/{collectionId}/move', { ...collectionPath(collectionId), body: body as never });

  it('412 into itself or one of its descendants', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const top = await createCollection(t, admin, organization);
    const child = await createCollection(t, admin, organization, { parent: top });
    const grandchild = await createCollection(t, admin, organization, { parent: child });
    for (const target of [top, grandchild]) {
      const { error } = await move(admin.client, top.id, { parent: target.id });
      expect(error).toEqual({ error: { code: 412, message: 'A collection cannot move into itself or one of its descendants' } });
    }
  });

  it('moves under another collection, then back to the top level before a space', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const [a, b] = [await createCollection(t, admin, organization, { title: 'A' }), await createCollection(t, admin, organization, { title: 'B' })];
    const space = await createSpace(t, admin, organization, { title: 'S' });
    const inside = await move(admin.client, a.id, { parent: b.id });
    expect(inside.data?.parent).toBe(b.id);
    const back = await move(admin.client, a.id, { parent: null, position: { before: { type: 'space', space: space.id } } });
    expect(back.data?.parent).toBeUndefined();
    const { data } = await admin.client.GET('/v1/orgs/{organizationId}/collections', { params: { path: { organizationId: organization.id }, query: { nested: false } } });
    expect(data?.items.map((c) => c.title)).toEqual(['B', 'A']);
  });
});

describe('POST /v1/collections/{collectionId}/transfer', () => {
  // 401 is the sweep's; the target organization and collection come in the body.
  it('400, 404 for an organization the caller is not in, 403 below its admin, 412, 409; nothing moves', async () => {
    const t = server();
    const source = await createOrganizationWithAdmin(t);
    const target = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, source.admin, source.organization);
    const transfer = (client: Client, body: object) => client.POST('/v1/collections/{collectionId}/transfer', { ...collectionPath(collection.id), body: body as never });
    expect((await transfer(source.admin.client, { organization: 'a b' })).error?.error.issues?.map((issue) => issue.path)).toEqual(['/body/organization']);
    // The target organization is named in the body: the caller must be its admin, and a stranger to it sees none.
    expect((await transfer(source.admin.client, { organization: target.organization.id })).error).toEqual({ error: { code: 404, message: 'Organization not found' } });
    await addMember(t, target.organization, source.admin, 'edit');
    expect((await transfer(source.admin.client, { organization: target.organization.id })).error).toEqual({ error: { code: 403, message: 'This needs the organization role "admin"' } });
    await t.db.updateTable('organizationMembers').set({ role: 'admin' }).where('organizationId', '=', target.organization.id).where('userId', '=', source.admin.user.id).execute();
    const elsewhere = await createCollection(t, source.admin, source.organization);
    expect((await transfer(source.admin.client, { organization: target.organization.id, collection: elsewhere.id })).error).toEqual({ error: { code: 412, message: 'The target collection is not in the target organization' } });
    expect((await transfer(source.admin.client, { organization: source.organization.id })).error).toEqual({ error: { code: 409, message: 'The collection is already there' } });
    const stayed = await t.db.selectFrom('collections').select('organizationId').where('id', '=', collection.id).executeTakeFirst();
    expect(stayed).toEqual({ organizationId: source.organization.id });
  });

  it('moves the collection with its nested collections and spaces (deleted ones included)', async () => {
    const t = server();
    const source = await createOrganizationWithAdmin(t);
    const target = await createOrganizationWithAdmin(t);
    await addMember(t, target.organization, source.admin, 'admin');
    const top = await createCollection(t, source.admin, source.organization, { title: 'Top' });
    const nested = await createCollection(t, source.admin, source.organization, { parent: top, title: 'Nested' });
    const live = await createSpace(t, source.admin, source.organization, { parent: nested, title: 'Live' });
    const gone = await createSpace(t, source.admin, source.organization, { parent: top, title: 'Gone' });
    await source.admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: gone.id } } });

    const { data } = await source.admin.client.POST('/v1/collections/{collectionId}/transfer', { ...collectionPath(top.id), body: { organization: target.organization.id } });
    expect(data).toMatchObject({ id: top.id, organization: target.organization.id, title: 'Top' });
    const nestedAfter = await target.admin.client.GET('/v1/collections/{collectionId}', collectionPath(nested.id));
    expect(nestedAfter.data).toMatchObject({ organization: target.organization.id, parent: top.id });
    const spaceAfter = await target.admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: live.id } } });
    expect(spaceAfter.data).toMatchObject({ organization: target.organization.id, parent: nested.id, visibility: 'in-collection' });
    const restored = await target.admin.client.POST('/v1/spaces/{spaceId}/restore', { params: { path: { spaceId: gone.id } } });
    expect(restored.data?.organization).toBe(target.organization.id);
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM collections WHERE organization_id = ${source.organization.id}`.execute(t.db);
    expect(left.rows[0]?.n).toBe(0);
  });
});

describe('GET /v1/orgs/{organizationId}/collections', () => {
  it('visible collections, nested or top level only', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const path = orgPath(organization.id);
    const top = await createCollection(t, admin, organization, { title: 'Top' });
    await createCollection(t, admin, organization, { parent: top, title: 'Child' });
    await createCollection(t, admin, organization, { title: 'Closed', defaultLevel: null });
    const reader = await createMember(t, organization, 'read');
    const all = await reader.client.GET('/v1/orgs/{organizationId}/collections', path);
    expect(all.data?.items.map((c) => c.title)).toEqual(['Top', 'Child']);
    expect(all.data?.count).toBe(2);
    const topOnly = await reader.client.GET('/v1/orgs/{organizationId}/collections', { params: { path: { organizationId: organization.id }, query: { nested: false } } });
    expect(topOnly.data?.items.map((c) => c.title)).toEqual(['Top']);
    await grant(t, { kind: 'collection', item: { id: (await createCollection(t, admin, organization, { title: 'Granted', defaultLevel: null })).id, organizationId: organization.id } }, { user: reader }, 'read');
    expect((await reader.client.GET('/v1/orgs/{organizationId}/collections', path)).data?.items.map((c) => c.title)).toEqual(['Top', 'Granted', 'Child']);
  });
});
