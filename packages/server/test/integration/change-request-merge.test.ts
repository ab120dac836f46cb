// Merge and update of change requests through the API: the merge table, access, states, locked
// spaces, and concurrent merges.
import { describe, expect, it } from 'vitest';
import type { components } from '@content-workspace/sdk';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace, createUser, type TestUser } from '../support/factories.js';
import { counters, countedFromRows, createCr, crPath, editCr, mergeCr } from '../support/change-requests.js';
import { contentRowCounts, edit, type Change } from '../support/content.js';
import { MAX_PAGE_DEPTH } from '../../src/content/page-placement.js';
import { describeConflicts, MERGE_CASES, outlineOf, type Ids, type OutlinePage } from '../support/merge-cases.js';
import { expectRefusal } from '../support/refusals.js';

const server = useTestServer();
type Page = components['schemas']['Page'];

async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization, { title: 'Docs' });
  return { admin, organization, space };
}

/** The space's head as outline lines (bodies read page by page). */
async function spaceOutline(user: TestUser, spaceId: string): Promise<string[]> {
  const { data } = await user.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId } } });
  const withBodies = async (pages: Page[]): Promise<OutlinePage[]> =>
    Promise.all(
      pages.map(async (page) => {
        const { data: full } = await user.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId, pageId: page.id } } });
        return { slug: page.slug, title: page.title, markdown: (full as { markdown?: string }).markdown ?? '', pages: await withBodies(page.pages ?? []) };
      }),
    );
  return outlineOf(await withBodies(data!.pages));
}

/** Paths of the materialised head (space_head_pages), which must follow every head move. */
async function headIndexPaths(t: TestServer, spaceId: string): Promise<string[]> {
  return (await t.db.selectFrom('spaceHeadPages').select('path').where('spaceId', '=', spaceId).orderBy('path').execute()).map((row) => row.path);
}

function pathsOf(pages: Page[]): string[] {
  return pages.flatMap((page) => [page.path, ...pathsOf(page.pages ?? [])]);
}

const sorted = <T>(items: T[]) => [...items].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('the merge table, through the API', () => {
  it.each(MERGE_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const t = server();
    const { admin, space } = await world(t);
    const ids: Ids = {};
    Object.assign(ids, (await edit(admin, space.id, c.base)).refs);
    const cr = await createCr(admin, space.id, { subject: c.name.slice(0, 100) });
    const onSpace = async (changes: ReturnType<typeof c.ours>) => changes.length && Object.assign(ids, (await edit(admin, space.id, changes)).refs);
    const onRequest = async (changes: ReturnType<typeof c.ours>) => changes.length && Object.assign(ids, (await editCr(admin, space.id, cr.id, changes)).refs);
    await onSpace(c.ours(ids));
    await onRequest(c.theirs(ids));
    if (c.thenAfterUpdate) {
      const updated = await mergeCr(admin, space.id, cr.id, 'update');
      expect(describeConflicts(updated.conflicts, ids)).toEqual(sorted(c.thenAfterUpdate.updateConflicts));
      await onSpace(c.thenAfterUpdate.ours(ids));
      await onRequest(c.thenAfterUpdate.theirs(ids));
    }
    const { data: before } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, cr.id));
    const headBefore = (await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).data!.revision;

    const merged = await mergeCr(admin, space.id, cr.id);
    expect(merged).toEqual({ revision: expect.any(String), result: c.conflicts.length ? 'conflicts' : 'merge', conflicts: expect.any(Array) });
    expect(describeConflicts(merged.conflicts, ids)).toEqual(sorted(c.conflicts));
    expect(await spaceOutline(admin, space.id)).toEqual(c.outline);

    // A merge revision with parents [primary head, request head] is the space's head; the request is merged.
    const { data: content } = await admin.client.GET('/v1/spaces/{spaceId}/content', { params: { path: { spaceId: space.id } } });
    expect(content).toMatchObject({ id: merged.revision, type: 'merge', parents: [headBefore, before!.revision], changeRequest: cr.id });
    const { data: after } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, cr.id));
    expect(after).toMatchObject({ status: 'merged', revisionMerged: merged.revision, outdated: false });
    expect(await headIndexPaths(t, space.id)).toEqual(pathsOf(content!.pages).sort());
    const rows = await t.db.selectFrom('revisionConflicts').select(['kind', 'pageId', 'field']).where('revisionId', '=', merged.revision).orderBy('ordinal').execute();
    expect(rows).toEqual(merged.conflicts.map((conflict) => ({ kind: conflict.kind, pageId: conflict.page === undefined ? null : conflict.page, field: conflict.field ?? null })));
  });
});

