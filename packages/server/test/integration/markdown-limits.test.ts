// Markdown bodies the server could not read back safely are refused when written: too deep a syntax
// tree (a stack overflow in every reader), or too slow to parse (micromark's non-linear worst cases).
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createOrganizationWithAdmin, createSpace } from '../support/factories.js';
import { createCr, crPath } from '../support/change-requests.js';
import { contentRowCounts, edit, type Change } from '../support/content.js';
import { zip } from '../support/zip.js';
import { MAX_MARKDOWN_DEPTH } from '../../src/content/markdown-check.js';

const server = useTestServer();

async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization, { title: 'Docs' });
  const { refs } = await edit(admin, space.id, [{ type: 'insert_page', title: 'Home', ref: 'home', markdown: 'Welcome' }]);
  return { admin, space, home: refs.home! };
}

const quotes = (levels: number) => '>'.repeat(levels) + ' deep';
const nestedLists = (levels: number) => Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n');
// Unmatched emphasis markers: a few hundred kilobytes take micromark minutes.
const slow = '*a'.repeat(60_000) + ' ' + '_a'.repeat(60_000);

describe('markdown bodies on write', () => {
  it('400 for a page body nested too deep, naming the field; nothing is written', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const before = await contentRowCounts(t.db);
    for (const markdown of [quotes(3000), quotes(MAX_MARKDOWN_DEPTH + 1), nestedLists(200)]) {
      const changes: Change[] = [{ type: 'insert_page', title: 'Fine', markdown: 'fine' }, { type: 'insert_page', title: 'Deep', markdown }];
      const { response, error } = await admin.client.POST('/v1/spaces/{spaceId}/content', { params: { path: { spaceId: space.id } }, body: { changes } });
      expect(response.status).toBe(400);
      // micromark reads thousands of nested quotes quadratically: refused as too deep, or — past the
      // gate's deadline on a busy machine — as too slow to parse. Either way, a 400 naming the field.
      expect(error?.error.issues).toEqual([{ path: '/body/changes/1/markdown', message: expect.stringMatching(new RegExp(`more than ${MAX_MARKDOWN_DEPTH} levels|takes too long`)) }]);
    }
    expect(await contentRowCounts(t.db)).toEqual(before);
  });

  it('accepts a body as deep as the limit and reads it back as a document', async () => {
    const t = server();
    const { admin, space } = await world(t);
    // Root → quotes → paragraph → text: the limit counts every level of the tree.
    const markdown = quotes(MAX_MARKDOWN_DEPTH - 2);
    const { refs } = await edit(admin, space.id, [{ type: 'insert_page', title: 'Deep', ref: 'deep', markdown }]);
    const { data, response } = await admin.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', {
      params: { path: { spaceId: space.id, pageId: refs.deep! }, query: { format: 'document' } },
    });
    expect(response.status).toBe(200);
    expect(JSON.stringify(data)).toContain('"value":"deep"');
  });

  it('400 for a body too slow to parse, and the server keeps answering meanwhile', async () => {
    const t = server();
    const { admin, space, home } = await world(t);
    const writing = admin.client.POST('/v1/spaces/{spaceId}/content', {
      params: { path: { spaceId: space.id } },
      body: { changes: [{ type: 'update_page', page: home, markdown: slow }] },
    });
    // The parse runs off the event loop: a read answers while it goes on (before the write's answer).
    let written = false;
    void writing.then(() => (written = true));
    expect((await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).response.status).toBe(200);
    expect(written).toBe(false);
    const { response, error } = await writing;
    expect(response.status).toBe(400);
    expect(error?.error.issues).toEqual([{ path: '/body/changes/0/markdown', message: expect.stringContaining('takes too long to process') }]);
  });

  it('checks change-request batches and comments the same way', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const cr = await createCr(admin, space.id, { subject: 'Proposal' });
    const onCr = await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', {
      ...crPath(space.id, cr.id),
      body: { changes: [{ type: 'insert_page', title: 'Deep', markdown: quotes(500) }] },
    });
    expect(onCr.response.status).toBe(400);
    expect(onCr.error?.error.issues?.[0]?.path).toBe('/body/changes/0/markdown');
    const comment = await admin.client.POST('/v1/spaces/{spaceId}/comments', { params: { path: { spaceId: space.id } }, body: { body: { markdown: quotes(500) } } });
    expect(comment.response.status).toBe(400);
    expect(comment.error?.error.issues?.[0]?.path).toBe('/body/body/markdown');
    expect(await t.db.selectFrom('comments').select('id').execute()).toEqual([]);
  });

  it('imports a page whose body is refused without its body, listed in skipped; a deep SUMMARY.md is a 400', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const importZip = (entries: Parameters<typeof zip>[0]) =>
      admin.client.POST('/v1/spaces/{spaceId}/content/import', { params: { path: { spaceId: space.id } }, body: { source: 'zip', base64: zip(entries).toString('base64') } });
    const { data, response } = await importZip([
      { name: 'SUMMARY.md', data: '# Summary\n\n* [Fine](fine.md)\n* [Deep](deep.md)\n' },
      { name: 'fine.md', data: '# Fine\n\nA fine page.' },
      { name: 'deep.md', data: `# Deep\n\n${quotes(3000)}` },
    ]);
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ importedResources: 2, skipped: [{ resource: 'deep.md', reason: expect.stringContaining('imported without its body') }] });
    const deepSummary = await importZip([{ name: 'SUMMARY.md', data: nestedLists(200).replace(/level (\d+)/g, '[Page $1](p$1.md)') }]);
    expect(deepSummary.response.status).toBe(400);
  });
});
