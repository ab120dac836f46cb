// Published sites as their visitors get them (issue 20), through real HTTP: the address forms (site id,
// basename, custom hostname), sections, site spaces and page paths, the 404 page, redirects of moved
// pages, rendering (sanitized, highlighted, anchors, links, GitBook blocks, files), every audience rule
// (unpublished, public, unlisted, share-link, visitor-auth, adaptive content), ETag/304, headers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { TestDnsServer } from '../support/dns-server.js';
import { useTestServer } from '../support/harness.js';
import { edit } from '../support/content.js';
import { createCr, editCr, mergeCr } from '../support/change-requests.js';
import { solidPng } from '../support/images.js';
import { SITE_CSP } from '../../src/areas/sites/published/site-routes.js';
import { addSection, addSiteSpace, publishedSite, sitePath, spaceWithPages, Visitor, type PublishedWorld } from '../support/published.js';
import { claimHostname } from '../support/sites.js';

// Custom hostnames are served once their DNS proves control: this DNS server answers the check.
const dns = await TestDnsServer.start();
afterAll(() => dns.close());
const server = useTestServer({ env: { SITE_DNS_SERVERS: dns.address } });

const GUIDE_BODY = [
  'Read the [FAQ](/pages/{faq}#answers), the [install page](./install.md), [nowhere](/pages/missing) and [the web](https://example.com/x).',
  '',
  '## Install it',
  '',
  '```js',
  'const answer = 42;',
  '```',
  '',
  '| a | b |',
  '| --- | --- |',
  '| 1 | 2 |',
  '',
  '- [x] done',
  '',
  '{% hint style="warning" %}',
  'Mind the **gap**.',
  '{% endhint %}',
  '',
  '<script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">js</a>',
  '',
  '![Chart](/files/{chart})',
].join('\n');

/** A site: Guide (Welcome, Install under it, a hidden page, a group with a page), and a FAQ page. */
async function guideSite(options: Parameters<typeof publishedSite>[2] = {}): Promise<PublishedWorld> {
  const t = server();
  const world = await publishedSite(
    t,
    [
      { type: 'insert_file', ref: 'chart', name: 'chart.png', contentType: 'image/png', base64: solidPng(20, 10).toString('base64') },
      { type: 'insert_page', ref: 'welcome', title: 'Welcome', slug: 'welcome', emoji: '👋', description: 'Start here.', markdown: 'Hello, visitor.' },
      { type: 'insert_page', ref: 'guide', title: 'Guide', slug: 'guide', markdown: '' },
      { type: 'insert_page', ref: 'install', parent: { ref: 'guide' }, title: 'Install', slug: 'install', markdown: 'Run `make`.' },
      { type: 'insert_page', ref: 'secret', title: 'Hidden', slug: 'hidden', hidden: true, markdown: 'Not in the menu.' },
      { type: 'insert_page', ref: 'faq', title: 'FAQ', slug: 'faq', markdown: '## Answers\n\nYes.', noIndex: true },
    ] as never,
    options,
  );
  const { guide } = world.spaces;
  const body = GUIDE_BODY.replace('{faq}', guide!.refs.faq!).replace('{chart}', guide!.refs.chart!);
  await edit(world.admin, guide!.id, [{ type: 'update_page', page: guide!.refs.guide!, markdown: body } as never]);
  return world;
}

const root = (world: PublishedWorld) => `/s/${world.siteId}`;

