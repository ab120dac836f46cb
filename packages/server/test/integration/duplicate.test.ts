import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createCollection, createMember, createOrganizationWithAdmin, createSpace, grant } from '../support/factories.js';
import { contentRowCounts, edit, pngBytes } from '../support/content.js';

const server = useTestServer();

async function withContent(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const collection = await createCollection(t, admin, organization);
  const space = await createSpace(t, admin, organization, { parent: collection, title: 'A title long enough to be cut short' });
  await edit(admin, space.id, [
    { type: 'insert_page', title: 'Home', ref: 'home', markdown: 'Welcome' },
    { type: 'insert_page', title: 'Child', parent: { ref: 'home' } },
    { type: 'insert_file', name: 'logo.png', base64: pngBytes(4, 4).toString('base64') },
    { type: 'upsert_reusable_content', title: 'Snippet', markdown: 'Shared' },
  ]);
  return { admin, organization, collection, space };
}

function duplicate(client: TestServer['client'] extends (token?: string) => infer C ? C : never, spaceId: string) {
  return client.POST('/v1/spaces/{spaceId}/duplicate', { params: { path: { spaceId } } });
}

describe('POST /v1/spaces/{spaceId}/duplicate', () => {
  it('400 for a malformed id', async () => {
    const { admin } = await createOrganizationWithAdmin(server());
    expect((await duplicate(admin.client, 'bad id')).error?.error.issues).toEqual([expect.objectContaining({ path: '/path/spaceId' })]);
  });


  it('403 without create on the collection (or the create organization role at the top level)', async () => {
    const t = server();
    const { admin, organization, collection, space } = await withContent(t);
    const editor = await createMember(t, organization, 'edit');
    const { error, response } = await duplicate(editor.client, space.id);
    expect(response.status).toBe(403);
    expect(error?.error.message).toMatch(/"create"/);
    const topLevel = await createSpace(t, admin, organization);
    expect((await duplicate(editor.client, topLevel.id)).response.status).toBe(403);
    await grant(t, { kind: 'collection', item: collection }, { user: editor }, 'create');
    expect((await duplicate(editor.client, space.id)).response.status).toBe(201);
  });

  it('creates a copy right after the original, sharing its content, with the caller as admin', async () => {
    const t = server();
    const { admin, organization, collection, space } = await withContent(t);
    const creator = await createMember(t, organization, 'create');
    const before = await contentRowCounts(t.db);
    const { data, response } = await duplicate(creator.client, space.id);
    expect(response.status).toBe(201);
    expect(data).toEqual({
      object: 'space',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      title: 'A title long enough to be cut short (copy)',
      emoji: '',
      visibility: 'in-collection',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      editMode: 'live',
      organization: organization.id,
      parent: collection.id,
      revision: expect.any(String),
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      urls: { location: `http://api.test/v1/spaces/${data!.id}`, app: `http://app.test/s/${data!.id}` },
      permissions: expect.objectContaining({ admin: true }),
    });
    // O(1) content: one new revision with the same roots, head rows copied, no new content object.
    const after = await contentRowCounts(t.db);
    expect(after).toEqual({ ...before, revisions: before.revisions! + 1, spaceHeadPages: before.spaceHeadPages! + 2, spaceHeadFiles: before.spaceHeadFiles! + 1 });
    const revisions = await t.db
      .selectFrom('revisions')
      .select(['id', 'pagesRoot', 'filesRoot', 'reusableRoot', 'parentIds', 'type'])
      .where('id', 'in', [data!.revision, (await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).data!.revision])
      .execute();
    const [copyRevision, original] = [revisions.find((r) => r.id === data!.revision)!, revisions.find((r) => r.id !== data!.revision)!];
    expect(copyRevision).toMatchObject({ type: 'edits', parentIds: [], pagesRoot: original.pagesRoot, filesRoot: original.filesRoot, reusableRoot: original.reusableRoot });
    expect(await t.db.selectFrom('spaceGrants').select(['principalId', 'role']).where('spaceId', '=', data!.id).execute()).toEqual([
      { principalId: creator.user.id, role: 'admin' },
    ]);

    // Same content, readable in the copy (head rows included: the path lookup uses them)...
    const read = (spaceId: string) => creator.client.GET('/v1/spaces/{spaceId}/content', { params: { path: { spaceId } } });
    const [copied, source] = [(await read(data!.id)).data!, (await read(space.id)).data!];
    expect(copied.pages).toEqual(JSON.parse(JSON.stringify(source.pages).replaceAll(space.id, data!.id)));
    expect(copied.reusableContents).toEqual(source.reusableContents);
    expect(copied.files.map((file) => file.id)).toEqual(source.files.map((file) => file.id));
    const child = await creator.client.GET('/v1/spaces/{spaceId}/content/path/{pagePath}', { params: { path: { spaceId: data!.id, pagePath: 'home/child' } } });
    expect(child.data?.title).toBe('Child');
    // ...and the copies evolve independently.
    await edit(creator, data!.id, [{ type: 'insert_page', title: 'Only in the copy' }]);
    expect((await read(space.id)).data!.pages).toHaveLength(1);
    const spaces = await admin.client.GET('/v1/collections/{collectionId}/spaces', { params: { path: { collectionId: collection.id } } });
    expect(spaces.data?.items.map((s) => s.id)).toEqual([space.id, data!.id]);
  });
});
