// A change request's content: batches on its own line of revisions, and its reads.
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace, createUser } from '../support/factories.js';
import { createCr, crPath, editCr, expectedChangeRequest, mergeCr } from '../support/change-requests.js';
import { contentRowCounts, edit, expectedPage, type Change } from '../support/content.js';
import { expectRefusal } from '../support/refusals.js';

const server = useTestServer();

async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization, { title: 'Docs' });
  const { refs } = await edit(admin, space.id, [{ type: 'insert_page', title: 'Home', ref: 'home', markdown: 'Welcome' }]);
  const cr = await createCr(admin, space.id, { subject: 'Proposal' });
  return { admin, organization, space, cr, home: refs.home! };
}

const post = (user: { client: ReturnType<TestServer['client']> }, spaceId: string, id: string, changes: Change[]) =>
  user.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', { ...crPath(spaceId, id), body: { changes } });

describe('POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', () => {
  it('400 for an invalid change, and nothing is written', async () => {
    const t = server();
    const { admin, space, cr } = await world(t);
    const before = await contentRowCounts(t.db);
    const { error, response } = await post(admin, space.id, cr.id, [{ type: 'update_page', page: 'unknownPage', title: 'x' }]);
    expect(response.status).toBe(400);
    expect(error?.error.issues).toEqual([{ path: '/body/changes/0/page', message: 'no page "unknownPage" in the content' }]);
    expect((await post(admin, space.id, cr.id, [{ type: 'insert_page', title: '' }])).response.status).toBe(400);
    expect(await contentRowCounts(t.db)).toEqual(before);
  });

  it('404 for an unknown request or a stranger; 403 below edit and on a locked space; 409 when archived or merged', async () => {
    const t = server();
    const { admin, organization, space, cr } = await world(t);
    const change: Change[] = [{ type: 'insert_page', title: 'A' }];
    expect((await post(admin, space.id, '12', change)).response.status).toBe(404);
    expect((await post(await createUser(t), space.id, cr.id, change)).response.status).toBe(404);
    const reader = await createMember(t, organization, 'read');
    expect((await post(reader, space.id, cr.id, change)).response.status).toBe(403);
    await admin.client.PATCH('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } }, body: { editMode: 'locked' } });
    const locked = await post(admin, space.id, cr.id, change);
    expect(locked.response.status).toBe(403);
    expect(locked.error?.error.message).toMatch(/locked/);
    await admin.client.PATCH('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } }, body: { editMode: 'live' } });
    await admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath(space.id, cr.id), body: { status: 'archived' } });
    const archived = await post(admin, space.id, cr.id, change);
    expect(archived.response.status).toBe(409);
    expect(archived.error?.error.message).toBe('The change request is archived: its content cannot be changed');
    await admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath(space.id, cr.id), body: { status: 'open' } });
    await mergeCr(admin, space.id, cr.id);
    expect((await post(admin, space.id, cr.id, change)).response.status).toBe(409);
  });

  it('writes a revision on the request’s line only, from revisionInitial, and records the writer as a contributor', async () => {
    const t = server();
    const { admin, organization, space, cr, home } = await world(t);
    const editor = await createMember(t, organization, 'edit');
    const { data, response } = await post(editor, space.id, String(cr.number), [
      { type: 'update_page', page: home, markdown: 'Welcome, revised' },
      { type: 'insert_page', title: 'Install', parent: home, ref: 'install', markdown: 'Run it' },
    ]);
    expect(response.status).toBe(200);
    expect(data).toEqual({
      changeRequest: expectedChangeRequest(space.id, admin, { id: cr.id, number: 1, subject: 'Proposal', revision: data!.revision, revisionInitial: cr.revision }),
      revision: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      refs: { install: expect.any(String) },
    });
    const row = await t.db.selectFrom('revisions').selectAll().where('id', '=', data!.revision).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ type: 'edits', parentIds: [cr.revision], changeRequestId: cr.id, spaceId: space.id, createdBy: editor.user.id });
    // The space is untouched.
    expect((await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).data!.revision).toBe(cr.revision);
    const { data: page } = await admin.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId: space.id, pageId: home } } });
    expect(page).toMatchObject({ markdown: 'Welcome\n', pages: [] });
    const contributors = await t.db.selectFrom('changeRequestContributors').select('userId').where('changeRequestId', '=', cr.id).execute();
    expect(contributors).toEqual([{ userId: editor.user.id }]);

    // A second batch continues from the first.
    const second = await editCr(editor, space.id, cr.id, [{ type: 'delete_page', page: data!.refs.install! }]);
    expect((await t.db.selectFrom('revisions').select('parentIds').where('id', '=', second.revision).executeTakeFirstOrThrow()).parentIds).toEqual([data!.revision]);
    expect(await t.db.selectFrom('changeRequestContributors').select('userId').where('changeRequestId', '=', cr.id).execute()).toHaveLength(1);
  });

  it('concurrent batches on one request all land (none lost)', async () => {
    const t = server();
    const { admin, space, cr } = await world(t);
    await Promise.all(Array.from({ length: 6 }, (_, i) => editCr(admin, space.id, cr.id, [{ type: 'insert_page', title: `Page ${i}` }])));
    const { data } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages', crPath(space.id, cr.id));
    expect(data!.pages.map((page) => page.title).sort()).toEqual(['Home', 'Page 0', 'Page 1', 'Page 2', 'Page 3', 'Page 4', 'Page 5']);
  });
});

