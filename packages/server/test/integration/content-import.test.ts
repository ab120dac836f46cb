import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace, type TestUser } from '../support/factories.js';
import { contentRowCounts, edit } from '../support/content.js';
import { html, startFixtureSite, type FixtureSite } from '../support/fixture-site.js';
import { solidPng } from '../support/images.js';
import { zip } from '../support/zip.js';

const server = useTestServer();

const LOGO = solidPng(4, 3);
let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({
    '/docs/': html(
      'Docs home',
      `<nav><a href="/docs/install">Install</a> <a href="/docs/install/linux">Linux</a> <a href="/docs/faq">FAQ</a> <a href="/docs/missing">Missing</a> <a href="https://elsewhere.test/">Elsewhere</a></nav>
       <main><h1>Welcome</h1><p>Read the <a href="install#steps">install guide</a> first.</p><p><img src="/img/logo.png" alt="Logo"></p></main>`,
    ),
    '/docs/install': html(
      'Install',
      `<main><h1>Install</h1><h2 id="steps">Steps</h2><ol><li>Download</li><li>Run <code>setup</code></li></ol>
       <table><thead><tr><th>OS</th><th>Command</th></tr></thead><tbody><tr><td>Linux</td><td>apt install tool</td></tr></tbody></table>
       <pre><code class="language-sh">setup --fast</code></pre><p>Back to <a href="/docs/">home</a>.</p></main>`,
    ),
    '/docs/install/linux': html('Linux', '<main><h1>Linux</h1><p>Use the package manager.</p></main>'),
    '/docs/faq': { status: 301, location: '/docs/faq/' },
    '/docs/faq/': html('FAQ', '<main><h1>FAQ</h1><p>Questions and answers.</p></main>'),
    '/img/logo.png': { type: 'image/png', body: LOGO },
    '/guide.md': {
      type: 'text/markdown',
      body: '---\ntitle: The guide\ndescription: All about it\n---\n\nIntro with ![diagram](img/d.png) and [a link](other.md).\n',
    },
    '/img/d.png': { type: 'image/png', body: LOGO },
    '/plain.txt.png': { type: 'text/plain', body: 'not an image' },
    '/binary': { type: 'application/octet-stream', body: Buffer.from([0, 1, 2]) },
  });
});
afterAll(() => site.close());

async function spaceOf(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization);
  return { admin, organization, space };
}

const importInto = (user: TestUser, spaceId: string, body: { source: 'website' | 'html' | 'markdown' | 'zip'; url?: string; base64?: string }) =>
  user.client.POST('/v1/spaces/{spaceId}/content/import', { params: { path: { spaceId } }, body });

async function pageBody(user: TestUser, spaceId: string, pageId: string): Promise<string> {
  const { data } = await user.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId, pageId } } });
  return (data as { markdown: string }).markdown;
}

type TreePage = { id: string; title: string; type: string; pages: TreePage[] };
const outline = (pages: TreePage[]): unknown[] => pages.map((page) => (page.pages.length ? [page.title, outline(page.pages)] : page.title));

