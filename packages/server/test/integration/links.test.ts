import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { edit, pngBytes } from '../support/content.js';
import { createCr, crPath, editCr, mergeCr } from '../support/change-requests.js';
import { createMember, createOrganizationWithAdmin, createSpace, createUser, type TestUser } from '../support/factories.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { zip } from '../support/zip.js';

const server = useTestServer();

const spaceLinks = (user: TestUser, spaceId: string, query: { status?: 'ok' | 'broken' | 'in-app'; limit?: number; page?: string } = {}) =>
  user.client.GET('/v1/spaces/{spaceId}/links', { params: { path: { spaceId }, query } });

async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const other = await createSpace(t, admin, organization, { title: 'Other' });
  const otherPages = await edit(admin, other.id, [{ type: 'insert_page', ref: 'p', title: 'Elsewhere', markdown: '# Far away\n\nText.' }]);
  const stranger = await createOrganizationWithAdmin(t);
  const foreign = await createSpace(t, stranger.admin, stranger.organization);
  const space = await createSpace(t, admin, organization, { title: 'Docs' });
  const first = await edit(admin, space.id, [
    { type: 'insert_file', ref: 'logo', name: 'logo.png', base64: pngBytes(2, 2).toString('base64') },
    { type: 'insert_page', ref: 'guides', title: 'Guides' },
    { type: 'insert_page', ref: 'setup', parent: { ref: 'guides' }, title: 'Setup', markdown: '# Usage\n\nUse it.' },
    { type: 'insert_page', ref: 'faq', parent: { ref: 'guides' }, title: 'FAQ', markdown: 'Answers.' },
  ]);
  const ids = first.refs as Record<'logo' | 'guides' | 'setup' | 'faq', string>;
  const otherPage = otherPages.refs.p!;
  const markdown = [
    `Read [setup](/pages/${ids.setup}#usage), [the FAQ](faq.md) and [nothing](/pages/nope).`,
    '',
    '## Images',
    '',
    `![logo](/files/${ids.logo}) ![gone](/files/nope) [site](https://example.com) [up](#images) [down](#nowhere)`,
    '',
    '## Elsewhere',
    '',
    `[space](/spaces/${other.id}) [page](/spaces/${other.id}/pages/${otherPage}#far-away) [lost](/spaces/${other.id}/pages/nope) [foreign](/spaces/${foreign.id})`,
  ].join('\n');
  const second = await edit(admin, space.id, [
    { type: 'insert_page', ref: 'home', parent: ids.guides, index: 0, title: 'Home', markdown, cover: { ref: { kind: 'file', file: ids.logo } } },
  ]);
  return { t, admin, organization, space, other, otherPage, foreign, ids: { ...ids, home: second.refs.home! } };
}

