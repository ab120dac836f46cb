// The import's limits (pages, depth, bytes, time, archive entries) each stop it and say so; the
// outbound guard refuses private addresses when they are not allowed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createOrganizationWithAdmin, createSpace, type TestUser } from '../support/factories.js';
import { contentRowCounts } from '../support/content.js';
import { html, startFixtureSite, type FixtureSite } from '../support/fixture-site.js';
import { zip } from '../support/zip.js';

const limited = useTestServer({
  env: { IMPORT_MAX_PAGES: '3', IMPORT_MAX_DEPTH: '1', IMPORT_MAX_BYTES: '60000', IMPORT_TIME_LIMIT_MS: '5000', IMPORT_ZIP_MAX_ENTRIES: '10' },
});
const guarded = useTestServer({ env: { OUTBOUND_ALLOW_PRIVATE: 'false' } });

const padding = (bytes: number) => `<p>${'word '.repeat(bytes / 5)}</p>`;
let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({
    '/p/': html('Pages', [1, 2, 3, 4, 5].map((n) => `<a href="/p/${n}">Page ${n}</a>`).join(' ')),
    ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`/p/${n}`, html(`Page ${n}`, `<h1>Page ${n}</h1><p>Body ${n}.</p>`)])),
    '/d/a': html('A', '<h1>A</h1><a href="/d/b">B</a>'),
    '/d/b': html('B', '<h1>B</h1><a href="/d/c">C</a>'),
    '/d/c': html('C', '<h1>C</h1>'),
    '/b/': html('Bytes', '<h1>Bytes</h1><a href="/b/big1">1</a> <a href="/b/big2">2</a>'),
    '/b/big1': html('Big 1', `<h1>Big 1</h1>${padding(35_000)}`),
    '/b/big2': html('Big 2', `<h1>Big 2</h1>${padding(35_000)}`),
    '/t/': html('Time', '<h1>Time</h1><a href="/t/slow">Slow</a>'),
    '/t/slow': { ...html('Slow', '<h1>Slow</h1>'), delayMs: 15_000 },
    '/big.zip': { type: 'application/zip', body: zip([{ name: 'a.md', data: 'x'.repeat(70_000), store: true }]) },
  });
  // The time limit is 5 s, so that the other limits' imports finish well within it on a loaded machine
  // (at 1.5 s a busy CI machine stopped them at 'time'), and the slow page answers after 15 s, so the
  // time case shows the stop. The parse pool's worker and the modules that read pages are loaded first,
  // as on a server that has imported before (a worker's first start under tsx takes seconds here).
  const warm = { deadlineMs: 120_000 };
  await limited().context.parsing.run('import-html', { html: '<p>warm</p>', url: 'http://warm.test/' }, { ...warm, lane: 'long' });
  await limited().context.parsing.run('import-markdown', { text: '# warm' }, warm);
  await limited().context.parsing.run('markdown', { markdown: 'warm', normalize: true }, warm);
});
afterAll(() => site.close());

async function spaceOf(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  return { admin, space: await createSpace(t, admin, organization) };
}
const importInto = (user: TestUser, spaceId: string, body: { source: 'website' | 'html' | 'markdown' | 'zip'; url?: string; base64?: string }) =>
  user.client.POST('/v1/spaces/{spaceId}/content/import', { params: { path: { spaceId } }, body });
const titles = async (user: TestUser, spaceId: string) =>
  (await user.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId } } })).data!.pages.map((page) => page.title);

