// The generated social image of a published page (issue 28, "SEO and sharing"): announced by the page
// (`og:image`, `twitter:image`, absolute, on sites anyone may read), a 1200×630 PNG rendered once per
// what it shows (the parse pool's renders counted) and cached for a year at its hashed address; on a
// share-link site only who may read the page gets it; hostile titles render; a Japanese or Arabic
// title is drawn; the site's logo replaces the coloured square, and a new logo gives a new address.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Resvg } from '@resvg/resvg-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { edit } from '../support/content.js';
import { solidPng } from '../support/images.js';
import { publishedSite, sitePath, Visitor } from '../support/published.js';

const server = useTestServer();
afterEach(() => vi.restoreAllMocks());

const PAGES = [
  { type: 'insert_page', ref: 'install', title: 'Install', slug: 'install', description: 'Getting the tool on your machine.', markdown: 'Steps.' },
  { type: 'insert_page', ref: 'hostile', title: `<script>alert(1)</script> مرحبا 👩‍👩‍👧 ${'ש'.repeat(200)}`.slice(0, 256), slug: 'hostile', description: `${'😀'.repeat(100)} <b>x</b> ${'x'.repeat(300)}`, markdown: 'Text.' },
] as never;

const meta = (html: string, attribute: 'property' | 'name', key: string) => new RegExp(`<meta ${attribute}="${key}" content="([^"]*)">`).exec(html)?.[1]?.replace(/&#x26;/g, '&');

/** Width and height from a PNG's IHDR, after checking its signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The server's address of an absolute one on the site (PUBLIC_URL is the tests' `http://api.test`). */
const local = (t: { url: string }, address: string) => `${t.url}${new URL(address).pathname}${new URL(address).search}`;

const renders = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.filter(([task]) => task === 'social-image').length;

/** Pixels of a 1200×630 PNG in a box that `test` accepts (decoded by resvg: the PNG drawn as an SVG's only image). */
function countPixels(png: Buffer, box: { left: number; top: number; right: number; bottom: number }, test: (r: number, g: number, b: number) => boolean): number {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><image href="data:image/png;base64,${png.toString('base64')}" width="1200" height="630"/></svg>`;
  const rgba = new Resvg(svg).render().pixels;
  let count = 0;
  for (let y = box.top; y < box.bottom; y++) for (let x = box.left; x < box.right; x++) if (test(rgba[(y * 1200 + x) * 4]!, rgba[(y * 1200 + x) * 4 + 1]!, rgba[(y * 1200 + x) * 4 + 2]!)) count++;
  return count;
}
/** The title's band, and the corner where the logo or the coloured square is. */
const TITLE_BAND = { left: 60, top: 80, right: 1140, bottom: 310 };
const CORNER = { left: 60, top: 480, right: 420, bottom: 620 };
const ink = (r: number, g: number, b: number) => r < 110 && g < 110 && b < 110;

/** The page's image as a visitor's link preview gets it: the page's `og:image`, fetched. */
async function previewImage(t: { url: string }, siteId: string, page: string): Promise<{ address: string; png: Buffer }> {
  const address = meta((await new Visitor(t.url).get(`/s/${siteId}/${page}`)).body, 'property', 'og:image')!;
  const answer = await fetch(local(t, address));
  expect(answer.status).toBe(200);
  return { address, png: Buffer.from(await answer.arrayBuffer()) };
}

describe('social image of a published page', () => {
  it('is announced with absolute addresses, is a 1200×630 PNG rendered once per content, cached for a year at its hashed address', async () => {
    const t = server();
    const world = await publishedSite(t, PAGES, { title: 'Toolbox' });
    const run = vi.spyOn(t.context.parsing, 'run');
    const page = await new Visitor(t.url).get(`/s/${world.siteId}/install`);
    expect(page.status).toBe(200);
    const image = meta(page.body, 'property', 'og:image')!;
    // Absolute, on the page's own address (its canonical's).
    const canonical = /<link rel="canonical" href="([^"]+)">/.exec(page.body)![1]!;
    expect(image).toMatch(new RegExp(`^${new URL(canonical).origin}/s/${world.siteId}/_social/install\\.png\\?v=[A-Za-z0-9_-]{22}$`));
    expect(meta(page.body, 'name', 'twitter:image')).toBe(image);
    expect(meta(page.body, 'name', 'twitter:card')).toBe('summary_large_image');
    expect(meta(page.body, 'property', 'og:image:width')).toBe('1200');
    expect(meta(page.body, 'property', 'og:image:height')).toBe('630');

    const first = await fetch(local(t, image));
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = Buffer.from(await first.arrayBuffer());
    expect(pngSize(bytes)).toEqual({ width: 1200, height: 630 });
    expect(renders(run)).toBe(1);
    // Again: the kept bytes, no render; without the hash, the same image, revalidated.
    const second = await fetch(local(t, image));
    expect(Buffer.from(await second.arrayBuffer()).equals(bytes)).toBe(true);
    const unhashed = await fetch(local(t, image).replace(/\?v=.*/, ''));
    expect(unhashed.headers.get('cache-control')).toBe('public, no-cache');
    expect(Buffer.from(await unhashed.arrayBuffer()).equals(bytes)).toBe(true);
    expect(renders(run)).toBe(1);
    expect(await t.context.db.selectFrom('siteSocialImages').select('pageId').where('siteId', '=', world.siteId).execute()).toHaveLength(1);

    // A new title: a new address, one render, and the page's older image is not kept.
    await edit(world.admin, world.spaces.guide.id, [{ type: 'update_page', page: world.spaces.guide.refs.install!, title: 'Install the tool' }] as never);
    const renamed = meta((await new Visitor(t.url).get(`/s/${world.siteId}/install`)).body, 'property', 'og:image')!;
    expect(renamed).not.toBe(image);
    const fresh = await fetch(local(t, renamed));
    expect(fresh.status).toBe(200);
    expect(Buffer.from(await fresh.arrayBuffer()).equals(bytes)).toBe(false);
    expect(renders(run)).toBe(2);
    expect(await t.context.db.selectFrom('siteSocialImages').select('pageId').where('siteId', '=', world.siteId).execute()).toHaveLength(1);
    // No such page: the site's 404, nothing rendered.
    expect((await fetch(`${t.url}/s/${world.siteId}/_social/nowhere.png`)).status).toBe(404);
    expect(renders(run)).toBe(2);
  });

  it('renders a hostile title and description (RTL, emoji, markup, at their longest) without failing', async () => {
    const t = server();
    const world = await publishedSite(t, PAGES);
    const page = await new Visitor(t.url).get(`/s/${world.siteId}/hostile`);
    expect(page.status).toBe(200);
    const answer = await fetch(local(t, meta(page.body, 'property', 'og:image')!));
    expect(answer.status).toBe(200);
    expect(pngSize(Buffer.from(await answer.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
  });

  it('a share-link site names no image, and serves it only to who may read the page', async () => {
    const t = server();
    const world = await publishedSite(t, PAGES, { visibility: 'share-link' });
    const { data: link } = await world.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { params: { path: { organizationId: world.organizationId, siteId: world.siteId } }, body: { label: 'Partners' } });
    const stranger = new Visitor(t.url);
    const absent = await stranger.get('/s/no-such-site/install');
    const refused = await stranger.get(`/s/${world.siteId}/_social/install.png`);
    expect(refused.status).toBe(404);
    expect(refused.body).toBe(absent.body);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');

    const partner = new Visitor(t.url);
    const page = await partner.follow(`/s/${world.siteId}/install?shareKey=${link!.key}`);
    expect(page.status).toBe(200);
    expect(meta(page.body, 'property', 'og:image')).toBeUndefined();
    expect(meta(page.body, 'name', 'twitter:card')).toBe('summary');
    const image = await partner.get(`/s/${world.siteId}/_social/install.png`);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('private, no-cache');
  });

  it('draws a Japanese and an Arabic title, which the Latin face alone leaves blank', async () => {
    const t = server();
    const world = await publishedSite(t, [
      { type: 'insert_page', ref: 'ja', title: 'はじめに：最初のリクエストを送信する', slug: 'hajimeni', markdown: 'テキスト' },
      { type: 'insert_page', ref: 'ar', title: 'البدء السريع', slug: 'albad', markdown: 'نص' },
    ] as never);
    const japanese = await previewImage(t, world.siteId, 'hajimeni');
    expect(countPixels(japanese.png, TITLE_BAND, ink)).toBeGreaterThan(8000);
    const arabic = await previewImage(t, world.siteId, 'albad');
    expect(countPixels(arabic.png, TITLE_BAND, ink)).toBeGreaterThan(3000);
    // Right to left: the short line ends at the right margin, the left half stays blank.
    expect(countPixels(arabic.png, { ...TITLE_BAND, right: 600 }, ink)).toBe(0);
  });

  it("draws the site's logo in the corner; a new logo gives a new address and a new image", async () => {
    const logos = { '/magenta.png': solidPng(96, 48, [255, 0, 170]), '/green.png': solidPng(96, 48, [0, 200, 60]) };
    const hits = new Map<string, number>();
    const host = createServer((req, res) => {
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
      const logo = logos[req.url as keyof typeof logos];
      if (logo) return res.writeHead(200, { 'Content-Type': 'image/png' }).end(logo);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    try {
      const t = server();
      const world = await publishedSite(t, PAGES, { title: 'Toolbox' });
      const setLogo = (path: string) =>
        world.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...sitePath(world.organizationId, world.siteId), body: { logo: { light: `${base}${path}`, dark: `${base}${path}` } } as never });
      const square = (r: number, g: number, b: number) => r === 0x34 && g === 0x6d && b === 0xdb;
      const magenta = (r: number, g: number, b: number) => r > 230 && g < 30 && b > 140 && b < 200;
      const green = (r: number, g: number, b: number) => r < 30 && g > 180 && b > 40 && b < 90;
      const plain = await previewImage(t, world.siteId, 'install');
      expect(countPixels(plain.png, CORNER, square)).toBeGreaterThan(1000);
      expect(countPixels(plain.png, CORNER, magenta)).toBe(0);

      expect((await setLogo('/magenta.png')).response.status).toBe(200);
      const withLogo = await previewImage(t, world.siteId, 'install');
      expect(withLogo.address).not.toBe(plain.address);
      expect(countPixels(withLogo.png, CORNER, magenta)).toBeGreaterThan(48 * 96 * 0.8);
      expect(countPixels(withLogo.png, CORNER, square)).toBe(0);
      // The image's ETag names its content: the logo's bytes included.
      const etag = (await fetch(local(t, withLogo.address))).headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      expect(etag).not.toBe(`"${new URL(withLogo.address).searchParams.get('v')}"`);

      expect((await setLogo('/green.png')).response.status).toBe(200);
      const changed = await previewImage(t, world.siteId, 'install');
      expect(changed.address).not.toBe(withLogo.address);
      expect(countPixels(changed.png, CORNER, green)).toBeGreaterThan(48 * 96 * 0.8);
      expect(countPixels(changed.png, CORNER, magenta)).toBe(0);
      // The logo came from the site's own store: fetched once per address, not per render.
      expect(hits.get('/magenta.png')).toBe(1);
      expect(hits.get('/green.png')).toBe(1);
    } finally {
      await new Promise((resolve) => host.close(resolve));
    }
  });
});
