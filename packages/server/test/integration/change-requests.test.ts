// Change requests: create, read (by id and by number), list with filters, subject and status moves.
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace, createUser } from '../support/factories.js';
import { counters, countedFromRows, createCr, crPath, editCr, expectedChangeRequest, mergeCr } from '../support/change-requests.js';
import { edit } from '../support/content.js';

const server = useTestServer();

async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization, { title: 'Docs' });
  return { admin, organization, space };
}

describe('POST /v1/spaces/{spaceId}/change-requests', () => {
  it('400 for a subject over 100 characters or an unknown field', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const long = await admin.client.POST('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: space.id } }, body: { subject: 'x'.repeat(101) } });
    expect(long.response.status).toBe(400);
    expect(long.error?.error.issues).toEqual([expect.objectContaining({ path: '/body/subject' })]);
    const unknown = await admin.client.POST('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: space.id } }, body: { title: 'x' } as never });
    expect(unknown.response.status).toBe(400);
    expect(await countedFromRows(t, space.id)).toEqual({ changeRequests: 0, open: 0, draft: 0 });
  });

  it('404 for another organization’s space, 403 below edit', async () => {
    const t = server();
    const { organization, space } = await world(t);
    const stranger = await createUser(t);
    expect((await stranger.client.POST('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: space.id } }, body: {} })).response.status).toBe(404);
    const commenter = await createMember(t, organization, 'comment');
    const { response, error } = await commenter.client.POST('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: space.id } }, body: {} });
    expect(response.status).toBe(403);
    expect(error?.error.message).toMatch(/"edit"/);
  });

  it('creates an open request at the space head, numbered from 1, with no new revision', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    const editor = await createMember(t, organization, 'edit');
    const revisionsBefore = await t.db.selectFrom('revisions').select('id').where('spaceId', '=', space.id).execute();
    const { data, response } = await editor.client.POST('/v1/spaces/{spaceId}/change-requests', {
      params: { path: { spaceId: space.id } },
      body: { subject: 'Fix typos', agentTaskId: 'task-42' },
    });
    expect(response.status).toBe(201);
    expect(data!.id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(data).toEqual(expectedChangeRequest(space.id, editor, { id: data!.id, number: 1, subject: 'Fix typos', revision: space.headRevisionId }));
    expect(await t.db.selectFrom('revisions').select('id').where('spaceId', '=', space.id).execute()).toEqual(revisionsBefore);
    const row = await t.db.selectFrom('changeRequests').select(['agentTaskId', 'number']).where('id', '=', data!.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ agentTaskId: 'task-42', number: 1 });

    // Without a body: an empty subject; the next number.
    const second = await admin.client.POST('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: space.id } } });
    expect(second.response.status).toBe(201);
    expect(second.data).toMatchObject({ number: 2, subject: '', status: 'open' });
    expect(await counters(admin, space.id)).toEqual({ changeRequests: 2, open: 2, draft: 0 });
  });

  it('numbers stay exact and unique under concurrent creation, and so do the counters', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const created = await Promise.all(Array.from({ length: 12 }, (_, i) => createCr(admin, space.id, { subject: `Request ${i}` })));
    expect(created.map((cr) => cr.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(await counters(admin, space.id)).toEqual({ changeRequests: 12, open: 12, draft: 0 });
    expect(await countedFromRows(t, space.id)).toEqual({ changeRequests: 12, open: 12, draft: 0 });
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}', () => {
  it('404 for an unknown id or number, a request of another space, or a caller without a role', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    const other = await createSpace(t, admin, organization);
    const cr = await createCr(admin, other.id);
    for (const ref of ['AbCdEfGhIjKlMnOpQrSt', '7', '99999999999', cr.id, '1']) {
      const { response, error } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, ref));
      expect(response.status, ref).toBe(404);
      expect(error?.error.message).toBe('Change request not found');
    }
    const guest = await createMember(t, organization, null);
    expect((await guest.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(other.id, cr.id))).response.status).toBe(404);
  });

  it('reads a request by id and by number, for any reader', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    await createCr(admin, space.id);
    const cr = await createCr(admin, space.id, { subject: 'Second' });
    const reader = await createMember(t, organization, 'read');
    const byId = await reader.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, cr.id));
    expect(byId.data).toEqual(expectedChangeRequest(space.id, admin, { id: cr.id, number: 2, subject: 'Second', revision: space.headRevisionId }));
    const byNumber = await reader.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, 2));
    expect(byNumber.data).toEqual(byId.data);
  });

  it('is outdated exactly when the space head moved past its base, while draft or open', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const cr = await createCr(admin, space.id);
    const read = async () => (await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, cr.id))).data!;
    await editCr(admin, space.id, cr.id, [{ type: 'insert_page', title: 'In the request' }]);
    expect((await read()).outdated).toBe(false);
    await edit(admin, space.id, [{ type: 'insert_page', title: 'On the space' }]);
    expect((await read()).outdated).toBe(true);
    await mergeCr(admin, space.id, cr.id, 'update');
    expect(await read()).toMatchObject({ outdated: false, revisionMergedAncestor: expect.any(String) });
    await edit(admin, space.id, [{ type: 'insert_page', title: 'Again on the space' }]);
    expect((await read()).outdated).toBe(true);
    await admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath(space.id, cr.id), body: { status: 'archived' } });
    expect((await read()).outdated).toBe(false);
  });
});

