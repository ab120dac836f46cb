import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace, createUser, grant, type TestUser } from '../support/factories.js';
import { edit, expectedPage, pngBytes } from '../support/content.js';
import type { SpaceRow } from '../../src/access/standing.repository.js';
import { newId } from '../../src/ids.js';
import { PageTreeEditor } from '../../src/content/editors.js';
import { MAX_PAGE_DEPTH } from '../../src/content/page-placement.js';
import { writeRevision } from '../../src/content/revision-writer.js';
import { spaceHeadPointer } from '../../src/content/space-head.js';
import { expectRefusal } from '../support/refusals.js';

const server = useTestServer();

// One space with content, an outsider and a reader, shared by the reads.
let admin: TestUser;
let reader: TestUser;
let outsider: TestUser;
let space: SpaceRow;
let refs: Record<string, string>;
let firstRevision: string;
let secondRevision: string;

beforeAll(async () => {
  const t = server();
  const created = await createOrganizationWithAdmin(t);
  admin = created.admin;
  space = await createSpace(t, admin, created.organization, { title: 'Handbook' });
  reader = await createMember(t, created.organization, null);
  await grant(t, { kind: 'space', item: space }, { user: reader }, 'read');
  outsider = await createUser(t);
  const first = await edit(admin, space.id, [
    { type: 'insert_page', title: 'Guides', ref: 'guides', markdown: '# Guides\n\n| a | b |\n|---|---|\n| 1 | 2 |' },
    { type: 'insert_page', title: 'Install', slug: 'install', parent: { ref: 'guides' }, ref: 'install', markdown: 'Run `npm i`.' },
    { type: 'insert_page', title: 'Sections', pageType: 'group', ref: 'group' },
    ...['b.png', 'a.png', 'c.txt'].map((name, i) => ({ type: 'insert_file' as const, name, base64: pngBytes(i + 1, i + 2).toString('base64'), ref: name })),
  ]);
  firstRevision = first.revision;
  refs = first.refs;
  secondRevision = (await edit(admin, space.id, [{ type: 'update_page', page: refs.install!, title: 'Installation', markdown: 'Run `pnpm i`.' }])).revision;
});

const spacePath = () => ({ spaceId: space.id });

describe('GET /v1/spaces/{spaceId}/content', () => {
  it('400 for an invalid parameter', async () => {
    const { error } = await admin.client.GET('/v1/spaces/{spaceId}/content', { params: { path: spacePath(), query: { metadata: 'maybe' as never } } });
    expect(error?.error.issues).toEqual([expect.objectContaining({ path: '/query/metadata' })]);
  });

  it('answers the head revision (no page bodies) to a reader, whatever metadata and computed say', async () => {
    const { data } = await reader.client.GET('/v1/spaces/{spaceId}/content', { params: { path: spacePath() } });
    expect(data).toMatchObject({ object: 'revision', type: 'edits', id: secondRevision, parents: [firstRevision] });
    expect(data?.pages).toEqual([
      expectedPage(space.id, {
        id: refs.guides!,
        title: 'Guides',
        slug: 'guides',
        path: 'guides',
        documentId: expect.any(String),
        pages: [expectedPage(space.id, { id: refs.install!, title: 'Installation', slug: 'install', path: 'guides/install', documentId: expect.any(String) })],
      }),
      expectedPage(space.id, { id: refs.group!, title: 'Sections', type: 'group', slug: 'sections', path: 'sections' }),
    ]);
    expect(data?.files.map((file) => file.name)).toEqual(['a.png', 'b.png', 'c.txt']);
    const plain = await reader.client.GET('/v1/spaces/{spaceId}/content', { params: { path: spacePath(), query: { metadata: false, computed: false } } });
    expect(plain.data).toEqual(data);
  });
});