describe('import limits', () => {
  it('pages: stops after the page limit and says so', async () => {
    const { admin, space } = await spaceOf(limited());
    const { data, response } = await importInto(admin, space.id, { source: 'website', url: `${site.url}/p/` });
    expect(response.status).toBe(201);
    expect(data).toEqual({ revision: expect.any(String), importedResources: 3, totalResources: 6, truncated: true, limit: 'pages', skipped: [] });
    expect(await titles(admin, space.id)).toEqual(['Pages', 'Page 1', 'Page 2']);
  });

  it('depth: follows links only so far', async () => {
    const { admin, space } = await spaceOf(limited());
    const { data } = await importInto(admin, space.id, { source: 'website', url: `${site.url}/d/a` });
    expect(data).toEqual({ revision: expect.any(String), importedResources: 2, totalResources: 3, truncated: true, limit: 'depth', skipped: [] });
    expect(await titles(admin, space.id)).toEqual(['A', 'B']);
  });

  it('bytes: stops before the page that would pass the byte limit', async () => {
    const { admin, space } = await spaceOf(limited());
    const { data } = await importInto(admin, space.id, { source: 'website', url: `${site.url}/b/` });
    expect(data).toEqual({ revision: expect.any(String), importedResources: 2, totalResources: 3, truncated: true, limit: 'bytes', skipped: [] });
    expect(await titles(admin, space.id)).toEqual(['Bytes', 'Big 1']);
  });

  it('time: stops at the time limit, keeping what it read', async () => {
    const { admin, space } = await spaceOf(limited());
    const started = Date.now();
    const { data } = await importInto(admin, space.id, { source: 'website', url: `${site.url}/t/` });
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(data).toEqual({ revision: expect.any(String), importedResources: 1, totalResources: 2, truncated: true, limit: 'time', skipped: [] });
    expect(await titles(admin, space.id)).toEqual(['Time']);
  });

  it('zip: pages and bytes limits stop the archive too', async () => {
    const t = limited();
    const { admin, space } = await spaceOf(t);
    const pages = zip([1, 2, 3, 4, 5].map((n) => ({ name: `page-${n}.md`, data: `# Page ${n}\n` })));
    expect((await importInto(admin, space.id, { source: 'zip', base64: pages.toString('base64') })).data).toEqual({
      revision: expect.any(String),
      importedResources: 3,
      totalResources: 5,
      truncated: true,
      limit: 'pages',
      skipped: [],
    });
    const heavy = zip([1, 2, 3].map((n) => ({ name: `heavy-${n}.md`, data: `# Heavy ${n}\n\n${'text '.repeat(5000)}` })));
    expect((await importInto(admin, space.id, { source: 'zip', base64: heavy.toString('base64') })).data).toEqual({
      revision: expect.any(String),
      importedResources: 2,
      totalResources: 3,
      truncated: true,
      limit: 'bytes',
      skipped: [],
    });
  });

  it('zip: more entries than allowed is refused (422), an archive over the byte limit is 413', async () => {
    const t = limited();
    const { admin, space } = await spaceOf(t);
    const before = await contentRowCounts(t.db);
    const many = zip(Array.from({ length: 11 }, (_, n) => ({ name: `p${n}.md`, data: `# ${n}\n` })));
    const tooMany = await importInto(admin, space.id, { source: 'zip', base64: many.toString('base64') });
    expect(tooMany.response.status).toBe(422);
    expect(tooMany.error!.error.message).toBe('The archive has 11 entries: at most 10 can be imported');
    const big = zip([{ name: 'a.md', data: 'x'.repeat(70_000), store: true }]);
    const inline = await importInto(admin, space.id, { source: 'zip', base64: big.toString('base64') });
    expect(inline.response.status).toBe(413);
    expect(inline.error!.error.message).toBe("The archive is larger than the import's limit of 60000 bytes");
    expect((await importInto(admin, space.id, { source: 'zip', url: `${site.url}/big.zip` })).response.status).toBe(413);
    expect(await contentRowCounts(t.db)).toEqual(before);
  });
});

describe('import through the outbound guard', () => {
  it('400 for a loopback address when private addresses are not allowed', async () => {
    const { admin, space } = await spaceOf(guarded());
    for (const source of ['website', 'markdown', 'zip'] as const) {
      const { response, error } = await importInto(admin, space.id, { source, url: `${site.url}/p/` });
      expect(response.status).toBe(400);
      expect(error!.error.issues).toEqual([{ path: '/body/url', message: '127.0.0.1 is an address that may not be fetched' }]);
    }
  });
});