describe('change request content reads', () => {
  async function written(t: TestServer) {
    const w = await world(t);
    const result = await editCr(w.admin, w.space.id, w.cr.id, [
      { type: 'update_page', page: w.home, title: 'Home (proposed)', markdown: '# Welcome\n\nProposed' },
      { type: 'insert_page', title: 'Guide', parent: w.home, ref: 'guide', pageType: 'group' },
      { type: 'insert_file', name: 'b.txt', contentType: 'text/plain', base64: Buffer.from('bee').toString('base64'), ref: 'b' },
      { type: 'insert_file', name: 'a.txt', contentType: 'text/plain', base64: Buffer.from('ay').toString('base64'), ref: 'a' },
      { type: 'insert_file', name: 'c.txt', contentType: 'text/plain', base64: Buffer.from('sea').toString('base64'), ref: 'c' },
    ]);
    return { ...w, result, refs: result.refs };
  }

  // 401 and a stranger's 404 are the contract sweep's (test/contract/sweep.test.ts).
  it('404 for an unknown request, page or file, with the error body', async () => {
    const t = server();
    const { admin, space, cr } = await written(t);
    const path = { spaceId: space.id, changeRequestId: cr.id };
    expectRefusal(await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages', crPath(space.id, '9999')), 404, 'Change request not found');
    expectRefusal(await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}', { params: { path: { ...path, pageId: 'unknownPage00' } } }), 404, 'Page not found');
    expectRefusal(await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}', { params: { path: { ...path, fileId: 'unknownFile00' } } }), 404, 'File not found');
  });

  it('400 for a malformed page id, an unknown format or limit', async () => {
    const t = server();
    const { admin, space, cr, home } = await written(t);
    const badPage = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}', { params: { path: { spaceId: space.id, changeRequestId: cr.id, pageId: 'bad id!' } } });
    expect(badPage.error?.error.issues).toEqual([expect.objectContaining({ path: '/path/pageId' })]);
    const badFormat = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}', {
      params: { path: { spaceId: space.id, changeRequestId: cr.id, pageId: home }, query: { format: 'html' as never } },
    });
    expect(badFormat.error?.error.issues).toEqual([expect.objectContaining({ path: '/query/format' })]);
    const badLimit = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files', { params: { path: { spaceId: space.id, changeRequestId: cr.id }, query: { limit: 0 } } });
    expect(badLimit.response.status).toBe(400);
  });

  it('reads the head revision, pages, one page with its body, and files of the request', async () => {
    const t = server();
    const { admin, organization, space, cr, home, refs, result } = await written(t);
    const reader = await createMember(t, organization, 'read');
    const base = `http://app.test/s/${space.id}/~/changes/${cr.id}`;
    const { data: content } = await reader.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', crPath(space.id, 1));
    const guide = expectedPage(space.id, { id: refs.guide!, title: 'Guide', slug: 'guide', path: 'home/guide', type: 'group', urls: { app: `${base}/home/guide` } });
    const homePage = expectedPage(space.id, {
      id: home,
      title: 'Home (proposed)',
      slug: 'home',
      path: 'home',
      documentId: expect.stringMatching(/^[0-9a-f]{64}$/),
      urls: { app: `${base}/home` },
      pages: [guide],
    });
    expect(content).toMatchObject({ object: 'revision', type: 'edits', id: result.revision, parents: [cr.revision], pages: [homePage] });
    expect(content!.files.map((file) => file.name)).toEqual(['a.txt', 'b.txt', 'c.txt']);

    const { data: pages } = await reader.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages', crPath(space.id, cr.id));
    expect(pages).toEqual({ pages: [homePage] });
    const { data: page } = await reader.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}', {
      params: { path: { spaceId: space.id, changeRequestId: cr.id, pageId: home } },
    });
    expect(page).toEqual({ ...homePage, markdown: '# Welcome\n\nProposed\n' });
    const missing = await reader.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}', {
      params: { path: { spaceId: space.id, changeRequestId: cr.id, pageId: 'noSuchPage' } },
    });
    expect(missing.response.status).toBe(404);

    const first = await reader.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files', { params: { path: { spaceId: space.id, changeRequestId: cr.id }, query: { limit: 2 } } });
    expect(first.data!.items.map((file) => file.name)).toEqual(['a.txt', 'b.txt']);
    expect(first.data!.count).toBe(3);
    const second = await reader.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files', {
      params: { path: { spaceId: space.id, changeRequestId: cr.id }, query: { limit: 2, page: first.data!.next!.page } },
    });
    expect(second.data).toEqual({ items: [expect.objectContaining({ name: 'c.txt' })], count: 3 });
    const { data: file } = await reader.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}', {
      params: { path: { spaceId: space.id, changeRequestId: cr.id, fileId: refs.b! } },
    });
    expect(file).toEqual({ id: refs.b, name: 'b.txt', contentType: 'text/plain', size: 3, downloadURL: expect.stringMatching(/^http:\/\/api\.test\/files\//) });
    const download = await fetch(file!.downloadURL.replace('http://api.test', t.url));
    expect(await download.text()).toBe('bee');
    // The space's own files are not the request's.
    expect((await admin.client.GET('/v1/spaces/{spaceId}/content/files', { params: { path: { spaceId: space.id } } })).data!.count).toBe(0);
  });

  it('a new request reads the space head it was created at', async () => {
    const t = server();
    const { admin, space, cr } = await world(t);
    const { data: fromRequest } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages', crPath(space.id, cr.id));
    const { data: fromSpace } = await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
    expect(fromRequest!.pages.map((page) => page.id)).toEqual(fromSpace!.pages.map((page) => page.id));
  });
});