describe('POST /v1/spaces/{spaceId}/content/import', () => {
  it('400 for a request the schema or the import refuses', async () => {
    const t = server();
    const { admin, space } = await spaceOf(t);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ source: 'website' }, '/body'],
      [{ source: 'zip', url: `${site.url}/a.zip`, base64: 'UEsFBg==' }, '/body'],
      [{ source: 'website', base64: 'UEsFBg==' }, '/body/base64'],
      [{ source: 'zip', base64: 'not base64!' }, '/body/base64'],
      [{ source: 'website', url: 'ftp://example.com/' }, '/body/url'],
      [{ source: 'pdf', url: `${site.url}/docs/` }, '/body/source'],
    ];
    for (const [body, path] of cases) {
      const { response, error } = await importInto(admin, space.id, body as never);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error!.error.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining(path) })]));
    }
  });

  it('403 below edit, and on a locked space', async () => {
    const t = server();
    const { admin, organization, space } = await spaceOf(t);
    const reader = await createMember(t, organization, 'comment');
    expect((await importInto(reader, space.id, { source: 'html', url: `${site.url}/docs/` })).response.status).toBe(403);
    await admin.client.PATCH('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } }, body: { editMode: 'locked' } });
    const { response, error } = await importInto(admin, space.id, { source: 'html', url: `${site.url}/docs/` });
    expect(response.status).toBe(403);
    expect(error!.error.message).toMatch(/locked/);
  });

  it('imports a website breadth-first as one revision: pages by path, links and images rewritten', async () => {
    const t = server();
    const { admin, space } = await spaceOf(t);
    await edit(admin, space.id, [{ type: 'insert_page', title: 'Existing', slug: 'docs' }]);
    const { data, response } = await importInto(admin, space.id, { source: 'website', url: `${site.url}/docs/` });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      revision: expect.any(String),
      importedResources: 4,
      totalResources: 5,
      truncated: false,
      skipped: [{ resource: `${site.url}/docs/missing`, reason: 'the server answered 404' }],
    });
    const { data: pages } = await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
    expect(outline(pages!.pages as TreePage[])).toEqual(['Existing', 'Welcome', ['Install', ['Linux']], 'FAQ']);
    const [, welcome, install] = pages!.pages as TreePage[];
    expect(pages!.pages.map((page) => page.slug)).toEqual(['docs', 'docs-2', 'install', 'faq']);
    const { data: files } = await admin.client.GET('/v1/spaces/{spaceId}/content/files', { params: { path: { spaceId: space.id } } });
    expect(files!.items).toEqual([expect.objectContaining({ name: 'logo.png', contentType: 'image/png', size: LOGO.length, dimensions: { width: 4, height: 3 } })]);
    const logo = files!.items[0]!.id;
    expect(await pageBody(admin, space.id, welcome!.id)).toBe(`Read the [install guide](/pages/${install!.id}#steps) first.\n\n![Logo](/files/${logo})\n`);
    expect(await pageBody(admin, space.id, install!.id)).toBe(
      [
        '## Steps',
        '',
        '1.  Download',
        '2.  Run `setup`',
        '',
        '| OS  | Command |',
        '| --- | --- |',
        '| Linux | apt install tool |',
        '',
        '```sh',
        'setup --fast',
        '```',
        '',
        `Back to [home](/pages/${welcome!.id}).`,
        '',
      ].join('\n'),
    );
    // One revision on top of the previous head.
    const { data: revision } = await admin.client.GET('/v1/spaces/{spaceId}/revisions/{revisionId}', { params: { path: { spaceId: space.id, revisionId: data!.revision } } });
    expect(revision!.parents).toHaveLength(1);
    const { data: after } = await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    expect(after!.revision).toBe(data!.revision);
  });

  it('html imports the one page, its links kept as addresses', async () => {
    const t = server();
    const { admin, space } = await spaceOf(t);
    const { data, response } = await importInto(admin, space.id, { source: 'html', url: `${site.url}/docs/install` });
    expect(response.status).toBe(201);
    expect(data).toEqual({ revision: expect.any(String), importedResources: 1, totalResources: 1, truncated: false, skipped: [] });
    const { data: pages } = await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
    expect(pages!.pages.map((page) => [page.title, page.slug])).toEqual([['Install', 'install']]);
    expect(await pageBody(admin, space.id, pages!.pages[0]!.id)).toContain(`Back to [home](${site.url}/docs/).`);
  });

  it('markdown imports one document with its front matter and images', async () => {
    const t = server();
    const { admin, space } = await spaceOf(t);
    const { data, response } = await importInto(admin, space.id, { source: 'markdown', url: `${site.url}/guide.md` });
    expect(response.status).toBe(201);
    expect(data).toEqual({ revision: expect.any(String), importedResources: 1, totalResources: 1, truncated: false, skipped: [] });
    const { data: pages } = await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
    expect(pages!.pages.map((page) => [page.title, page.slug, page.description])).toEqual([['The guide', 'guide', 'All about it']]);
    const { data: files } = await admin.client.GET('/v1/spaces/{spaceId}/content/files', { params: { path: { spaceId: space.id } } });
    expect(await pageBody(admin, space.id, pages!.pages[0]!.id)).toBe(`Intro with ![diagram](/files/${files!.items[0]!.id}) and [a link](${site.url}/other.md).\n`);
  });

  it('422 naming what failed, and nothing written', async () => {
    const t = server();
    const { admin, space } = await spaceOf(t);
    const before = await contentRowCounts(t.db);
    const cases: Array<[Parameters<typeof importInto>[2], RegExp]> = [
      [{ source: 'website', url: `${site.url}/nowhere` }, /nowhere could not be fetched: the server answered 404/],
      [{ source: 'html', url: `${site.url}/binary` }, /is not an HTML page \(application\/octet-stream\)/],
      [{ source: 'markdown', url: `${site.url}/docs/install` }, /is an HTML page, not a Markdown document/],
      [{ source: 'zip', url: `${site.url}/docs/install` }, /not a readable zip file/],
      [{ source: 'zip', base64: zip([{ name: 'image.png', data: LOGO }]).toString('base64') }, /no page to import/],
    ];
    for (const [body, message] of cases) {
      const { response, error } = await importInto(admin, space.id, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(error!.error.message).toMatch(message);
    }
    expect(await contentRowCounts(t.db)).toEqual(before);
  });
});