describe('GET /v1/spaces/{spaceId}/change-requests', () => {
  // 401 without a token, a malformed id and a stranger's 404 are the contract sweep's (also below).
  it('400 for an unknown status', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const bad = await admin.client.GET('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: space.id }, query: { status: 'closed' as never } } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.error.issues).toEqual([expect.objectContaining({ path: '/query/status' })]);
  });

  it('lists open requests newest first by default, filters by status and contributor, and pages', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    const writer = await createMember(t, organization, 'edit');
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createCr(admin, space.id, { subject: `CR ${i}` }));
    await t.db.updateTable('changeRequests').set({ createdAt: new Date(Date.UTC(2026, 0, 1)) } as never).where('spaceId', '=', space.id).execute();
    for (const [i, cr] of made.entries()) {
      await t.db.updateTable('changeRequests').set({ createdAt: new Date(Date.UTC(2026, 0, 1 + i)) } as never).where('id', '=', cr.id).execute();
    }
    await admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath(space.id, made[1]!.id), body: { status: 'draft' } });
    await admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath(space.id, made[2]!.id), body: { status: 'archived' } });
    await editCr(writer, space.id, made[3]!.id, [{ type: 'insert_page', title: 'By the writer' }]);
    await editCr(writer, space.id, made[3]!.id, [{ type: 'insert_page', title: 'Again' }]);
    await editCr(writer, space.id, made[1]!.id, [{ type: 'insert_page', title: 'Draft work' }]);
    await editCr(admin, space.id, made[4]!.id, [{ type: 'insert_page', title: 'By the admin' }]);

    const list = async (query: Record<string, unknown> = {}) => {
      const { data, response } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: space.id }, query: query as never } });
      expect(response.status).toBe(200);
      return data!;
    };
    const open = await list();
    expect(open.items.map((cr) => cr.subject)).toEqual(['CR 4', 'CR 3', 'CR 0']);
    expect(open.count).toBe(3);
    expect((await list({ status: 'draft' })).items.map((cr) => cr.subject)).toEqual(['CR 1']);
    expect((await list({ status: 'archived' })).items.map((cr) => cr.subject)).toEqual(['CR 2']);
    expect((await list({ status: 'merged' })).items).toEqual([]);
    expect((await list({ contributor: writer.user.id })).items.map((cr) => cr.subject)).toEqual(['CR 3']);
    expect((await list({ contributor: writer.user.id, status: 'draft' })).items.map((cr) => cr.subject)).toEqual(['CR 1']);
    expect((await list({ contributor: admin.user.id })).items.map((cr) => cr.subject)).toEqual(['CR 4']);

    const first = await list({ limit: 2 });
    expect(first.items.map((cr) => cr.subject)).toEqual(['CR 4', 'CR 3']);
    const second = await list({ limit: 2, page: first.next!.page });
    expect(second).toEqual({ items: [expect.objectContaining({ subject: 'CR 0' })], count: 3 });
    // A cursor of another filter is refused.
    expect((await admin.client.GET('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: space.id }, query: { status: 'draft', page: first.next!.page } } })).response.status).toBe(400);
  });
});