describe('POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge', () => {
  const merge = (user: { client: ReturnType<TestServer['client']> }, spaceId: string, id: string) =>
    user.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge', crPath(spaceId, id));

  it('404 for an unknown request or a stranger; 403 for an editor; nothing changes', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    const cr = await createCr(admin, space.id);
    await editCr(admin, space.id, cr.id, [{ type: 'insert_page', title: 'Proposed' }]);
    expect((await merge(admin, space.id, '42')).response.status).toBe(404);
    expect((await merge(await createUser(t), space.id, cr.id)).response.status).toBe(404);
    const editor = await createMember(t, organization, 'edit');
    const { response, error } = await merge(editor, space.id, cr.id);
    expect(response.status).toBe(403);
    expect(error?.error.message).toMatch(/"review"/);
    const { data } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, cr.id));
    expect(data?.status).toBe('open');
    expect((await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).data!.revision).toBe(space.headRevisionId);
  });

  it('403 on a locked space; 409 for archived and merged requests', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const cr = await createCr(admin, space.id);
    await admin.client.PATCH('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } }, body: { editMode: 'locked' } });
    const locked = await merge(admin, space.id, cr.id);
    expect(locked.response.status).toBe(403);
    expect(locked.error?.error.message).toMatch(/locked/);
    await admin.client.PATCH('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } }, body: { editMode: 'live' } });
    await admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath(space.id, cr.id), body: { status: 'archived' } });
    const archived = await merge(admin, space.id, cr.id);
    expect(archived.response.status).toBe(409);
    expect(archived.error?.error.message).toBe('The change request is archived: it cannot be merged');
    // Reopened, then a draft: drafts merge too.
    await admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath(space.id, cr.id), body: { status: 'open' } });
    await admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath(space.id, cr.id), body: { status: 'draft' } });
    expect(await counters(admin, space.id)).toEqual({ changeRequests: 1, open: 0, draft: 1 });
    expect((await merge(admin, space.id, String(cr.number))).response.status).toBe(200);
    expect((await merge(admin, space.id, cr.id)).response.status).toBe(409);
    expect(await counters(admin, space.id)).toEqual({ changeRequests: 1, open: 0, draft: 0 });
  });

  it('merging an untouched request still writes a merge revision with the same content (D10)', async () => {
    const t = server();
    const { admin, space } = await world(t);
    await edit(admin, space.id, [{ type: 'insert_page', title: 'Home', markdown: 'Welcome' }]);
    const before = (await admin.client.GET('/v1/spaces/{spaceId}/content', { params: { path: { spaceId: space.id } } })).data!;
    const cr = await createCr(admin, space.id);
    const merged = await mergeCr(admin, space.id, cr.id);
    expect(merged).toEqual({ revision: expect.any(String), result: 'merge', conflicts: [] });
    const after = (await admin.client.GET('/v1/spaces/{spaceId}/content', { params: { path: { spaceId: space.id } } })).data!;
    expect(after).toEqual({ ...before, id: merged.revision, type: 'merge', parents: [before.id, before.id], changeRequest: cr.id, createdAt: expect.any(String), urls: expect.any(Object) });
  });

  it('records each conflict with its three versions', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const { refs } = await edit(admin, space.id, [{ type: 'insert_page', title: 'Page', ref: 'p', markdown: 'one\ntwo\nthree' }]);
    const cr = await createCr(admin, space.id);
    await edit(admin, space.id, [{ type: 'update_page', page: refs.p!, markdown: 'one\nTWO (primary)\nthree' }]);
    await editCr(admin, space.id, cr.id, [{ type: 'update_page', page: refs.p!, markdown: 'one\nTWO (request)\nthree' }]);
    const merged = await mergeCr(admin, space.id, cr.id);
    expect(merged.conflicts).toEqual([{ kind: 'document_hunk', page: refs.p, field: 'markdown', base: 'two', ours: 'TWO (primary)', theirs: 'TWO (request)', resolution: 'theirs' }]);
    const rows = await t.db.selectFrom('revisionConflicts').selectAll().where('revisionId', '=', merged.revision).execute();
    expect(rows).toEqual([
      {
        organizationId: space.organizationId,
        revisionId: merged.revision,
        ordinal: 0,
        kind: 'document_hunk',
        pageId: refs.p,
        fileId: null,
        reusableContentId: null,
        field: 'markdown',
        base: 'two',
        ours: 'TWO (primary)',
        theirs: 'TWO (request)',
        resolution: 'theirs',
        resolvedAt: expect.any(Date),
      },
    ]);
  });

  it('three concurrent merges and a direct edit into one space all land, one on top of the other: nothing is lost', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const { refs } = await edit(admin, space.id, [
      { type: 'insert_page', title: 'One', ref: 'one', markdown: 'first' },
      { type: 'insert_page', title: 'Two', ref: 'two', markdown: 'second' },
    ]);
    const crs = await Promise.all([createCr(admin, space.id), createCr(admin, space.id), createCr(admin, space.id)]);
    await editCr(admin, space.id, crs[0]!.id, [{ type: 'update_page', page: refs.one!, markdown: 'first, from A' }]);
    await editCr(admin, space.id, crs[1]!.id, [{ type: 'update_page', page: refs.two!, markdown: 'second, from B' }]);
    await editCr(admin, space.id, crs[2]!.id, [{ type: 'insert_page', title: 'Three', markdown: 'third, from C' }]);
    const results = await Promise.all([
      ...crs.map((cr) => admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge', crPath(space.id, cr.id))),
      edit(admin, space.id, [{ type: 'insert_page', title: 'Four', markdown: 'fourth, direct' }]),
    ]);
    // Merges lock the space row and read its head under the lock; the direct edit retries its
    // compare-and-swap: none of them may be refused.
    expect(results.slice(0, 3).map((r) => (r as { response: Response }).response.status)).toEqual([200, 200, 200]);
    const outline = await spaceOutline(admin, space.id);
    for (const line of ['one (One) "first, from A\\n"', 'two (Two) "second, from B\\n"', 'four (Four) "fourth, direct\\n"']) expect(outline).toContain(line);
    expect(outline.some((line) => line.startsWith('three (Three)'))).toBe(true);
    // One merge revision per request.
    expect(await t.db.selectFrom('revisions').select('id').where('spaceId', '=', space.id).where('type', '=', 'merge').execute()).toHaveLength(3);
    // One on top of the other: from the head back, each revision of the space's own history has the one
    // before it as its first parent, through all of them; the newest four are the three merges and the edit.
    const history = await t.db.selectFrom('revisions').select(['id', 'parentIds', 'type']).where('spaceId', '=', space.id).where('changeRequestId', 'is', null).execute();
    const byId = new Map(history.map((revision) => [revision.id, revision]));
    const { headRevisionId } = await t.db.selectFrom('spaces').select('headRevisionId').where('id', '=', space.id).executeTakeFirstOrThrow();
    const line: string[] = [];
    for (let id: string | undefined = headRevisionId; id && byId.has(id); id = byId.get(id)!.parentIds[0]) line.push(byId.get(id)!.type);
    expect(line).toHaveLength(history.length);
    expect(line.slice(0, 4).sort()).toEqual(['edits', 'merge', 'merge', 'merge']);
    expect(await counters(admin, space.id)).toEqual(await countedFromRows(t, space.id));
    expect(await counters(admin, space.id)).toEqual({ changeRequests: 3, open: 0, draft: 0 });
  });

  it('merging one request twice at once: one merge, one 409', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const cr = await createCr(admin, space.id);
    await editCr(admin, space.id, cr.id, [{ type: 'insert_page', title: 'Once' }]);
    const results = await Promise.all([1, 2].map(() => admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge', crPath(space.id, cr.id))));
    expect(results.map((r) => r.response.status).sort()).toEqual([200, 409]);
    expect(await t.db.selectFrom('revisions').select('id').where('spaceId', '=', space.id).where('type', '=', 'merge').execute()).toHaveLength(1);
    expect(await counters(admin, space.id)).toEqual({ changeRequests: 1, open: 0, draft: 0 });
  });
});