describe('GET /v1/spaces/{spaceId}/revisions/{revisionId}', () => {
  const path = (revisionId: string) => ({ spaceId: space.id, revisionId });

  it('400 for a malformed id', async () => {
    const { response } = await admin.client.GET('/v1/spaces/{spaceId}/revisions/{revisionId}', { params: { path: path('bad id') } });
    expect(response.status).toBe(400);
  });

  it('404 for another organization, and for a revision of another space', async () => {
    expect((await outsider.client.GET('/v1/spaces/{spaceId}/revisions/{revisionId}', { params: { path: path(firstRevision) } })).response.status).toBe(404);
    const other = await createSpace(server(), admin, { id: space.organizationId });
    const { error, response } = await admin.client.GET('/v1/spaces/{spaceId}/revisions/{revisionId}', { params: { path: { spaceId: other.id, revisionId: firstRevision } } });
    expect(response.status).toBe(404);
    expect(error?.error.message).toBe('Revision not found');
  });

  it('answers past revisions as they were (immutable)', async () => {
    const { data } = await reader.client.GET('/v1/spaces/{spaceId}/revisions/{revisionId}', { params: { path: path(firstRevision) } });
    expect(data?.id).toBe(firstRevision);
    expect(data?.pages[0]?.pages[0]).toMatchObject({ id: refs.install, title: 'Install' });
    const { data: empty } = await reader.client.GET('/v1/spaces/{spaceId}/revisions/{revisionId}', { params: { path: path(space.headRevisionId) } });
    expect(empty).toEqual({
      object: 'revision',
      type: 'edits',
      id: space.headRevisionId,
      parents: [],
      pages: [],
      files: [],
      reusableContents: [],
      createdAt: expect.any(String),
      urls: { app: `http://app.test/s/${space.id}/~/revisions/${space.headRevisionId}` },
    });
  });
});

describe('GET /v1/spaces/{spaceId}/content/pages', () => {
  it('400 for an unknown parameter', async () => {
    expect((await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: spacePath(), query: { limit: 5 } as never } })).response.status).toBe(400);
  });


  it('answers the head page tree', async () => {
    const { data } = await reader.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: spacePath() } });
    const { data: content } = await reader.client.GET('/v1/spaces/{spaceId}/content', { params: { path: spacePath() } });
    expect(data).toEqual({ pages: content!.pages });
  });
});

describe('GET /v1/spaces/{spaceId}/content/page/{pageId}', () => {
  const path = (pageId: string) => ({ spaceId: space.id, pageId });

  it('400 for an unknown format', async () => {
    const { error } = await admin.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: path(refs.guides!), query: { format: 'html' as never } } });
    expect(error?.error.issues).toEqual([expect.objectContaining({ path: '/query/format' })]);
  });

  it('404 for another organization and for an unknown page', async () => {
    expect((await outsider.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: path(refs.guides!) } })).response.status).toBe(404);
    const { error } = await admin.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: path('nosuchpage') } });
    expect(error?.error).toEqual({ code: 404, message: 'Page not found' });
  });

  it('answers the page with its body and its descendants without theirs', async () => {
    const { data } = await reader.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: path(refs.guides!) } });
    expect(data).toEqual(
      expectedPage(space.id, {
        id: refs.guides!,
        title: 'Guides',
        slug: 'guides',
        path: 'guides',
        documentId: expect.any(String),
        markdown: '# Guides\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
        pages: [expectedPage(space.id, { id: refs.install!, title: 'Installation', slug: 'install', path: 'guides/install', documentId: expect.any(String) })],
      }),
    );
    const group = await reader.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: path(refs.group!) } });
    expect(group.data).not.toHaveProperty('markdown');
  });

  it('answers the body as an mdast tree with format=document', async () => {
    const { data } = await reader.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: path(refs.guides!), query: { format: 'document' } } });
    expect(data).not.toHaveProperty('markdown');
    expect(data?.document).toEqual({
      type: 'root',
      children: [
        { type: 'heading', depth: 1, children: [{ type: 'text', value: 'Guides' }] },
        expect.objectContaining({ type: 'table', align: [null, null], children: expect.any(Array) }),
      ],
    });
  });
});

