import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace, type TestUser } from '../support/factories.js';
import { solidPng } from '../support/images.js';
import { signTicket } from '../../src/content/download-signature.js';

const server = useTestServer();

/** The text of a PDF, as poppler's pdftotext lays it out. */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'cw-pdf-'));
  try {
    writeFileSync(join(dir, 'file.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', join(dir, 'file.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const GUIDE = [
  'The guide explains **everything** about the tool, with `inline code` and a [link to the FAQ](/pages/{faq}).',
  '',
  '## Installing',
  '',
  '- Download the package',
  '- Run the installer',
  '  1. Accept the licence',
  '  2. Pick a folder',
  '',
  '| Platform | Command | Notes |',
  '| --- | --- | --- |',
  '| Linux | apt install tool | fastest |',
  '| macOS | brew install tool | needs Homebrew |',
  '',
  '```sh',
  'tool --init --verbose',
  '```',
  '',
  '> A quoted remark.',
  '',
  '![The chart](/files/{chart})',
  '',
  'Non-Latin text: Привет, Ελληνικά, 日本語.',
].join('\n');

async function changeRequestWithContent(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization, { title: 'Handbook' });
  const { data: changeRequest } = await admin.client.POST('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: space.id } }, body: { subject: 'Rewrite the guide' } });
  const path = { spaceId: space.id, changeRequestId: changeRequest!.id };
  const { data: first } = await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', {
    params: { path },
    body: {
      changes: [
        { type: 'insert_file', name: 'chart.png', base64: solidPng(60, 30).toString('base64'), ref: 'chart' },
        { type: 'insert_page', title: 'Guide', description: 'How to use the tool', ref: 'guide' },
        { type: 'insert_page', title: 'Setup details', parent: { ref: 'guide' }, markdown: 'The details of the setup.', ref: 'details' },
        { type: 'insert_page', title: 'FAQ', markdown: 'Frequently asked questions.', ref: 'faq' },
      ],
    },
  });
  const refs = first!.refs;
  await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', {
    params: { path },
    body: { changes: [{ type: 'update_page', page: refs.guide!, markdown: GUIDE.replace('{faq}', refs.faq!).replace('{chart}', refs.chart!) }] },
  });
  return { admin, organization, space, changeRequest: changeRequest!, path, refs };
}

const getPdf = (user: TestUser, path: { spaceId: string; changeRequestId: string }, query: { only?: boolean; page?: string } = {}) =>
  user.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf', { params: { path, query } });

/** Downloads a PDF address (PUBLIC_URL is not this test server's address: its path is). */
async function download(t: TestServer, url: string): Promise<Response> {
  return fetch(`${t.url}${new URL(url).pathname}`);
}

describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf', () => {
  it('400 for `only` without `page` and for a page the change request does not have', async () => {
    const t = server();
    const { admin, path } = await changeRequestWithContent(t);
    const only = await getPdf(admin, path, { only: true });
    expect(only.response.status).toBe(400);
    expect(only.error!.error.issues).toEqual([{ path: '/query/only', message: 'needs `page`: the page the PDF holds alone' }]);
    const unknown = await getPdf(admin, path, { page: 'NoSuchPage' });
    expect(unknown.response.status).toBe(400);
    expect(unknown.error!.error.issues).toEqual([{ path: '/query/page', message: 'no page "NoSuchPage" in the change request' }]);
  });


  it('answers a signed address of the PDF: title page, contents with page numbers, pages in tree order', async () => {
    const t = server();
    const { organization, path, changeRequest } = await changeRequestWithContent(t);
    const reader = await createMember(t, organization, 'read');
    const { data, response } = await getPdf(reader, path);
    expect(response.status).toBe(200);
    expect(data).toEqual({ url: expect.stringMatching(/^http:\/\/api\.test\/pdf\/[A-Za-z0-9_-]+$/) });
    const pdf = await download(t, data!.url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`inline; filename="change-request-${changeRequest.number}.pdf"`);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    if (process.env.KEEP_PDF) writeFileSync(process.env.KEEP_PDF, bytes);
    const text = pdfText(bytes);
    const pages = text.split('\f');
    expect(pages[0]).toMatch(/Handbook\s+Change request #1: Rewrite the guide/);
    expect(pages[0]).toMatch(/3 pages/);
    // The contents: each page with the number of the sheet it starts on, nested pages indented.
    expect(pages[1]).toMatch(/Contents\s+Guide\s+3\s+Setup details\s+4\s+FAQ\s+5/);
    expect(pages[2]).toMatch(/^\s*Guide\s+How to use the tool/);
    expect(pages[2]).toContain('The guide explains everything about the tool, with inline code and a link to the FAQ.');
    expect(pages[2]).toMatch(/Installing/);
    // pdfmake draws bullets as shapes, not characters.
    expect(pages[2]).toMatch(/Download the package\s+Run the installer\s+1\. Accept the licence\s+2\. Pick a folder/);
    expect(pages[2]).toMatch(/Platform\s+Command\s+Notes\s+Linux\s+apt install tool\s+fastest\s+macOS\s+brew install tool\s+needs Homebrew/);
    expect(pages[2]).toContain('tool --init --verbose');
    expect(pages[2]).toContain('A quoted remark.');
    expect(pages[2]).toMatch(/Привет, Ελληνικά/);
    expect(pages[3]).toMatch(/Setup details\s+The details of the setup\./);
    expect(pages[4]).toMatch(/FAQ\s+Frequently asked questions\./);
    expect(pages[2]).toMatch(/3 ?\/ ?5/);
  });

  it('`page` gives the page with its subpages, `only` the page alone', async () => {
    const t = server();
    const { admin, path, refs } = await changeRequestWithContent(t);
    const section = pdfText(Buffer.from(await (await download(t, (await getPdf(admin, path, { page: refs.guide! })).data!.url)).arrayBuffer()));
    expect(section).toMatch(/Contents\s+Guide\s+3\s+Setup details\s+4\s/);
    expect(section).not.toContain('FAQ\n');
    const alone = pdfText(Buffer.from(await (await download(t, (await getPdf(admin, path, { page: refs.details!, only: true })).data!.url)).arrayBuffer()));
    expect(alone).toMatch(/Contents\s+Setup details\s+3\s/);
    expect(alone).toMatch(/1 page\b/);
    expect(alone).not.toContain('Guide');
  });

  it('renders a revision once: the cache serves the same bytes, a new revision renders anew', async () => {
    const t = server();
    const { admin, path, refs } = await changeRequestWithContent(t);
    const first = (await getPdf(admin, path)).data!.url;
    const second = (await getPdf(admin, path)).data!.url;
    expect(second).toBe(first);
    const cached = () =>
      t.db
        .selectFrom('revisionPdfs')
        .innerJoin('revisions', (join) => join.onRef('revisions.organizationId', '=', 'revisionPdfs.organizationId').onRef('revisions.id', '=', 'revisionPdfs.revisionId'))
        .select(['revisionPdfs.revisionId', 'revisionPdfs.byteLength'])
        .where('revisions.spaceId', '=', path.spaceId)
        .orderBy('revisionPdfs.createdAt')
        .execute();
    expect(await cached()).toHaveLength(1);
    const bytes = Buffer.from(await (await download(t, first)).arrayBuffer());
    expect(bytes.length).toBe((await cached())[0]!.byteLength);
    await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', {
      params: { path },
      body: { changes: [{ type: 'update_page', page: refs.faq!, markdown: 'New answers.' }] },
    });
    const third = (await getPdf(admin, path)).data!.url;
    expect(third).not.toBe(first);
    expect(await cached()).toHaveLength(2);
    // The earlier address still serves the revision it was made for.
    expect(pdfText(Buffer.from(await (await download(t, first)).arrayBuffer()))).toContain('Frequently asked questions.');
    expect(pdfText(Buffer.from(await (await download(t, third)).arrayBuffer()))).toContain('New answers.');
  });
});

describe('GET /pdf/{signature}', () => {
  it('404 for a tampered or forged signature, 410 once expired, 404 once the space is gone', async () => {
    const t = server();
    const { admin, path, space } = await changeRequestWithContent(t);
    const { data } = await getPdf(admin, path);
    const signature = new URL(data!.url).pathname.replace('/pdf/', '');
    const raw = Buffer.from(signature, 'base64url');
    raw[40]! ^= 1;
    for (const bad of [raw.toString('base64url'), signature.slice(0, -4), 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const response = await fetch(`${t.url}/pdf/${bad}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { code: 404, message: 'PDF not found' } });
    }
    // A file download's signature is not a PDF address.
    const fileToken = signTicket(t.context.keys.fileSignature, 'file-download', { s: space.id, c: path.changeRequestId, r: 'x' });
    expect((await fetch(`${t.url}/pdf/${fileToken}`)).status).toBe(404);
    const { data: request } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { params: { path } });
    const expired = signTicket(t.context.keys.fileSignature, 'change-request-pdf', { s: space.id, c: path.changeRequestId, r: request!.revision }, Date.now() - 3 * 3600_000);
    const old = await fetch(`${t.url}/pdf/${expired}`);
    expect(old.status).toBe(410);
    expect(((await old.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
    expect((await fetch(`${t.url}/pdf/${signature}`)).status).toBe(200);
    await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    expect((await fetch(`${t.url}/pdf/${signature}`)).status).toBe(404);
  });

  it('is reachable through the SDK without a token', async () => {
    const t = server();
    const { admin, path } = await changeRequestWithContent(t);
    const signature = new URL((await getPdf(admin, path)).data!.url).pathname.replace('/pdf/', '');
    const { data, response } = await t.client().GET('/pdf/{signature}', { params: { path: { signature } }, parseAs: 'arrayBuffer' });
    expect(response.status).toBe(200);
    expect(Buffer.from(data as ArrayBuffer).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