const GITBOOK = [
  { name: 'handbook-main/README.md', data: '# Welcome\n\nStart with [the install](getting-started/install.md#linux).\n' },
  {
    name: 'handbook-main/SUMMARY.md',
    data: '# Table of contents\n\n* [Welcome](README.md)\n* [Getting started](getting-started/)\n  * [Installing](getting-started/install.md)\n\n## Reference\n\n* [API](reference/api.md)\n',
  },
  { name: 'handbook-main/getting-started/README.md', data: '---\ndescription: First steps\n---\n\n# Getting started\n\nSee [install](install.md) and [the API](../reference/api.md).\n' },
  {
    name: 'handbook-main/getting-started/install.md',
    data: '# Install\n\n<figure><img src="../.gitbook/assets/diagram.png" alt=""><figcaption></figcaption></figure>\n\n| OS | Command |\n| -- | ------- |\n| Linux | apt |\n\n{% hint style="info" %}\nKept as written.\n{% endhint %}\n',
  },
  { name: 'handbook-main/reference/api.md', data: '# API\n\n![chart](../.gitbook/assets/chart%201.png)\n\n[Manual](../.gitbook/assets/manual.pdf)\n' },
  { name: 'handbook-main/.gitbook/assets/diagram.png', data: solidPng(2, 2), store: true },
  { name: 'handbook-main/.gitbook/assets/chart 1.png', data: solidPng(3, 1), store: true },
  { name: 'handbook-main/.gitbook/assets/manual.pdf', data: '%PDF-1.4 fake' },
  { name: 'handbook-main/.gitbook/assets/unused.png', data: solidPng(1, 1) },
  { name: 'handbook-main/drafts/unlisted.md', data: '# Not in the summary\n' },
];