describe('POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/update', () => {
  const update = (user: { client: ReturnType<TestServer['client']> }, spaceId: string, id: string) =>
    user.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update', crPath(spaceId, id));

  // 401, a malformed id, a stranger's 404 and the 403 below edit are the sweep's and the matrix's.
  it('404 for an unknown request, with the error body', async () => {
    const t = server();
    const { admin, space } = await world(t);
    expectRefusal(await update(admin, space.id, '9'), 404, 'Change request not found');
  });

  it('403 on a locked space; 409 for archived and merged requests', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const cr = await createCr(admin, space.id);
    await admin.client.PATCH('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } }, body: { editMode: 'locked' } });
    expect((await update(admin, space.id, cr.id)).response.status).toBe(403);
    await admin.client.PATCH('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } }, body: { editMode: 'live' } });
    await admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath(space.id, cr.id), body: { status: 'archived' } });
    const archived = await update(admin, space.id, cr.id);
    expect(archived.response.status).toBe(409);
    expect(archived.error?.error.message).toBe('The change request is archived: it cannot be updated');
    await admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath(space.id, cr.id), body: { status: 'open' } });
    await mergeCr(admin, space.id, cr.id);
    expect((await update(admin, space.id, cr.id)).response.status).toBe(409);
  });

  it('writes nothing when the space did not move; else an update revision [T, O] that becomes the head', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    const editor = await createMember(t, organization, 'edit');
    const cr = await createCr(editor, space.id);
    const written = await editCr(editor, space.id, cr.id, [{ type: 'insert_page', title: 'Proposed' }]);
    expect(await mergeCr(editor, space.id, cr.id, 'update')).toEqual({ revision: written.revision, result: 'update', conflicts: [] });

    const direct = await edit(admin, space.id, [{ type: 'insert_page', title: 'Direct' }]);
    const updated = await mergeCr(editor, space.id, cr.id, 'update');
    expect(updated).toEqual({ revision: expect.any(String), result: 'update', conflicts: [] });
    const { data: request } = await editor.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, cr.id));
    expect(request).toMatchObject({ revision: updated.revision, revisionMergedAncestor: direct.revision, revisionInitial: space.headRevisionId, outdated: false });
    const { data: content } = await editor.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', crPath(space.id, cr.id));
    expect(content).toMatchObject({ id: updated.revision, type: 'update', parents: [written.revision, direct.revision], changeRequest: cr.id });
    expect(content!.pages.map((page) => page.title)).toEqual(['Direct', 'Proposed']);
    // The space's head did not move.
    expect((await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).data!.revision).toBe(direct.revision);
  });
});

