import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createOrganizationWithAdmin, createSpace } from '../support/factories.js';
import { edit, pngBytes } from '../support/content.js';
import { signDownload } from '../../src/content/download-signature.js';

const server = useTestServer();

/** A space with one PNG file; answers the file's signature and a fetch of it on the test server. */
async function withFile(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization);
  const bytes = pngBytes(10, 20);
  const { refs } = await edit(admin, space.id, [{ type: 'insert_file', name: 'chart (1).png', base64: bytes.toString('base64'), ref: 'file' }]);
  const { data: file } = await admin.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}', { params: { path: { spaceId: space.id, fileId: refs.file! } } });
  const signature = new URL(file!.downloadURL).pathname.replace('/files/', '');
  return { admin, space, bytes, signature, download: (sig = signature) => fetch(`${t.url}/files/${sig}`) };
}

describe('GET /files/{signature}', () => {
  it('needs no token: the signature is the credential', async () => {
    const { download } = await withFile(server());
    expect((await download()).status).toBe(200);
  });

  it('400 for a malformed signature', async () => {
    const response = await fetch(`${server().url}/files/not%20a%20signature`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { issues: unknown } }).error.issues).toEqual([expect.objectContaining({ path: '/path/signature' })]);
  });

  it('serves the bytes with the file content type and safe headers', async () => {
    const { download, bytes } = await withFile(server());
    const response = await download();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''chart%20(1).png");
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('reaches the bytes through the SDK as well', async () => {
    const t = server();
    const { signature, bytes } = await withFile(t);
    const { data, response } = await t.client().GET('/files/{signature}', { params: { path: { signature } }, parseAs: 'arrayBuffer' });
    expect(response.status).toBe(200);
    expect(Buffer.from(data as ArrayBuffer).equals(bytes)).toBe(true);
  });

  it('404 for a tampered or forged signature', async () => {
    const { download, signature } = await withFile(server());
    const raw = Buffer.from(signature, 'base64url');
    raw[40]! ^= 1;
    for (const bad of [raw.toString('base64url'), signature.slice(0, -4), 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const response = await download(bad);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { code: 404, message: 'File not found' } });
    }
  });

  it('410 once the address has expired', async () => {
    const t = server();
    const { space, signature } = await withFile(t);
    const { blobHash } = await t.db.selectFrom('spaceHeadFiles').select('blobHash').where('spaceId', '=', space.id).executeTakeFirstOrThrow();
    const old = signDownload(t.context.keys.fileSignature, { spaceId: space.id, blobHash: blobHash.toString('hex'), contentType: 'image/png', name: 'x.png' }, Date.now() - 3 * 3600_000);
    expect(old).not.toBe(signature);
    const response = await fetch(`${t.url}/files/${old}`);
    expect(response.status).toBe(410);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
  });

  it('404 once the space is deleted', async () => {
    const { admin, space, download } = await withFile(server());
    await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    expect((await download()).status).toBe(404);
  });
});
