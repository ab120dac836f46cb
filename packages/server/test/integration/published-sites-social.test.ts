// The generated social image of a published page (issue 28, "SEO and sharing"): announced by the page
// (`og:image`, `twitter:image`, absolute, on sites anyone may read), a 1200×630 PNG rendered once per
// what it shows (the parse pool's renders counted) and cached for a year at its hashed address; on a
// share-link site only who may read the page gets it; hostile titles render.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { edit } from '../support/content.js';
import { publishedSite, Visitor } from '../support/published.js';

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
});