describe('GET /v1/spaces/{spaceId}/links', () => {
  it('400 for an unknown status; 404 for a space of another organization; 403 for a member disabled by SSO', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    const bad = await admin.client.GET('/v1/spaces/{spaceId}/links', { params: { path: { spaceId: space.id }, query: { status: 'dead' as 'ok' } } });
    expect(bad.error?.error.issues).toEqual([expect.objectContaining({ path: '/query/status' })]);
    expect((await spaceLinks(await createUser(t), space.id)).response.status).toBe(404);
    const member = await createMember(t, organization, 'admin');
    await sql`UPDATE organizations SET sso = true WHERE id = ${organization.id}`.execute(t.db);
    const reader = await createMember(t, organization, 'read');
    expect((await spaceLinks(reader, space.id)).response.status).toBe(403);
    expect((await spaceLinks(member, space.id)).response.status).toBe(200);
  });

  it('lists every link of the head with its status, grouped by target, in reading order, with stats', async () => {
    const t = server();
    const { admin, space, other, otherPage, foreign, ids } = await world(t);
    const { data, response } = await spaceLinks(admin, space.id);
    expect(response.status).toBe(200);
    const home = { kind: 'page', page: ids.home };
    const images = { kind: 'anchor', anchor: 'images', page: ids.home };
    const elsewhere = { kind: 'anchor', anchor: 'elsewhere', page: ids.home };
    expect(data).toEqual({
      items: [
        { status: 'ok', relation: 'link', targetReference: { kind: 'anchor', anchor: 'usage', page: ids.setup }, locationReferences: [home] },
        { status: 'ok', relation: 'link', targetReference: { kind: 'page', page: ids.faq }, locationReferences: [home] },
        { status: 'broken', relation: 'link', targetReference: { kind: 'page', page: 'nope' }, locationReferences: [home] },
        { status: 'ok', relation: 'image', targetReference: { kind: 'file', file: ids.logo }, locationReferences: [images] },
        { status: 'broken', relation: 'image', targetReference: { kind: 'file', file: 'nope' }, locationReferences: [images] },
        { status: 'ok', relation: 'link', targetReference: { kind: 'url', url: 'https://example.com' }, locationReferences: [images] },
        { status: 'ok', relation: 'link', targetReference: { kind: 'anchor', anchor: 'images', page: ids.home }, locationReferences: [images] },
        { status: 'broken', relation: 'link', targetReference: { kind: 'anchor', anchor: 'nowhere', page: ids.home }, locationReferences: [images] },
        { status: 'in-app', relation: 'link', targetReference: { kind: 'space', space: other.id }, locationReferences: [elsewhere] },
        { status: 'in-app', relation: 'link', targetReference: { kind: 'anchor', anchor: 'far-away', page: otherPage, space: other.id }, locationReferences: [elsewhere] },
        { status: 'broken', relation: 'link', targetReference: { kind: 'page', page: 'nope', space: other.id }, locationReferences: [elsewhere] },
        { status: 'broken', relation: 'link', targetReference: { kind: 'space', space: foreign.id }, locationReferences: [elsewhere] },
      ],
      count: 12,
      stats: { total: 12, broken: { total: 5, changeRequest: 0 } },
    });
  });

  it('filters by status, pages with a cursor, and follows the head and other spaces', async () => {
    const t = server();
    const { admin, space, other, ids } = await world(t);
    const broken = await spaceLinks(admin, space.id, { status: 'broken', limit: 3 });
    expect(broken.data!.count).toBe(5);
    expect(broken.data!.stats).toEqual({ total: 12, broken: { total: 5, changeRequest: 0 } });
    const rest = await spaceLinks(admin, space.id, { status: 'broken', limit: 3, page: broken.data!.next!.page });
    expect([...broken.data!.items, ...rest.data!.items].every((item) => item.status === 'broken')).toBe(true);
    expect(rest.data!.items).toHaveLength(2);
    expect((await spaceLinks(admin, space.id, { status: 'ok', page: broken.data!.next!.page })).response.status).toBe(400);

    await edit(admin, space.id, [{ type: 'delete_page', page: ids.faq }]);
    await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: other.id } } });
    const after = await spaceLinks(admin, space.id, { status: 'in-app' });
    expect(after.data!.count).toBe(0);
    expect(after.data!.stats.broken.total).toBe(8);
  });

  it('never parses a stored document when reading: links come from the rows written with the body', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    const count = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM document_links WHERE organization_id = ${organization.id}`.execute(t.db)).rows[0]!.n;
    // One row per body: the other space's page, Setup, FAQ and Home.
    expect(await count()).toBe(4);
    // A body stored before links existed is extracted once, when first read.
    await sql`DELETE FROM document_links WHERE organization_id = ${organization.id}`.execute(t.db);
    t.context.caches.documentLinks.clear();
    t.context.caches.linkReports.clear();
    expect((await spaceLinks(admin, space.id)).data!.count).toBe(12);
    // The other space's page was read too: its anchors decide the status of a link to it.
    expect(await count()).toBe(4);
    // Reads use the rows as stored: a row that says "no links" is believed.
    await sql`UPDATE document_links SET links = '[]' WHERE organization_id = ${organization.id}`.execute(t.db);
    t.context.caches.documentLinks.clear();
    t.context.caches.linkReports.clear();
    expect((await spaceLinks(admin, space.id)).data!.count).toBe(0);
  });
});

describe('GET /v1/spaces/{spaceId}/content/page/{pageId}/links', () => {
  it('404 for a page the head does not have; the page’s links otherwise', async () => {
    const t = server();
    const { admin, space, ids } = await world(t);
    const missing = await admin.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}/links', { params: { path: { spaceId: space.id, pageId: 'nope' } } });
    expect(missing.response.status).toBe(404);
    const none = await admin.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}/links', { params: { path: { spaceId: space.id, pageId: ids.setup } } });
    expect(none.data).toEqual({ items: [], count: 0, stats: { total: 0, broken: { total: 0, changeRequest: 0 } } });
    const { data } = await admin.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}/links', {
      params: { path: { spaceId: space.id, pageId: ids.home }, query: { status: 'broken' } },
    });
    expect(data!.count).toBe(5);
    expect(data!.stats.total).toBe(12);
  });
});

describe('GET /v1/spaces/{spaceId}/content/files/{fileId}/backlinks', () => {
  it('404 for a file the head does not have; the pages that refer to it otherwise', async () => {
    const t = server();
    const { admin, organization, space, ids } = await world(t);
    const missing = await admin.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}/backlinks', { params: { path: { spaceId: space.id, fileId: 'nope' } } });
    expect(missing.response.status).toBe(404);
    await edit(admin, space.id, [{ type: 'update_page', page: ids.faq, markdown: 'See [the logo](../.gitbook/assets/logo.png).' }]);
    const head = (await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).data!.revision;
    const { data } = await admin.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}/backlinks', { params: { path: { spaceId: space.id, fileId: ids.logo } } });
    const backlink = (page: string) => ({
      kind: 'file',
      organization: organization.id,
      space: space.id,
      versionContext: { type: 'revision', revision: head },
      file: ids.logo,
      page,
    });
    // The home page shows it (and uses it as its cover); the FAQ links to it by its path in a GitBook export.
    expect(data).toEqual({ items: [backlink(ids.home), backlink(ids.faq)], count: 2 });
  });
});

describe('links in a change request', () => {
  it('checks links against the change request’s content, and counts what it would break', async () => {
    const t = server();
    const { admin, space, ids } = await world(t);
    const cr = await createCr(admin, space.id);
    await editCr(admin, space.id, cr.id, [{ type: 'delete_page', page: ids.setup }]);

    const crLinks = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/links', { ...crPath(space.id, cr.id) });
    expect(crLinks.data!.stats).toEqual({ total: 12, broken: { total: 6, changeRequest: 1 } });
    expect(crLinks.data!.items[0]).toEqual({
      status: 'broken',
      relation: 'link',
      targetReference: { kind: 'anchor', anchor: 'usage', page: ids.setup },
      locationReferences: [{ kind: 'page', page: ids.home }],
    });
    // The space's head still has the page; its stats count the open change request's new broken link.
    const head = await spaceLinks(admin, space.id);
    expect(head.data!.stats).toEqual({ total: 12, broken: { total: 5, changeRequest: 1 } });

    const page = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links', {
      params: { path: { spaceId: space.id, changeRequestId: cr.id, pageId: ids.home }, query: { status: 'broken' } },
    });
    expect(page.data!.count).toBe(6);
    const gone = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links', {
      params: { path: { spaceId: space.id, changeRequestId: cr.id, pageId: ids.setup } },
    });
    expect(gone.response.status).toBe(404);

    await editCr(admin, space.id, cr.id, [{ type: 'update_page', page: ids.home, cover: null, markdown: 'No more pictures.' }]);
    const backlinks = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks', {
      params: { path: { spaceId: space.id, changeRequestId: String(cr.number), fileId: ids.logo } },
    });
    expect(backlinks.data).toEqual({ items: [], count: 0 });
    const inSpace = await admin.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}/backlinks', { params: { path: { spaceId: space.id, fileId: ids.logo } } });
    expect(inSpace.data!.count).toBe(1);
  });

  it('follows a merge: the head takes the request’s links, and a merged request no longer counts', async () => {
    const t = server();
    const { admin, space, ids } = await world(t);
    const cr = await createCr(admin, space.id);
    await editCr(admin, space.id, cr.id, [
      { type: 'delete_page', page: ids.setup },
      { type: 'update_page', page: ids.faq, markdown: `See [home](/pages/${ids.home}) and [the logo](/files/${ids.logo}).` },
    ]);
    expect((await spaceLinks(admin, space.id)).data!.stats).toEqual({ total: 12, broken: { total: 5, changeRequest: 1 } });
    await mergeCr(admin, space.id, cr.id);

    const { data } = await spaceLinks(admin, space.id);
    expect(data!.stats).toEqual({ total: 14, broken: { total: 6, changeRequest: 0 } });
    expect(data!.items[0]).toEqual({
      status: 'broken',
      relation: 'link',
      targetReference: { kind: 'anchor', anchor: 'usage', page: ids.setup },
      locationReferences: [{ kind: 'page', page: ids.home }],
    });
    expect(data!.items.slice(-2)).toEqual([
      { status: 'ok', relation: 'link', targetReference: { kind: 'page', page: ids.home }, locationReferences: [{ kind: 'page', page: ids.faq }] },
      { status: 'ok', relation: 'link', targetReference: { kind: 'file', file: ids.logo }, locationReferences: [{ kind: 'page', page: ids.faq }] },
    ]);
    const backlinks = await admin.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}/backlinks', { params: { path: { spaceId: space.id, fileId: ids.logo } } });
    expect(backlinks.data!.items.map((item) => item.page)).toEqual([ids.home, ids.faq]);
  });

  it('404 for a change request of another space', async () => {
    const t = server();
    const { admin, space, other } = await world(t);
    const cr = await createCr(admin, other.id);
    const { response } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/links', { ...crPath(space.id, cr.id) });
    expect(response.status).toBe(404);
  });
});

describe('links of imported content', () => {
  it('reads the links an import wrote (relative paths become page links), into the space or a change request', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { title: 'Imported' });
    const archive = zip([
      { name: 'docs/README.md', data: '# Welcome\n\nSee [the setup](setup.md#steps), [nothing](missing.md) and [a site](https://example.com).\n' },
      { name: 'docs/setup.md', data: '# Setup\n\n## Steps\n\nRun it.\n' },
    ]).toString('base64');
    const imported = await admin.client.POST('/v1/spaces/{spaceId}/content/import', { params: { path: { spaceId: space.id } }, body: { source: 'zip', base64: archive } });
    expect(imported.response.status).toBe(201);
    const { data: pages } = await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
    const [welcome, setup] = pages!.pages.map((page) => page.id);

    // A path that leads nowhere stays as written, a broken address.
    const { data } = await spaceLinks(admin, space.id);
    expect(data!.items).toEqual([
      { status: 'ok', relation: 'link', targetReference: { kind: 'anchor', anchor: 'steps', page: setup }, locationReferences: [{ kind: 'page', page: welcome }] },
      { status: 'broken', relation: 'link', targetReference: { kind: 'url', url: 'missing.md' }, locationReferences: [{ kind: 'page', page: welcome }] },
      { status: 'ok', relation: 'link', targetReference: { kind: 'url', url: 'https://example.com' }, locationReferences: [{ kind: 'page', page: welcome }] },
    ]);

    // The same archive into a change request of another space: its links, read against its content.
    const second = await createSpace(t, admin, organization, { title: 'Second' });
    const cr = await createCr(admin, second.id);
    const intoRequest = await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import', { ...crPath(second.id, cr.id), body: { source: 'zip', base64: archive } });
    expect(intoRequest.response.status).toBe(201);
    const crLinks = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/links', { ...crPath(second.id, cr.id) });
    expect(crLinks.data!.stats).toEqual({ total: 3, broken: { total: 1, changeRequest: 1 } });
    expect((await spaceLinks(admin, second.id)).data).toEqual({ items: [], count: 0, stats: { total: 0, broken: { total: 0, changeRequest: 1 } } });
  });
});