describe('GET /v1/spaces/{spaceId}/content/path/{pagePath}', () => {
  const path = (pagePath: string) => ({ spaceId: space.id, pagePath });

  it('400 for a path that cannot be a page path', async () => {
    const { error } = await admin.client.GET('/v1/spaces/{spaceId}/content/path/{pagePath}', { params: { path: path('Guides/../x') } });
    expect(error?.error.issues).toEqual([expect.objectContaining({ path: '/path/pagePath' })]);
  });

  it('404 for an unknown path, with the error body', async () => {
    expectRefusal(await admin.client.GET('/v1/spaces/{spaceId}/content/path/{pagePath}', { params: { path: path('guides/missing') } }), 404, 'Page not found');
  });

  it('answers the page at a nested path given as one encoded segment', async () => {
    const response = await fetch(`${server().url}/v1/spaces/${space.id}/content/path/guides%2Finstall`, { headers: { authorization: `Bearer ${reader.token}` } });
    const { data: byId } = await reader.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId: space.id, pageId: refs.install! } } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(byId);
    expect(byId).toMatchObject({ title: 'Installation', markdown: 'Run `pnpm i`.\n' });
  });
});

describe('GET /v1/spaces/{spaceId}/content/files', () => {
  it('400 for a foreign cursor', async () => {
    const { error } = await admin.client.GET('/v1/spaces/{spaceId}/content/files', { params: { path: spacePath(), query: { page: 'forged.cursor' } } });
    expect(error?.error.issues).toEqual([expect.objectContaining({ path: '/query/page' })]);
  });


  it('lists the head files by name, in pages', async () => {
    const first = await reader.client.GET('/v1/spaces/{spaceId}/content/files', { params: { path: spacePath(), query: { limit: 2 } } });
    expect(first.data).toEqual({
      count: 3,
      next: { page: expect.any(String) },
      items: [
        { id: refs['a.png'], name: 'a.png', contentType: 'image/png', size: 33, dimensions: { width: 2, height: 3 }, downloadURL: expect.stringMatching(/^http:\/\/api\.test\/files\//) },
        { id: refs['b.png'], name: 'b.png', contentType: 'image/png', size: 33, dimensions: { width: 1, height: 2 }, downloadURL: expect.any(String) },
      ],
    });
    const second = await reader.client.GET('/v1/spaces/{spaceId}/content/files', { params: { path: spacePath(), query: { limit: 2, page: first.data!.next!.page } } });
    expect(second.data?.items.map((file) => file.name)).toEqual(['c.txt']);
    expect(second.data?.next).toBeUndefined();
  });
});

describe('GET /v1/spaces/{spaceId}/content/files/{fileId}', () => {
  const path = (fileId: string) => ({ spaceId: space.id, fileId });

  it('400 for a malformed id', async () => {
    expect((await admin.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}', { params: { path: path('bad id') } })).response.status).toBe(400);
  });

  it('404 for an unknown file, with the error body', async () => {
    expectRefusal(await admin.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}', { params: { path: path('nosuchfile') } }), 404, 'File not found');
  });

  it('answers the file as the revision lists it', async () => {
    const { data } = await reader.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}', { params: { path: path(refs['c.txt']!) } });
    const { data: content } = await reader.client.GET('/v1/spaces/{spaceId}/content', { params: { path: spacePath() } });
    expect(data).toEqual(content!.files.find((file) => file.id === refs['c.txt']));
    expect(data).toMatchObject({ name: 'c.txt', contentType: 'image/png', dimensions: { width: 3, height: 4 } });
  });
});

describe('a page tree stored deeper than the nesting limit', () => {
  // Deep enough that the recursive mapper overflowed the stack (reads answered 500 from ~1,450 levels).
  const DEPTH = 2500;
  let deep: SpaceRow;
  let owner: TestUser;
  const chain: string[] = [];

  beforeAll(async () => {
    const t = server();
    const created = await createOrganizationWithAdmin(t);
    owner = created.admin;
    deep = await createSpace(t, owner, created.organization, { title: 'Deep' });
    // Through the content engine (tree editor, revision writer, head index) but not the batch engine,
    // as a tree written before the limit existed.
    for (let i = 0; i < DEPTH; i++) chain.push(newId());
    await writeRevision(
      t.context,
      spaceHeadPointer(deep),
      (base) => {
        const editor = new PageTreeEditor(base.pages);
        chain.forEach((id, i) =>
          editor.insert(i === 0 ? null : chain[i - 1]!, 0, {
            id, type: 'document', title: `Level ${i + 1}`, slug: 'p', hidden: false, noIndex: false, noRobotsIndex: false,
            createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', documentHash: null, childrenHash: null,
          }),
        );
        const pages = editor.commit();
        return { state: { ...base, pages: pages.tree }, nodes: { pages: pages.nodes, files: [], reusables: [] }, documents: [], blobs: [] };
      },
      { type: 'edits', createdBy: null, parsing: { pool: t.context.parsing } },
    );
  });

  /** The pages of a read, level by level: each level's single page. */
  function levels(pages: Array<{ id: string; pages?: unknown[] }>): string[] {
    const ids: string[] = [];
    for (let level = pages; level.length > 0; level = level.flatMap((page) => (page.pages ?? []) as typeof pages)) ids.push(...level.map((page) => page.id));
    return ids;
  }

  it(`reads with 200, showing ${MAX_PAGE_DEPTH} levels from what is read`, async () => {
    const spaceId = deep.id;
    const content = await owner.client.GET('/v1/spaces/{spaceId}/content', { params: { path: { spaceId } } });
    expect(content.response.status).toBe(200);
    expect(levels(content.data!.pages)).toEqual(chain.slice(0, MAX_PAGE_DEPTH));
    const pages = await owner.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId } } });
    expect(pages.response.status).toBe(200);
    expect(pages.data!.pages).toEqual(content.data!.pages);
    const revision = await owner.client.GET('/v1/spaces/{spaceId}/revisions/{revisionId}', { params: { path: { spaceId, revisionId: content.data!.id } } });
    expect(revision.data!.pages).toEqual(content.data!.pages);

    const top = await owner.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId, pageId: chain[0]! } } });
    expect(top.response.status).toBe(200);
    expect(levels([top.data!])).toEqual(chain.slice(0, MAX_PAGE_DEPTH));
  });

  it('reads what lies further down through the pages at the last level shown, by id and by path', async () => {
    const spaceId = deep.id;
    const last = await owner.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId, pageId: chain[MAX_PAGE_DEPTH - 1]! } } });
    expect(levels([last.data!])).toEqual(chain.slice(MAX_PAGE_DEPTH - 1, 2 * MAX_PAGE_DEPTH - 1));
    const deepest = await owner.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId, pageId: chain[DEPTH - 1]! } } });
    expect(deepest.response.status).toBe(200);
    expect(deepest.data).toMatchObject({ id: chain[DEPTH - 1], path: Array(DEPTH).fill('p').join('/'), pages: [] });
    const byPath = await fetch(`${server().url}/v1/spaces/${spaceId}/content/path/${encodeURIComponent(Array(MAX_PAGE_DEPTH + 6).fill('p').join('/'))}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(byPath.status).toBe(200);
    expect(await byPath.json()).toMatchObject({ id: chain[MAX_PAGE_DEPTH + 5] });
  });

  it('stays editable where nothing is placed deeper, and refuses what would be', async () => {
    const spaceId = deep.id;
    const renamed = await owner.client.POST('/v1/spaces/{spaceId}/content', { params: { path: { spaceId } }, body: { changes: [{ type: 'update_page', page: chain[DEPTH - 1]!, title: 'Bottom' }] } });
    expect(renamed.response.status).toBe(200);
    const below = await owner.client.POST('/v1/spaces/{spaceId}/content', { params: { path: { spaceId } }, body: { changes: [{ type: 'insert_page', title: 'Below', parent: chain[DEPTH - 1]! }] } });
    expect(below.response.status).toBe(400);
    expect(below.error?.error.issues).toEqual([{ path: '/body/changes/0/parent', message: `the new page would be ${DEPTH + 1} levels deep; pages nest at most ${MAX_PAGE_DEPTH} levels` }]);
  });
});