describe('publication', () => {
  it('serves the site at /s/{site id}, at /s/{basename} and on its hostname; the default space at the root shows its first page', async () => {
    const world = await guideSite();
    const visitor = new Visitor(world.t.url);
    const home = await visitor.get(`${root(world)}/`);
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.body).toContain('<h1 class="page-title"><span aria-hidden="true">👋 </span>Welcome</h1>');
    expect(home.body).toContain('<title>Welcome · Acme Docs</title>');

    await world.admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(world.organizationId, world.siteId), body: { basename: 'acme' } });
    await claimHostname(world.admin.client, world.organizationId, world.siteId, 'docs.acme.test', dns);
    const byName = await visitor.get('/s/acme/guide/install');
    expect(byName.status).toBe(200);
    expect(byName.body).toContain('<h1 class="page-title">Install</h1>');
    expect(byName.body).toContain('<link rel="canonical" href="http://docs.acme.test/guide/install">');
    const byHost = await visitor.get('/guide/install', { host: 'docs.acme.test' });
    expect(byHost.status).toBe(200);
    expect(byHost.body).toContain('<h1 class="page-title">Install</h1>');
    // On its own host, the site's links start at the root.
    expect(byHost.body).toContain('href="/guide/install"');
    expect((await visitor.get('/s/nobody-here/')).status).toBe(404);
  });

  it('never takes the API host or the API routes from the API: /v1 on the public host stays JSON', async () => {
    const world = await guideSite();
    const visitor = new Visitor(world.t.url);
    const api = await visitor.get('/v1/orgs/x/sites', { host: 'api.test' });
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.status).toBe(401);
    // An unknown host is no site: the API answers.
    expect((await visitor.get('/v1/orgs/x/sites', { host: 'nothing.example.test' })).headers['content-type']).toMatch(/^application\/json/);
    // The site's pages are not operations of the contract: no token, no validator.
    expect((await visitor.get(`${root(world)}/welcome`, { host: 'api.test' })).status).toBe(200);
  });

  it('answers a 404 page in the site\'s style for unknown paths; a group leads to its first page', async () => {
    const world = await guideSite();
    const visitor = new Visitor(world.t.url);
    const missing = await visitor.get(`${root(world)}/no/such/page`);
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('Page not found');
    expect(missing.body).toContain('<a class="site-title" href="/s/');
    expect(missing.body).toContain('<meta name="robots" content="noindex">');
    expect((await visitor.get(`${root(world)}/%E0%A4%A`)).status).toBe(404);
  });

  it('redirects the old path of a moved or renamed page to its new one (301), keeping the query', async () => {
    const world = await guideSite();
    const { guide } = world.spaces;
    const visitor = new Visitor(world.t.url);
    expect((await visitor.get(`${root(world)}/guide/install`)).status).toBe(200);
    await edit(world.admin, guide!.id, [{ type: 'update_page', page: guide!.refs.install!, slug: 'setup' } as never]);
    await edit(world.admin, guide!.id, [{ type: 'update_page', page: guide!.refs.install!, parent: null } as never]);
    const moved = await visitor.get(`${root(world)}/guide/install?x=1`);
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe(`${root(world)}/setup?x=1`);
    expect((await visitor.get(`${root(world)}/setup`)).status).toBe(200);
  });
});

describe('sections and site spaces', () => {
  it('the default section at the root, other sections at their path, a section\'s site spaces (variants) at theirs; tabs and switcher', async () => {
    const world = await guideSite();
    const { t, admin, organizationId, siteId } = world;
    const api = await spaceWithPages(t, admin, organizationId, 'API', [{ type: 'insert_page', title: 'Endpoints', slug: 'endpoints', markdown: 'GET /things' } as never]);
    const v2 = await spaceWithPages(t, admin, organizationId, 'API v2', [{ type: 'insert_page', title: 'Endpoints v2', slug: 'endpoints', markdown: 'GET /v2/things' } as never]);
    const section = await addSection(admin.client, organizationId, siteId, api.id, 'Reference');
    await addSiteSpace(admin.client, organizationId, siteId, v2.id, section.id);
    const { data: sections } = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/sections', sitePath(organizationId, siteId));
    const paths = sections!.items.map((item) => item.path);
    const reference = sections!.items.find((item) => item.title === 'Reference')!;
    const v2Path = reference.siteSpaces.find((item) => item.title === 'API v2')!.path;
    const visitor = new Visitor(t.url);

    const home = await visitor.get(`${root(world)}/`);
    expect(home.status).toBe(200);
    expect(home.body).toContain('<nav class="section-tabs" aria-label="Sections">');
    for (const path of paths) expect(home.body).toContain(path === reference.path ? `href="${root(world)}/${path}/"` : `href="${root(world)}/"`);
    const endpoints = await visitor.get(`${root(world)}/${reference.path}/endpoints`);
    expect(endpoints.body).toContain('<h1 class="page-title">Endpoints</h1>');
    expect(endpoints.body).toContain('class="switcher"');
    // The switcher leads to the same page in the other variant, where it has one.
    expect(endpoints.body).toContain(`href="${root(world)}/${reference.path}/${v2Path}/endpoints"`);
    const second = await visitor.get(`${root(world)}/${reference.path}/${v2Path}/endpoints`);
    expect(second.body).toContain('<h1 class="page-title">Endpoints v2</h1>');
    expect(second.body).toContain(`href="${root(world)}/${reference.path}/endpoints"`);
    expect(second.body).toMatch(/<a href="[^"]+" aria-current="page">API v2<\/a>/);
  });
});