describe('POST /v1/spaces/{spaceId}/content/import: zip', () => {
  it('reads a GitBook export: SUMMARY.md gives the tree, README.md the folder page, assets become files', async () => {
    const t = server();
    const { admin, space } = await spaceOf(t);
    const { data, response } = await importInto(admin, space.id, { source: 'zip', base64: zip(GITBOOK).toString('base64') });
    expect(response.status).toBe(201);
    expect(data).toEqual({ revision: expect.any(String), importedResources: 4, totalResources: 4, truncated: false, skipped: [] });
    const { data: pages } = await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
    const tree = pages!.pages as TreePage[];
    expect(outline(tree)).toEqual(['Welcome', ['Getting started', ['Installing']], ['Reference', ['API']]]);
    expect(tree.map((page) => [page.type, (page as { slug?: string }).slug])).toEqual([
      ['document', 'welcome'],
      ['document', 'getting-started'],
      ['group', 'reference'],
    ]);
    expect((tree[1] as { description?: string }).description).toBe('First steps');
    const [welcome, started, reference] = tree;
    const install = started!.pages[0]!;
    const api = reference!.pages[0]!;
    const { data: files } = await admin.client.GET('/v1/spaces/{spaceId}/content/files', { params: { path: { spaceId: space.id } } });
    const fileId = Object.fromEntries(files!.items.map((file) => [file.name, file.id]));
    expect(files!.items.map((file) => [file.name, file.contentType])).toEqual([
      ['chart 1.png', 'image/png'],
      ['diagram.png', 'image/png'],
      ['manual.pdf', 'application/pdf'],
    ]);
    expect(await pageBody(admin, space.id, welcome!.id)).toBe(`Start with [the install](/pages/${install.id}#linux).\n`);
    expect(await pageBody(admin, space.id, started!.id)).toBe(`See [install](/pages/${install.id}) and [the API](/pages/${api.id}).\n`);
    expect(await pageBody(admin, space.id, install.id)).toBe(
      `<figure><img src="/files/${fileId['diagram.png']}" alt=""><figcaption></figcaption></figure>\n\n| OS | Command |\n| -- | ------- |\n| Linux | apt |\n\n{% hint style="info" %}\nKept as written.\n{% endhint %}\n`,
    );
    expect(await pageBody(admin, space.id, api.id)).toBe(`![chart](/files/${fileId['chart 1.png']})\n\n[Manual](/files/${fileId['manual.pdf']})\n`);
  });

  it('without SUMMARY.md, folders give the tree in natural order', async () => {
    const t = server();
    const { admin, space } = await spaceOf(t);
    const archive = zip([
      { name: 'intro.md', data: 'No heading here.\n' },
      { name: 'guide/README.md', data: '# The guide\n' },
      { name: 'guide/10-later.md', data: '# Later\n' },
      { name: 'guide/2-setup.md', data: '# Setup\n' },
      { name: 'guide/advanced/tips.md', data: '# Tips\n' },
      { name: 'link.md', data: '/etc/passwd', mode: 0o120777 },
    ]);
    const { data } = await importInto(admin, space.id, { source: 'zip', base64: archive.toString('base64') });
    expect(data).toEqual({
      revision: expect.any(String),
      importedResources: 5,
      totalResources: 5,
      truncated: false,
      skipped: [{ resource: 'link.md', reason: 'a symbolic link: not followed' }],
    });
    const { data: pages } = await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
    expect(outline(pages!.pages as TreePage[])).toEqual([['The guide', ['Setup', 'Later', ['Advanced', ['Tips']]]], 'Intro']);
  });

  it('refuses zip bombs and paths leaving the archive (422), writing nothing', async () => {
    const t = server();
    const { admin, space } = await spaceOf(t);
    const before = await contentRowCounts(t.db);
    const cases: Array<[Buffer, RegExp]> = [
      [zip([{ name: 'bomb.md', data: Buffer.alloc(20 * 1024 * 1024) }]), /expands more than 100 times: refused as a zip bomb/],
      [zip([{ name: 'README.md', data: '# Fine\n' }, { name: '../evil.md', data: '# Evil\n' }]), /entry outside it \(invalid relative path: \.\.\/evil\.md\)/],
      [zip([{ name: '/etc/cron.d/evil.md', data: '# Evil\n' }]), /entry outside it \(absolute path/],
      // A header that understates the expanded size: the stream is cut where the header says.
      [zip([{ name: 'README.md', data: `# Liar\n\n${'x'.repeat(1_000_000)}`, declaredSize: 100 }]), /could not be read/],
    ];
    for (const [archive, message] of cases) {
      const { response, error } = await importInto(admin, space.id, { source: 'zip', base64: archive.toString('base64') });
      expect(response.status).toBe(422);
      expect(error!.error.message).toMatch(message);
    }
    expect(await contentRowCounts(t.db)).toEqual(before);
  });

  it('reads an archive at an address', async () => {
    const t = server();
    const { admin, space } = await spaceOf(t);
    const archiveSite = await startFixtureSite({ '/export.zip': { type: 'application/zip', body: zip(GITBOOK) } });
    try {
      const { data } = await importInto(admin, space.id, { source: 'zip', url: `${archiveSite.url}/export.zip` });
      expect(data).toMatchObject({ importedResources: 4, totalResources: 4, truncated: false });
    } finally {
      await archiveSite.close();
    }
  });
});

describe('POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import', () => {
  async function changeRequestOf(t: TestServer) {
    const { admin, organization, space } = await spaceOf(t);
    const { data } = await admin.client.POST('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: space.id } }, body: { subject: 'Import' } });
    return { admin, organization, space, changeRequest: data! };
  }
  const importIntoRequest = (user: TestUser, spaceId: string, changeRequestId: string, body: Parameters<typeof importInto>[2]) =>
    user.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import', { params: { path: { spaceId, changeRequestId } }, body });

  // A stranger's 404 and a reader's 403 are the sweep's and the matrix's.
  it('400 without the page address, like the space import', async () => {
    const t = server();
    const { space, changeRequest, admin } = await changeRequestOf(t);
    expect((await importIntoRequest(admin, space.id, changeRequest.id, { source: 'html' })).response.status).toBe(400);
  });

  it('writes one revision on the change request, leaving the space alone', async () => {
    const t = server();
    const { admin, space, changeRequest } = await changeRequestOf(t);
    const { data, response } = await importIntoRequest(admin, space.id, changeRequest.number.toString(), { source: 'zip', base64: zip(GITBOOK).toString('base64') });
    expect(response.status).toBe(201);
    expect(data).toEqual({ revision: expect.any(String), importedResources: 4, totalResources: 4, truncated: false, skipped: [] });
    const { data: request } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { params: { path: { spaceId: space.id, changeRequestId: changeRequest.id } } });
    expect(request!.revision).toBe(data!.revision);
    const { data: pages } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages', { params: { path: { spaceId: space.id, changeRequestId: changeRequest.id } } });
    expect(outline(pages!.pages as TreePage[])).toEqual(['Welcome', ['Getting started', ['Installing']], ['Reference', ['API']]]);
    const { data: spaceContent } = await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
    expect(spaceContent!.pages).toEqual([]);
  });

  it('409 for an archived change request, fetching nothing', async () => {
    const t = server();
    const { admin, space, changeRequest } = await changeRequestOf(t);
    await admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { params: { path: { spaceId: space.id, changeRequestId: changeRequest.id } }, body: { status: 'archived' } });
    const requests = site.requests.length;
    const { response, error } = await importIntoRequest(admin, space.id, changeRequest.id, { source: 'html', url: `${site.url}/docs/` });
    expect(response.status).toBe(409);
    expect(error!.error.message).toMatch(/archived/);
    expect(site.requests.length).toBe(requests);
  });
});
