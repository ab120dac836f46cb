import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace, createUser } from '../support/factories.js';
import { contentRowCounts, DEFAULT_LAYOUT, edit, expectedPage, pngBytes, type Change } from '../support/content.js';
import { MAX_PAGE_DEPTH, MAX_PAGE_PATH_LENGTH } from '../../src/content/page-placement.js';

// A small file cap so the 413 is cheap to reach.
const MAX_FILE_BYTES = 4096;
const server = useTestServer({ env: { MAX_FILE_BYTES: String(MAX_FILE_BYTES) } });

// A local origin for files given by URL (the harness allows loopback fetches).
let origin: Server;
let originUrl: string;
beforeAll(async () => {
  origin = createServer((req, res) => {
    if (req.url === '/logo.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(pngBytes(64, 32));
    if (req.url === '/big') return res.writeHead(200).end(Buffer.alloc(MAX_FILE_BYTES + 1));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => origin.close(resolve)));

async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization, { title: 'Docs' });
  return { admin, organization, space };
}

function post(user: { client: ReturnType<TestServer['client']> }, spaceId: string, changes: Change[]) {
  return user.client.POST('/v1/spaces/{spaceId}/content', { params: { path: { spaceId } }, body: { changes } });
}

async function headRevision(t: TestServer, spaceId: string): Promise<string> {
  return (await t.db.selectFrom('spaces').select('headRevisionId').where('id', '=', spaceId).executeTakeFirstOrThrow()).headRevisionId;
}

describe('POST /v1/spaces/{spaceId}/content', () => {
  it('400 naming each invalid change, and nothing is written', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const before = await contentRowCounts(t.db);
    const { error, response } = await post(admin, space.id, [
      { type: 'insert_page', title: '' },
      { type: 'rename_page' } as never,
      { type: 'update_page', page: 'p', hidden: 'yes' } as never,
      { type: 'insert_page', title: 'x', slug: 'Not A Slug' },
      { type: 'update_page', page: 'p' } as never,
    ]);
    expect(response.status).toBe(400);
    expect(error?.error.issues?.map((issue) => issue.path)).toEqual([
      '/body/changes/0/title',
      '/body/changes/1',
      '/body/changes/2/hidden',
      '/body/changes/3/slug',
      '/body/changes/4',
    ]);
    const empty = await admin.client.POST('/v1/spaces/{spaceId}/content', { params: { path: { spaceId: space.id } }, body: { changes: [] } });
    expect(empty.error?.error.issues).toEqual([expect.objectContaining({ path: '/body/changes' })]);
    const tooMany = Array.from({ length: 51 }, (): Change => ({ type: 'insert_page', title: 'x' }));
    expect((await post(admin, space.id, tooMany)).response.status).toBe(400);
    expect(await contentRowCounts(t.db)).toEqual(before);
  });

  it('400 for an unknown page, a move under its own descendant or a file without bytes; nothing is written', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const { refs, revision } = await edit(admin, space.id, [
      { type: 'insert_page', title: 'Parent', ref: 'parent' },
      { type: 'insert_page', title: 'Child', parent: { ref: 'parent' }, ref: 'child' },
    ]);
    const before = await contentRowCounts(t.db);
    const cases: Array<[Change[], string, RegExp]> = [
      [[{ type: 'update_page', page: 'unknownPage', title: 'x' }], '/body/changes/0/page', /no page "unknownPage"/],
      [[{ type: 'insert_page', title: 'A' }, { type: 'update_page', page: refs.parent!, parent: refs.child! }], '/body/changes/1/parent', /under itself or one of its descendants/],
      [[{ type: 'insert_file', name: 'empty.bin' }], '/body/changes/0', /exactly one of base64 and url/],
      [[{ type: 'insert_file', name: 'a.txt', base64: 'not base64!' }], '/body/changes/0/base64', /base64/],
      [[{ type: 'insert_file', name: 'a.png', url: `${originUrl}/missing` }], '/body/changes/0/url', /answered 404/],
      [[{ type: 'insert_page', title: 'G', pageType: 'group', markdown: 'body' }], '/body/changes/0/markdown', /group has no body/],
      [[{ type: 'insert_page', title: 'Late', parent: refs.parent!, index: 5 }], '/body/changes/0/index', /at most 1/],
    ];
    for (const [changes, path, message] of cases) {
      const { error, response } = await post(admin, space.id, changes);
      expect(response.status, path).toBe(400);
      expect(error?.error.issues).toEqual([{ path, message: expect.stringMatching(message) }]);
    }
    expect(await contentRowCounts(t.db)).toEqual(before);
    expect(await headRevision(t, space.id)).toBe(revision);
  });

  it('404 for a space of another organization or without a role on it', async () => {
    const t = server();
    const { organization, space } = await world(t);
    const stranger = await createUser(t);
    expect((await post(stranger, space.id, [{ type: 'insert_page', title: 'A' }])).response.status).toBe(404);
    const guest = await createMember(t, organization, null);
    const { error, response } = await post(guest, space.id, [{ type: 'insert_page', title: 'A' }]);
    expect(response.status).toBe(404);
    expect(error?.error.message).toBe('Space not found');
  });

  it('403 below the edit role, and on a locked space', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    const reader = await createMember(t, organization, 'read');
    const commenter = await createMember(t, organization, 'comment');
    for (const member of [reader, commenter]) {
      const { error, response } = await post(member, space.id, [{ type: 'insert_page', title: 'A' }]);
      expect(response.status).toBe(403);
      expect(error?.error.message).toMatch(/"edit"/);
    }
    await admin.client.PATCH('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } }, body: { editMode: 'locked' } });
    const locked = await post(admin, space.id, [{ type: 'insert_page', title: 'A' }]);
    expect(locked.response.status).toBe(403);
    expect(locked.error?.error.message).toMatch(/locked/);
    const editor = await createMember(t, organization, 'edit');
    await admin.client.PATCH('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } }, body: { editMode: 'live' } });
    expect((await post(editor, space.id, [{ type: 'insert_page', title: 'A' }])).response.status).toBe(200);
  });

  it('409 for a slug a sibling has, and nothing is written', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const { refs } = await edit(admin, space.id, [
      { type: 'insert_page', title: 'Install', ref: 'install' },
      { type: 'insert_page', title: 'Guide', ref: 'guide' },
    ]);
    const before = await contentRowCounts(t.db);
    const insert = await post(admin, space.id, [{ type: 'insert_page', title: 'New' }, { type: 'insert_page', title: 'Again', slug: 'install' }]);
    expect(insert.response.status).toBe(409);
    expect(insert.error?.error.message).toBe('/body/changes/1/slug: "install" is already the slug of a sibling page');
    expect((await post(admin, space.id, [{ type: 'update_page', page: refs.guide!, slug: 'install' }])).response.status).toBe(409);
    // Moving a page among siblings that use its slug collides as well.
    const { refs: nested } = await edit(admin, space.id, [{ type: 'insert_page', title: 'Install', parent: refs.guide!, ref: 'nested' }]);
    const move = await post(admin, space.id, [{ type: 'update_page', page: nested.nested!, parent: null }]);
    expect(move.response.status).toBe(409);
    expect(move.error?.error.message).toMatch(/^\/body\/changes\/0\/parent:/);
    expect((await contentRowCounts(t.db)).spaceHeadPages).toBe(before.spaceHeadPages! + 1);
  });

  it('applies the batch as one new revision and answers the space, the revision and the refs', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const first = space.headRevisionId;
    const { data, response } = await post(admin, space.id, [
      { type: 'insert_page', title: 'Getting started', ref: 'start', emoji: '🚀', description: 'First steps', markdown: '# Welcome\r\n\r\nHello' },
      { type: 'insert_page', title: 'Install', parent: { ref: 'start' }, ref: 'install', hidden: true, noIndex: true, layout: { coverSize: 'full', outline: false } },
      { type: 'insert_file', name: 'logo.png', base64: pngBytes(8, 4).toString('base64'), ref: 'logo' },
      { type: 'insert_page', title: 'Reference', pageType: 'group', cover: { ref: { kind: 'file', file: { ref: 'logo' } }, yPos: 12 } },
    ]);
    expect(response.status).toBe(200);
    expect(data).toEqual({
      space: expect.objectContaining({ id: space.id, object: 'space', revision: data!.revision }),
      revision: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      refs: { start: expect.any(String), install: expect.any(String), logo: expect.any(String) },
    });
    expect(data!.revision).not.toBe(first);

    const { data: content } = await admin.client.GET('/v1/spaces/{spaceId}/content', { params: { path: { spaceId: space.id } } });
    const { start, install, logo } = data!.refs as Record<string, string>;
    expect(content).toEqual({
      object: 'revision',
      type: 'edits',
      id: data!.revision,
      parents: [first],
      createdAt: expect.any(String),
      urls: { app: `http://app.test/s/${space.id}/~/revisions/${data!.revision}` },
      pages: [
        expectedPage(space.id, {
          id: start!,
          title: 'Getting started',
          emoji: '🚀',
          slug: 'getting-started',
          path: 'getting-started',
          description: 'First steps',
          documentId: expect.stringMatching(/^[0-9a-f]{64}$/),
          pages: [
            expectedPage(space.id, {
              id: install!,
              title: 'Install',
              slug: 'install',
              path: 'getting-started/install',
              hidden: true,
              noIndex: true,
              layout: { ...DEFAULT_LAYOUT, coverSize: 'full', outline: false },
            }),
          ],
        }),
        expectedPage(space.id, {
          id: expect.any(String),
          title: 'Reference',
          type: 'group',
          slug: 'reference',
          path: 'reference',
          cover: { ref: { kind: 'file', file: logo! }, yPos: 12 },
        }),
      ],
      files: [{ id: logo, name: 'logo.png', contentType: 'image/png', size: pngBytes(8, 4).length, dimensions: { width: 8, height: 4 }, downloadURL: expect.stringMatching(/^http:\/\/api\.test\/files\/[A-Za-z0-9_-]+$/) }],
      reusableContents: [],
    });
    const page = await admin.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId: space.id, pageId: start! } } });
    expect(page.data?.markdown).toBe('# Welcome\n\nHello\n');
    const revisions = await t.db.selectFrom('revisions').select(['id', 'type', 'parentIds', 'createdBy', 'pageCount']).where('spaceId', '=', space.id).execute();
    expect(revisions).toHaveLength(2);
    expect(revisions).toContainEqual({ id: data!.revision, type: 'edits', parentIds: [first], createdBy: admin.user.id, pageCount: 3 });
  });

  it('updates fields (null removes), moves, reorders and deletes pages', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const { refs } = await edit(admin, space.id, [
      { type: 'insert_page', title: 'A', ref: 'a', emoji: '📘', description: 'About A', markdown: 'old' },
      { type: 'insert_page', title: 'B', ref: 'b' },
      { type: 'insert_page', title: 'B1', parent: { ref: 'b' }, ref: 'b1' },
      { type: 'insert_page', title: 'C', ref: 'c' },
    ]);
    await edit(admin, space.id, [
      { type: 'update_page', page: refs.a!, title: 'A renamed', slug: 'alpha', emoji: null, description: null, markdown: 'new body', noRobotsIndex: true },
      { type: 'update_page', page: refs.c!, index: 0 },
      { type: 'update_page', page: refs.b1!, parent: refs.a!, index: 0 },
      { type: 'delete_page', page: refs.b! },
    ]);
    const { data } = await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
    expect(data?.pages.map((p) => [p.title, p.path, p.pages.map((c) => c.path)])).toEqual([
      ['C', 'c', []],
      ['A renamed', 'alpha', ['alpha/b1']],
    ]);
    const a = data!.pages[1]!;
    expect(a).not.toHaveProperty('emoji');
    expect(a).not.toHaveProperty('description');
    expect(a.noRobotsIndex).toBe(true);
    expect(a.updatedAt > a.createdAt).toBe(true);
    const body = await admin.client.GET('/v1/spaces/{spaceId}/content/path/{pagePath}', { params: { path: { spaceId: space.id, pagePath: 'alpha' } } });
    expect(body.data?.markdown).toBe('new body\n');
    expect((await admin.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId: space.id, pageId: refs.b! } } })).response.status).toBe(404);
  });

  it('stores files from base64 or a URL, content-addressed, and caps their size (413)', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const png = pngBytes(64, 32);
    const { refs } = await edit(admin, space.id, [
      { type: 'insert_file', name: 'from-url.png', url: `${originUrl}/logo.png`, ref: 'url' },
      { type: 'insert_file', name: 'same-bytes.png', contentType: 'image/x-custom', base64: png.toString('base64'), ref: 'b64' },
      { type: 'insert_file', name: 'notes.txt', base64: Buffer.from('plain').toString('base64'), ref: 'txt' },
    ]);
    const { data } = await admin.client.GET('/v1/spaces/{spaceId}/content/files', { params: { path: { spaceId: space.id } } });
    expect(data?.items.map((f) => ({ ...f, downloadURL: undefined }))).toEqual([
      { id: refs.url, name: 'from-url.png', contentType: 'image/png', size: png.length, dimensions: { width: 64, height: 32 }, downloadURL: undefined },
      { id: refs.txt, name: 'notes.txt', contentType: 'application/octet-stream', size: 5, downloadURL: undefined },
      { id: refs.b64, name: 'same-bytes.png', contentType: 'image/x-custom', size: png.length, dimensions: { width: 64, height: 32 }, downloadURL: undefined },
    ]);
    // Equal bytes are stored once.
    expect(await t.db.selectFrom('blobBytes').select('sha256').where('organizationId', '=', space.organizationId).execute()).toHaveLength(2);

    const big = Buffer.alloc(MAX_FILE_BYTES + 1).toString('base64');
    for (const change of [
      { type: 'insert_file', name: 'big.bin', base64: big },
      { type: 'insert_file', name: 'big.bin', url: `${originUrl}/big` },
    ] as Change[]) {
      const { error, response } = await post(admin, space.id, [change]);
      expect(response.status).toBe(413);
      expect(error?.error.message).toMatch(/limited to 4096 bytes/);
    }
  });

  it('deletes files from the head (history keeps them), but not a page cover (409)', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const first = await edit(admin, space.id, [
      { type: 'insert_file', name: 'old.txt', base64: Buffer.from('old').toString('base64'), ref: 'old' },
      { type: 'insert_file', name: 'cover.png', base64: pngBytes(8, 8).toString('base64'), ref: 'cover' },
      { type: 'insert_page', title: 'Home', cover: { ref: { kind: 'file', file: { ref: 'cover' } } }, ref: 'home' },
    ]);
    const fileRead = (fileId: string) => admin.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}', { params: { path: { spaceId: space.id, fileId } } });
    const oldDownload = (await fileRead(first.refs.old!)).data!.downloadURL;

    const removed = await edit(admin, space.id, [{ type: 'delete_file', file: first.refs.old! }]);
    expect((await fileRead(first.refs.old!)).response.status).toBe(404);
    const { data: files } = await admin.client.GET('/v1/spaces/{spaceId}/content/files', { params: { path: { spaceId: space.id } } });
    expect(files?.items.map((file) => file.name)).toEqual(['cover.png']);
    const revision = (revisionId: string) => admin.client.GET('/v1/spaces/{spaceId}/revisions/{revisionId}', { params: { path: { spaceId: space.id, revisionId } } });
    expect((await revision(first.revision)).data?.files.map((file) => file.name)).toEqual(['cover.png', 'old.txt']);
    expect((await revision(removed.revision)).data?.files.map((file) => file.name)).toEqual(['cover.png']);
    // An address handed out before the deletion still serves the bytes: history keeps them.
    expect(await (await fetch(oldDownload.replace('http://api.test', t.url))).text()).toBe('old');

    const head = await headRevision(t, space.id);
    const { error, response } = await post(admin, space.id, [{ type: 'delete_file', file: first.refs.cover! }]);
    expect(response.status).toBe(409);
    expect(error?.error.message).toContain(`is the cover of page "${first.refs.home}"`);
    expect(await headRevision(t, space.id)).toBe(head);
    const unknown = await post(admin, space.id, [{ type: 'delete_file', file: first.refs.old! }]);
    expect(unknown.response.status).toBe(400);
    expect(unknown.error?.error.issues).toEqual([expect.objectContaining({ path: '/body/changes/0/file' })]);

    await edit(admin, space.id, [
      { type: 'update_page', page: first.refs.home!, cover: null },
      { type: 'delete_file', file: first.refs.cover! },
    ]);
    expect((await fileRead(first.refs.cover!)).response.status).toBe(404);
  });

  it('stores reusable contents and returns them in revisions', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const { refs } = await edit(admin, space.id, [
      { type: 'upsert_reusable_content', title: 'Warning', markdown: 'Be careful.', ref: 'warning' },
      { type: 'upsert_reusable_content', title: 'Footer', markdown: 'Bye', ref: 'footer' },
    ]);
    await edit(admin, space.id, [
      { type: 'upsert_reusable_content', reusableContent: refs.warning!, title: 'Warning!', markdown: 'Be very careful.' },
      { type: 'delete_reusable_content', reusableContent: refs.footer! },
    ]);
    const { data } = await admin.client.GET('/v1/spaces/{spaceId}/content', { params: { path: { spaceId: space.id } } });
    expect(data?.reusableContents).toEqual([
      { id: refs.warning, title: 'Warning!', document: { id: expect.stringMatching(/^[0-9a-f]{64}$/), markdown: 'Be very careful.\n' } },
    ]);
    const unknown = await post(admin, space.id, [{ type: 'delete_reusable_content', reusableContent: refs.footer! }]);
    expect(unknown.error?.error.issues).toEqual([{ path: '/body/changes/0/reusableContent', message: expect.stringMatching(/no reusable content/) }]);
  });
});