describe('rendering', () => {
  it('renders sanitized Markdown: highlighted code, heading anchors, tables, task lists, hints, resolved and broken links, files; outline, breadcrumbs, previous/next', async () => {
    const world = await guideSite();
    const visitor = new Visitor(world.t.url);
    const page = await visitor.get(`${root(world)}/guide`);
    expect(page.status).toBe(200);
    const html = page.body;
    // Nothing the author wrote runs: no script but the site's two files (and the JSON-LD data block,
    // which browsers never run), no handlers, no javascript: links.
    expect(html.match(/<script[^>]*>/g)).toEqual([
      '<script type="application/ld+json">',
      expect.stringMatching(/^<script src="\/s\/[^"]+\/_assets\/site-[0-9a-f]{12}\.js" defer>$/),
      expect.stringMatching(/^<script src="\/s\/[^"]+\/_assets\/search-[0-9a-f]{12}\.js" defer>$/),
    ]);
    expect(html).not.toMatch(/onerror|alert\(|javascript:/);
    expect(html).toContain('<span class="hljs-keyword">const</span>');
    expect(html).toContain('<h2 id="install-it">Install it<a class="heading-anchor" href="#install-it"');
    expect(html).toContain('<div class="table-wrap" tabindex="0" role="region" aria-label="Table"><table>');
    expect(html).toContain('<input type="checkbox" checked disabled>');
    expect(html).toContain('<div class="hint hint-warning" role="note"><p class="hint-label">Warning</p>');
    expect(html).toContain(`<a href="${root(world)}/faq#answers">FAQ</a>`);
    expect(html).toContain(`<a href="${root(world)}/guide/install">install page</a>`);
    expect(html).toContain('<span class="broken-link" title="This link leads to nothing published">nowhere</span>');
    expect(html).toContain('<a href="https://example.com/x" rel="noopener noreferrer">the web</a>');
    const image = /<img src="([^"]+)" alt="Chart"/.exec(html)![1]!;
    expect(image).toBe(`${root(world)}/_files/${world.spaces.guide!.id}/${world.spaces.guide!.refs.chart}`);
    const file = await visitor.get(image);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-security-policy']).toContain('sandbox');
    expect((await visitor.get(`${root(world)}/_files/${world.spaces.guide!.id}/nope`)).status).toBe(404);
    // Outline, breadcrumbs below, previous and next in reading order (the hidden page is left out).
    expect(html).toContain('<aside class="outline" aria-label="On this page">');
    expect(html).toMatch(/<a class="previous" href="\/s\/[^"]+\/welcome" rel="prev"><small>Previous<\/small>Welcome<\/a>/);
    expect(html).toMatch(/<a class="next" href="\/s\/[^"]+\/guide\/install" rel="next"><small>Next<\/small>Install<\/a>/);
    const install = await visitor.get(`${root(world)}/guide/install`);
    expect(install.body).toMatch(/<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="\/s\/[^"]+\/guide">Guide<\/a><\/li><\/ol><\/nav>/);
    expect(install.body).toMatch(/<a class="next" href="\/s\/[^"]+\/faq"/);
    // The hidden page answers at its address but is in no navigation.
    const hidden = await visitor.get(`${root(world)}/hidden`);
    expect(hidden.status).toBe(200);
    expect(html).not.toContain('/hidden"');
  });

  it('serves the authors\' SVG and HTML files as downloads (sandboxed, nosniff): only raster images open at their address', async () => {
    const world = await guideSite();
    const { guide } = world.spaces;
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>';
    const { refs } = await edit(world.admin, guide!.id, [
      { type: 'insert_file', ref: 'svg', name: 'diagram.svg', contentType: 'image/svg+xml', base64: Buffer.from(svg).toString('base64') },
      { type: 'insert_file', ref: 'html', name: 'page.html', contentType: 'text/html', base64: Buffer.from('<script>alert(1)</script>').toString('base64') },
    ] as never);
    const visitor = new Visitor(world.t.url);
    for (const [ref, type] of [['svg', 'image/svg+xml'], ['html', 'text/html']] as const) {
      const file = await visitor.get(`${root(world)}/_files/${guide!.id}/${(refs as Record<string, string>)[ref]}`);
      expect(file.status, ref).toBe(200);
      expect(String(file.headers['content-type']).split(';')[0], ref).toBe(type);
      expect(file.headers['content-disposition'], ref).toMatch(/^attachment; filename\*=UTF-8''/);
      expect(file.headers['content-security-policy'], ref).toContain('sandbox');
      expect(file.headers['x-content-type-options'], ref).toBe('nosniff');
    }
    const png = await visitor.get(`${root(world)}/_files/${guide!.id}/${guide!.refs.chart}`);
    expect(png.headers['content-disposition']).toBe("inline; filename*=UTF-8''chart.png");
  });

  it('sets a strict policy (script-src self, no inline script) and the security headers', async () => {
    const world = await guideSite();
    const page = await new Visitor(world.t.url).get(`${root(world)}/`);
    expect(page.headers['content-security-policy']).toBe(SITE_CSP);
    expect(SITE_CSP).toContain("script-src 'self';");
    expect(SITE_CSP).not.toContain('unsafe-inline');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    const css = /<link rel="stylesheet" href="([^"]+\/_assets\/site-[^"]+)">/.exec(page.body)![1]!;
    const asset = await new Visitor(world.t.url).get(css);
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

const patchSite = (world: PublishedWorld, body: Record<string, unknown>) =>
  world.admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(world.organizationId, world.siteId), body: body as never });

describe('audience', () => {
  it('unpublished: 404 for everyone, with nothing of the site in it', async () => {
    const world = await guideSite({ publish: false });
    for (const path of ['/', '/welcome', '/robots.txt', '/sitemap.xml']) {
      const answer = await new Visitor(world.t.url).get(`${root(world)}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toContain('Acme Docs');
    }
  });

  it('public: listed in sitemap.xml (hidden and noIndex pages left out), robots.txt allows it', async () => {
    const world = await guideSite();
    const visitor = new Visitor(world.t.url);
    const robots = await visitor.get(`${root(world)}/robots.txt`);
    expect(robots.body).toBe(`User-agent: *\nAllow: /\nSitemap: http://api.test${root(world)}/sitemap.xml\n`);
    const sitemap = await visitor.get(`${root(world)}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    const locations = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual([`http://api.test${root(world)}/welcome`, `http://api.test${root(world)}/guide`, `http://api.test${root(world)}/guide/install`]);
    const page = await visitor.get(`${root(world)}/welcome`);
    expect(page.headers['x-robots-tag']).toBeUndefined();
    expect(page.body).not.toContain('name="robots"');
    // A noIndex page says so itself.
    const faq = await visitor.get(`${root(world)}/faq`);
    expect(faq.headers['x-robots-tag']).toBe('noindex');
    expect(faq.body).toContain('<meta name="robots" content="noindex">');
  });

  it('unlisted: open, X-Robots-Tag noindex and the meta tag, in no sitemap, robots.txt disallows', async () => {
    const world = await guideSite({ visibility: 'unlisted' });
    const visitor = new Visitor(world.t.url);
    const page = await visitor.get(`${root(world)}/welcome`);
    expect(page.status).toBe(200);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.body).toContain('<meta name="robots" content="noindex">');
    expect((await visitor.get(`${root(world)}/sitemap.xml`)).status).toBe(404);
    expect((await visitor.get(`${root(world)}/robots.txt`)).body).toBe('User-agent: *\nDisallow: /\n');
  });

  it('share-link: only with a valid key; the key is kept in an HttpOnly cookie scoped to the site; a revoked key is a 404', async () => {
    const world = await guideSite({ visibility: 'share-link' });
    const { data: link } = await world.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(world.organizationId, world.siteId), body: { label: 'Partners' } });
    const stranger = new Visitor(world.t.url);
    expect((await stranger.get(`${root(world)}/welcome`)).status).toBe(404);
    expect((await stranger.get(`${root(world)}/welcome?shareKey=${'x'.repeat(40)}`)).status).toBe(404);
    expect(stranger.cookies.size).toBe(0);

    const partner = new Visitor(world.t.url);
    const first = await partner.get(`${root(world)}/guide/install?shareKey=${link!.key}&tab=2`);
    expect(first.status).toBe(303);
    // The key leaves the address (history, referrers); the rest of the query stays.
    expect(first.headers.location).toBe(`${root(world)}/guide/install?tab=2`);
    expect(first.headers['set-cookie']).toEqual([expect.stringMatching(new RegExp(`^cw_site_share=${link!.key}; Max-Age=2592000; Path=${root(world)}; Expires=[^;]+; HttpOnly; SameSite=Lax$`))]);
    const page = await partner.get(first.headers.location as string);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers['x-robots-tag']).toBe('noindex');

    await world.admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}', { params: { path: { organizationId: world.organizationId, siteId: world.siteId, shareLinkId: link!.id } } });
    expect((await partner.get(`${root(world)}/guide/install`)).status).toBe(404);
  });

  it('visitor-auth: a JWT (HS256, exp required) from ?jwt_token= kept in an HttpOnly cookie; without one, a redirect to the fallback URL with the location', async () => {
    const world = await guideSite({ visibility: 'visitor-auth' });
    const { data: auth } = await world.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...sitePath(world.organizationId, world.siteId), body: { fallbackURL: 'https://login.example.com/start?app=docs' } });
    const secret = new TextEncoder().encode(auth!.secret!);
    const token = (claims: Record<string, unknown>, options: { exp?: number | null; alg?: string; key?: Uint8Array } = {}) => {
      let jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'HS256' });
      if (options.exp !== null) jwt = jwt.setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 600);
      return jwt.sign(options.key ?? secret);
    };
    const visitor = new Visitor(world.t.url);
    const away = await visitor.get(`${root(world)}/guide/install?tab=2`);
    expect(away.status).toBe(302);
    const login = new URL(away.headers.location as string);
    expect(login.origin + login.pathname).toBe('https://login.example.com/start');
    expect(login.searchParams.get('app')).toBe('docs');
    expect(login.searchParams.get('location')).toBe(`http://api.test${root(world)}/guide/install?tab=2`);

    // Refused: expired, without exp, another algorithm, another key, garbage.
    for (const bad of [
      await token({}, { exp: Math.floor(Date.now() / 1000) - 10 }),
      await token({}, { exp: null }),
      await token({}, { alg: 'HS512' }),
      await token({}, { key: new TextEncoder().encode('another secret of enough length for HS256 keys') }),
      'not.a.jwt',
    ]) {
      const answer = await new Visitor(world.t.url).get(`${root(world)}/welcome?jwt_token=${bad}`);
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toMatch(/^https:\/\/login\.example\.com\/start\?/);
      expect(answer.headers['set-cookie']).toBeUndefined();
    }

    const signedIn = await visitor.get(`${root(world)}/guide/install?jwt_token=${await token({ sub: 'v1' })}`);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe(`${root(world)}/guide/install`);
    expect(signedIn.headers['set-cookie']).toEqual([expect.stringMatching(new RegExp(`^cw_site_visitor=[^;]+; Max-Age=(59\\d|600); Path=${root(world)}; Expires=[^;]+; HttpOnly; SameSite=Lax$`))]);
    const page = await visitor.get(`${root(world)}/guide/install`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1 class="page-title">Install</h1>');

    // Without a fallback URL: a sign-in page (401).
    await world.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...sitePath(world.organizationId, world.siteId), body: { fallbackURL: null } });
    const nowhere = await new Visitor(world.t.url).get(`${root(world)}/welcome`);
    expect(nowhere.status).toBe(401);
    expect(nowhere.body).toContain('Sign-in required');
  });

  it('visitor-auth: a validly signed token with a far-future exp keeps its cookie 400 days at most (not a 500)', async () => {
    const world = await guideSite({ visibility: 'visitor-auth' });
    const { data: auth } = await world.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...sitePath(world.organizationId, world.siteId), body: { fallbackURL: 'https://login.example.com/start' } });
    const secret = new TextEncoder().encode(auth!.secret!);
    // Past the largest date (8.64e15 ms), and far past it: both are valid `exp` values of a JWT.
    for (const exp of [8.64e12 + 1, 1e300]) {
      const visitor = new Visitor(world.t.url);
      const token = await new SignJWT({ sub: 'forever' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).sign(secret);
      const signedIn = await visitor.get(`${root(world)}/welcome?jwt_token=${token}`);
      expect(signedIn.status, String(exp)).toBe(303);
      expect(signedIn.headers['set-cookie']).toEqual([expect.stringMatching(new RegExp(`^cw_site_visitor=[^;]+; Max-Age=34560000; Path=${root(world)}; Expires=[^;]+; HttpOnly; SameSite=Lax$`))]);
      expect((await visitor.get(`${root(world)}/welcome`)).status).toBe(200);
    }
  });

  it('adaptive content: sections whose condition is false are absent (navigation and 404); unsigned claims from visitor.* parameters, signed ones from the visitor token', async () => {
    const world = await guideSite({ visibility: 'visitor-auth' });
    const { t, admin, organizationId, siteId } = world;
    const { data: auth } = await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...sitePath(organizationId, siteId), body: { fallbackURL: 'https://login.example.com/' } });
    const beta = await spaceWithPages(t, admin, organizationId, 'Beta', [{ type: 'insert_page', title: 'Beta notes', slug: 'notes', markdown: 'New things.' } as never]);
    const pro = await spaceWithPages(t, admin, organizationId, 'Pro', [{ type: 'insert_page', title: 'Pro tips', slug: 'tips', markdown: 'For pros.' } as never]);
    const betaSection = await addSection(admin.client, organizationId, siteId, beta.id, 'Beta');
    const proSection = await addSection(admin.client, organizationId, siteId, pro.id, 'Pro');
    const condition = (sectionId: string, text: string) =>
      admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { params: { path: { organizationId, siteId, siteSectionId: sectionId } }, body: { condition: text } });
    expect((await condition(betaSection.id, 'visitor.claims.unsigned.beta === true')).response.status).toBe(200);
    expect((await condition(proSection.id, 'visitor.claims.plan === "pro"')).response.status).toBe(200);
    const jwt = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new TextEncoder().encode(auth!.secret!));

    const basic = new Visitor(t.url);
    await basic.follow(`${root(world)}/?jwt_token=${await jwt({ plan: 'free' })}`);
    const home = await basic.get(`${root(world)}/`);
    expect(home.status).toBe(200);
    expect(home.body).not.toContain(`/${betaSection.path}/`);
    expect(home.body).not.toContain(`/${proSection.path}/`);
    expect((await basic.get(`${root(world)}/${betaSection.path}/notes`)).status).toBe(404);
    expect((await basic.get(`${root(world)}/${proSection.path}/tips`)).status).toBe(404);

    // Unsigned claims: remembered in their cookie; the address is reloaded without them.
    const opted = await basic.get(`${root(world)}/?visitor.beta=true`);
    expect(opted.status).toBe(303);
    expect(opted.headers.location).toBe(`${root(world)}/`);
    expect((await basic.get(`${root(world)}/`)).body).toContain(`href="${root(world)}/${betaSection.path}/"`);
    expect((await basic.get(`${root(world)}/${betaSection.path}/notes`)).status).toBe(200);
    // Unsigned claims never stand in for signed ones.
    await basic.follow(`${root(world)}/?visitor.plan=pro`);
    expect((await basic.get(`${root(world)}/${proSection.path}/tips`)).status).toBe(404);

    const paying = new Visitor(t.url);
    await paying.follow(`${root(world)}/?jwt_token=${await jwt({ plan: 'pro' })}`);
    const tips = await paying.get(`${root(world)}/${proSection.path}/tips`);
    expect(tips.status).toBe(200);
    expect(tips.body).toContain('<h1 class="page-title">Pro tips</h1>');
    expect(tips.body).not.toContain(`/${betaSection.path}/`);
  });
});