describe('merges that would nest pages deeper than the limit', () => {
  const chainOf = (name: string, length: number): Change[] =>
    Array.from({ length }, (_, i) => ({ type: 'insert_page', title: `${name}${i + 1}`, ref: `${name}${i + 1}`, ...(i > 0 ? { parent: { ref: `${name}${i}` } } : {}) }));

  it('are refused (409) by merge and update, nothing written; the request can move its pages and merge', async () => {
    const t = server();
    const { admin, space } = await world(t);
    // Three chains at the top level: a1…a30, b1…b20, c1…c20.
    const { refs } = await edit(admin, space.id, [...chainOf('a', 30), ...chainOf('b', 20)]);
    Object.assign(refs, (await edit(admin, space.id, chainOf('c', 20))).refs);
    const cr = await createCr(admin, space.id);
    // Each move fits on its side (b20 at depth 50; c20 at depth 40); together c15 would be the first page past the limit.
    await edit(admin, space.id, [{ type: 'update_page', page: refs.b1!, parent: refs.a30! }]);
    await editCr(admin, space.id, cr.id, [{ type: 'update_page', page: refs.c1!, parent: refs.b20! }]);

    const before = await contentRowCounts(t.db);
    const { data: spaceBefore } = await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    for (const action of ['merge', 'update'] as const) {
      const path = action === 'merge' ? '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge' : '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update';
      const { response, error } = await admin.client.POST(path, crPath(space.id, cr.id));
      expect(response.status).toBe(409);
      expect(error?.error.message).toMatch(
        new RegExp(`^The change request and the space cannot be combined: page "${refs.c15}" would be ${MAX_PAGE_DEPTH + 1} levels deep; pages nest at most ${MAX_PAGE_DEPTH} levels\\. Move pages`),
      );
    }
    expect(await contentRowCounts(t.db)).toEqual(before);
    const { data: request } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, cr.id));
    expect(request?.status).toBe('open');
    expect((await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).data!.revision).toBe(spaceBefore!.revision);

    // Under b5 instead, c20 ends at depth 30 + 5 + 20 = 55.
    await editCr(admin, space.id, cr.id, [{ type: 'update_page', page: refs.c1!, parent: refs.b5! }]);
    expect((await mergeCr(admin, space.id, cr.id)).result).toBe('merge');
    const { data: page } = await admin.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId: space.id, pageId: refs.c20! } } });
    expect(page!.path.split('/')).toHaveLength(55);
  });
});