describe('page placement limits (POST /v1/spaces/{spaceId}/content)', () => {
  /** Pages one below the other under `parent`, refs `${prefix}1`…, in batches of at most 50. */
  async function nest(user: Awaited<ReturnType<typeof world>>['admin'], spaceId: string, parent: string | null, count: number, slug?: (i: number) => string): Promise<string[]> {
    const ids: string[] = [];
    for (let start = 0; start < count; start += 50) {
      const changes: Change[] = [];
      for (let i = start; i < Math.min(count, start + 50); i++) {
        const above = i === start ? (i === 0 ? parent : ids[i - 1]!) : { ref: `n${i - 1}` };
        changes.push({ type: 'insert_page', title: `Level ${i + 1}`, ref: `n${i}`, ...(slug ? { slug: slug(i) } : {}), ...(above === null ? {} : { parent: above }) });
      }
      const { refs } = await edit(user, spaceId, changes);
      for (let i = start; i < Math.min(count, start + 50); i++) ids.push(refs[`n${i}`]!);
    }
    return ids;
  }

  /** How many levels of pages a read shows. */
  function levels(pages: Array<{ pages?: unknown[] }>): number {
    let depth = 0;
    for (let level = pages; level.length > 0; level = level.flatMap((page) => (page.pages ?? []) as Array<{ pages?: unknown[] }>)) depth++;
    return depth;
  }

  it(`accepts pages ${MAX_PAGE_DEPTH} levels deep; one level deeper, or a subtree moved too deep, is a 400 and nothing is written`, async () => {
    const t = server();
    const { admin, space } = await world(t);
    const chain = await nest(admin, space.id, null, MAX_PAGE_DEPTH);
    const { data } = await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
    expect(levels(data!.pages)).toBe(MAX_PAGE_DEPTH);
    const { refs } = await edit(admin, space.id, [
      { type: 'insert_page', title: 'Two levels', ref: 'top' },
      { type: 'insert_page', title: 'Below', parent: { ref: 'top' } },
    ]);

    const before = await contentRowCounts(t.db);
    const head = await headRevision(t, space.id);
    const deeper = await post(admin, space.id, [{ type: 'insert_page', title: 'Too deep', parent: chain[MAX_PAGE_DEPTH - 1]! }]);
    expect(deeper.response.status).toBe(400);
    expect(deeper.error?.error.issues).toEqual([
      { path: '/body/changes/0/parent', message: `the new page would be ${MAX_PAGE_DEPTH + 1} levels deep; pages nest at most ${MAX_PAGE_DEPTH} levels` },
    ]);
    // The moved page's own subtree counts: two levels fit under level 62, not under level 63.
    const moved = await post(admin, space.id, [{ type: 'update_page', page: refs.top!, parent: chain[MAX_PAGE_DEPTH - 2]! }]);
    expect(moved.response.status).toBe(400);
    expect(moved.error?.error.issues).toEqual([{ path: '/body/changes/0/parent', message: expect.stringMatching(new RegExp(`^page "\\w+" would be ${MAX_PAGE_DEPTH + 1} levels deep`)) }]);
    expect(await contentRowCounts(t.db)).toEqual(before);
    expect(await headRevision(t, space.id)).toBe(head);

    await edit(admin, space.id, [{ type: 'update_page', page: refs.top!, parent: chain[MAX_PAGE_DEPTH - 3]! }]);
    const { data: after } = await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
    expect(levels(after!.pages)).toBe(MAX_PAGE_DEPTH);
  });

  it(`accepts a path of ${MAX_PAGE_PATH_LENGTH} characters, refuses one more (400) instead of failing to index it`, async () => {
    const t = server();
    const { admin, space } = await world(t);
    // 20 levels of 100-character slugs that do not compress: a path of 2,019 characters.
    const slug = (i: number) => (createHash('sha256').update(`a${i}`).digest('hex') + createHash('sha256').update(`b${i}`).digest('hex')).slice(0, 100);
    const chain = await nest(admin, space.id, null, 20, slug);
    const room = MAX_PAGE_PATH_LENGTH - (20 * 101 - 1) - 1;
    const before = await contentRowCounts(t.db);
    const tooLong = await post(admin, space.id, [{ type: 'insert_page', title: 'Leaf', slug: 'y'.repeat(room + 1), parent: chain[19]! }]);
    expect(tooLong.response.status).toBe(400);
    expect(tooLong.error?.error.issues).toEqual([
      { path: '/body/changes/0/parent', message: `the new page would have a path of ${MAX_PAGE_PATH_LENGTH + 1} characters; paths are at most ${MAX_PAGE_PATH_LENGTH} characters` },
    ]);
    expect(await contentRowCounts(t.db)).toEqual(before);

    const { refs } = await edit(admin, space.id, [{ type: 'insert_page', title: 'Leaf', slug: 'y'.repeat(room), parent: chain[19]!, ref: 'leaf' }]);
    const indexed = await t.db.selectFrom('spaceHeadPages').select('path').where('spaceId', '=', space.id).where('pageId', '=', refs.leaf!).executeTakeFirstOrThrow();
    expect(indexed.path).toHaveLength(MAX_PAGE_PATH_LENGTH);
  });
});