describe('caching', () => {
  it('answers an ETag and 304 on a match; a new revision (a merge, an edit) is visible on the next request', async () => {
    const world = await guideSite();
    const visitor = new Visitor(world.t.url);
    const first = await visitor.get(`${root(world)}/welcome`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const again = await visitor.get(`${root(world)}/welcome`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    // Another page, another tag.
    expect((await visitor.get(`${root(world)}/faq`)).headers.etag).not.toBe(etag);

    await edit(world.admin, world.spaces.guide!.id, [{ type: 'update_page', page: world.spaces.guide!.refs.welcome!, markdown: 'Hello again.' } as never]);
    const changed = await visitor.get(`${root(world)}/welcome`, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.body).toContain('Hello again.');
    expect(changed.headers.etag).not.toBe(etag);
    // The structure is part of the key: a renamed site space changes the page.
    await patchSite(world, { title: 'Renamed' });
    expect((await visitor.get(`${root(world)}/welcome`, { headers: { 'if-none-match': changed.headers.etag as string } })).status).toBe(200);
  });

  it('keeps nothing past what decides it: a changed condition, a renamed section, a merged change request, unpublishing are seen by the next request', async () => {
    const world = await guideSite();
    const { t, admin, organizationId, siteId } = world;
    const extra = await spaceWithPages(t, admin, organizationId, 'Extra', [{ type: 'insert_page', ref: 'notes', title: 'Notes', slug: 'notes', markdown: 'Extra notes.' } as never]);
    const section = await addSection(admin.client, organizationId, siteId, extra.id, 'Extra');
    const sectionPath = { params: { path: { organizationId, siteId, siteSectionId: section.id } } };
    const visitor = new Visitor(t.url);
    const notes = `${root(world)}/${section.path}/notes`;
    expect((await visitor.get(notes)).status).toBe(200);
    expect((await visitor.get(`${root(world)}/welcome`)).body).toContain('>Extra</a>');

    // A condition now false for this visitor: the section is gone from navigation, its pages and search.
    expect((await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { ...sectionPath, body: { condition: 'visitor.claims.unsigned.beta === true' } })).response.status).toBe(200);
    expect((await visitor.get(notes)).status).toBe(404);
    expect((await visitor.get(`${root(world)}/welcome`)).body).not.toContain('>Extra</a>');
    // Made true again by the visitor's claim, then renamed: the new title on the next view.
    await visitor.follow(`${root(world)}/welcome?visitor.beta=true`);
    expect((await visitor.get(notes)).status).toBe(200);
    await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { ...sectionPath, body: { title: 'Extras renamed' } });
    expect((await visitor.get(`${root(world)}/welcome`)).body).toContain('>Extras renamed</a>');

    // A merged change request.
    const cr = await createCr(admin, extra.id);
    await editCr(admin, extra.id, cr.id, [{ type: 'update_page', page: extra.refs.notes!, markdown: 'Merged notes.' } as never]);
    expect((await visitor.get(notes)).body).toContain('Extra notes.');
    await mergeCr(admin, extra.id, cr.id);
    expect((await visitor.get(notes)).body).toContain('Merged notes.');

    // Unpublished: absent at once, whatever was kept.
    expect((await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/unpublish', sitePath(organizationId, siteId))).response.status).toBe(200);
    expect((await visitor.get(notes)).status).toBe(404);
    expect((await visitor.get(`${root(world)}/welcome`)).status).toBe(404);
  });
});

describe('favicon', () => {
  /** A server elsewhere: an icon, a page that is no image, an icon too large, a redirect to the icon. */
  async function iconHost(): Promise<{ base: string; hits: Map<string, number>; close: () => Promise<void> }> {
    const icon = solidPng(16, 16);
    const hits = new Map<string, number>();
    const host: Server = createServer((req, res) => {
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
      if (req.url === '/icon.png') return res.writeHead(200, { 'Content-Type': 'text/plain' }).end(icon);
      if (req.url === '/icon.svg') return res.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      if (req.url === '/page.png') return res.writeHead(200, { 'Content-Type': 'image/png' }).end('<html><script>alert(1)</script></html>');
      if (req.url === '/huge.png') return res.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.concat([icon, Buffer.alloc(300 * 1024)]));
      if (req.url === '/moved.png') return res.writeHead(302, { Location: '/icon.png' }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    return { base, hits, close: () => new Promise((resolve) => host.close(() => resolve())) };
  }

  const setIcon = (world: PublishedWorld, light: string, dark: string) =>
    world.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...sitePath(world.organizationId, world.siteId), body: { favicon: { icon: { light, dark } } } as never });

  it('an icon given by address is fetched by the server (outbound guard, bytes checked, size capped, kept) and served from the site; the page names no other origin', async () => {
    const host = await iconHost();
    try {
      const world = await guideSite();
      expect((await setIcon(world, `${host.base}/moved.png`, `${host.base}/icon.svg`)).response.status).toBe(200);
      const visitor = new Visitor(world.t.url);
      const page = await visitor.get(`${root(world)}/welcome`);
      expect(page.body).not.toContain(host.base);
      const icons = [...page.body.matchAll(/<link rel="icon" href="([^"]+)" media="\(prefers-color-scheme: (light|dark)\)">/g)].map((match) => match[1]!);
      expect(icons).toHaveLength(2);
      for (const icon of icons) expect(icon).toMatch(new RegExp(`^${root(world)}/_favicon/[0-9a-f]{16}$`));
      expect(page.body).toContain(`<img class="site-icon" src="${icons[0]}" alt="" width="24" height="24">`);

      const light = await visitor.get(icons[0]!);
      expect(light.status).toBe(200);
      // The type is read from the bytes, not from the other server's header.
      expect(light.headers['content-type']).toBe('image/png');
      expect(light.headers['content-security-policy']).toContain('sandbox');
      expect(light.headers['cache-control']).toBe('public, max-age=86400');
      expect(light.headers['content-disposition']).toBeUndefined();
      const dark = await visitor.get(icons[1]!);
      expect(dark.headers['content-type']).toBe('image/svg+xml');
      // An SVG (a document that may carry script) is never shown at its own address: pages load it, opening it downloads it.
      expect(dark.headers['content-disposition']).toBe('attachment');
      expect(dark.headers['content-security-policy']).toContain('sandbox');
      expect(dark.headers['x-content-type-options']).toBe('nosniff');
      expect((await visitor.get(icons[0]!, { headers: { 'if-none-match': light.headers.etag as string } })).status).toBe(304);
      // Kept: the other server was asked once, whatever the views.
      await visitor.get(icons[0]!);
      expect(host.hits.get('/moved.png')).toBe(1);

      // No image, too large, or an address the site does not name: 404, and nothing fetched for the last.
      await setIcon(world, `${host.base}/page.png`, `${host.base}/huge.png`);
      const [notImage, tooLarge] = [...(await visitor.get(`${root(world)}/welcome`)).body.matchAll(/<link rel="icon" href="([^"]+)"/g)].map((match) => match[1]!);
      expect((await visitor.get(notImage!)).status).toBe(404);
      expect((await visitor.get(tooLarge!)).status).toBe(404);
      const before = [...host.hits.values()].reduce((a, b) => a + b, 0);
      expect((await visitor.get(`${root(world)}/_favicon/0123456789abcdef`)).status).toBe(404);
      expect([...host.hits.values()].reduce((a, b) => a + b, 0)).toBe(before);
    } finally {
      await host.close();
    }
  });
});