describe('PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}', () => {
  const patch = (user: { client: ReturnType<TestServer['client']> }, spaceId: string, id: string, body: Record<string, unknown>) =>
    user.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath(spaceId, id), body: body as never });

  it('400 for a bad status or a long subject', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const cr = await createCr(admin, space.id);
    const bad = await patch(admin, space.id, cr.id, { status: 'closed', subject: 'y'.repeat(101) });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.error.issues?.map((issue) => issue.path).sort()).toEqual(['/body/status', '/body/subject']);
  });

  it('404 for an unknown request or a stranger; 403 for an editor who is not the author', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    const cr = await createCr(admin, space.id);
    expect((await patch(admin, space.id, 'AbCdEfGhIjKlMnOpQrSt', { subject: 'x' })).response.status).toBe(404);
    expect((await patch(await createUser(t), space.id, cr.id, { subject: 'x' })).response.status).toBe(404);
    const editor = await createMember(t, organization, 'edit');
    const { response, error } = await patch(editor, space.id, cr.id, { subject: 'Hijacked' });
    expect(response.status).toBe(403);
    expect(error?.error.message).toMatch(/"review".*author/);
  });

  it('lets the author (even a reader by now) and reviewers change the subject', async () => {
    const t = server();
    const { organization, space } = await world(t);
    const author = await createMember(t, organization, 'edit');
    const cr = await createCr(author, space.id);
    await t.db.updateTable('organizationMembers').set({ role: 'read' }).where('userId', '=', author.user.id).execute();
    const own = await patch(author, space.id, cr.id, { subject: 'Mine' });
    expect(own.response.status).toBe(200);
    expect(own.data).toEqual(expectedChangeRequest(space.id, author, { id: cr.id, number: 1, subject: 'Mine', revision: space.headRevisionId }));
    const reviewer = await createMember(t, organization, 'review');
    expect((await patch(reviewer, space.id, String(cr.number), { subject: 'Reviewed' })).data?.subject).toBe('Reviewed');
  });

  it.each([
    ['open', 'draft', 200],
    ['open', 'archived', 200],
    ['open', 'open', 200],
    ['open', 'merged', 409],
    ['draft', 'open', 200],
    ['draft', 'archived', 200],
    ['draft', 'merged', 409],
    ['archived', 'open', 200],
    ['archived', 'draft', 409],
    ['archived', 'merged', 409],
    ['merged', 'open', 409],
    ['merged', 'draft', 409],
    ['merged', 'archived', 409],
    ['merged', 'merged', 200],
  ] as const)('status %s → %s: %s', async (from, to, status) => {
    const t = server();
    const { admin, space } = await world(t);
    const cr = await createCr(admin, space.id);
    if (from === 'merged') await mergeCr(admin, space.id, cr.id);
    else if (from !== 'open') await patch(admin, space.id, cr.id, { status: from });
    const before = await counters(admin, space.id);
    const { data, error, response } = await patch(admin, space.id, cr.id, { status: to });
    expect(response.status, JSON.stringify(error)).toBe(status);
    if (status === 409) {
      expect(error?.error.message).toMatch(to === 'merged' ? /only by merging/ : /cannot move/);
      expect(await counters(admin, space.id)).toEqual(before);
    } else {
      expect(data?.status).toBe(to);
    }
    expect(await counters(admin, space.id)).toEqual(await countedFromRows(t, space.id));
  });

  it('refuses subject edits on archived and merged requests, but not while reopening', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const archived = await createCr(admin, space.id);
    await patch(admin, space.id, archived.id, { status: 'archived' });
    const refused = await patch(admin, space.id, archived.id, { subject: 'Late' });
    expect(refused.response.status).toBe(409);
    expect(refused.error?.error.message).toMatch(/archived/);
    expect((await patch(admin, space.id, archived.id, { subject: 'Reopened', status: 'open' })).data).toMatchObject({ subject: 'Reopened', status: 'open' });
    const merged = await createCr(admin, space.id);
    await mergeCr(admin, space.id, merged.id);
    expect((await patch(admin, space.id, merged.id, { subject: 'Late' })).response.status).toBe(409);
  });

  it('a no-op leaves updatedAt alone', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const cr = await createCr(admin, space.id);
    const { data } = await patch(admin, space.id, cr.id, { status: 'open' });
    expect(data?.updatedAt).toBe(cr.updatedAt);
  });
});
