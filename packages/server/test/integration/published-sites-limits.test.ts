// Rate limits on published sites (issue 20): every page, search, file and icon request of a site is
// charged to the visitor's address (the API's per-address budget), the shared assets are not, and a
// refusal is a 429 page in the site's style with Retry-After — bare for a share-link site, which shows
// nothing of itself to a visitor without its key. Issue 25, F7: only the real asset files are free, a
// request is charged before it costs a query, and a refusal over the limit runs no query at all
// (counted on the database driver).
import { afterAll, describe, expect, it } from 'vitest';
import { TestDnsServer } from '../support/dns-server.js';
import { useTestServer } from '../support/harness.js';
import { publishedSite, Visitor, type PublishedWorld } from '../support/published.js';
import { countQueries } from '../support/queries.js';
import { claimHostname } from '../support/sites.js';

const PER_ADDRESS = 4;
// Requests come from 127.0.0.1; trusting it as a proxy lets each visitor speak for an address of its own.
const dns = await TestDnsServer.start();
afterAll(() => dns.close());
const server = useTestServer({
  env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS), RATE_LIMIT_WINDOW_SECONDS: '60', TRUST_PROXY: 'loopback', SITE_DNS_SERVERS: dns.address },
});

const site = (options: Parameters<typeof publishedSite>[2] = {}) =>
  publishedSite(server(), [{ type: 'insert_page', title: 'Welcome', slug: 'welcome', markdown: 'Hello, visitor.' }] as never, options);
const root = (world: PublishedWorld) => `/s/${world.siteId}`;
const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

describe('rate limits on site pages', () => {
  it('charges pages and searches to the address; the assets are free; beyond the limit a 429 page in the site\'s style with Retry-After', async () => {
    const world = await site();
    const visitor = new Visitor(world.t.url);
    const page = await visitor.get(`${root(world)}/welcome`, from('203.0.113.10'));
    expect(page.status).toBe(200);
    expect(page.headers['x-ratelimit-limit']).toBe(String(PER_ADDRESS));
    expect(page.headers['x-ratelimit-remaining']).toBe(String(PER_ADDRESS - 1));
    const css = /<link rel="stylesheet" href="([^"]+\/_assets\/site-[^"]+)">/.exec(page.body)![1]!;
    for (let i = 0; i < PER_ADDRESS + 2; i++) expect((await visitor.get(css, from('203.0.113.10'))).status).toBe(200);
    expect((await visitor.get(`${root(world)}/search?q=hello`, from('203.0.113.10'))).status).toBe(200);
    expect((await visitor.get(`${root(world)}/welcome`, from('203.0.113.10'))).status).toBe(200);
    expect((await visitor.get(`${root(world)}/nowhere`, from('203.0.113.10'))).status).toBe(404);

    for (const path of ['/welcome', '/search?q=hello']) {
      const refused = await visitor.get(`${root(world)}${path}`, from('203.0.113.10'));
      expect(refused.status, path).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.body).toContain('<h1 class="page-title">Too many requests</h1>');
      expect(refused.body).toContain('<a class="site-title" href="/s/');
      expect(refused.body).toContain('Acme Docs');
    }
    // Another address has its own budget; the assets are still served to the refused one.
    expect((await visitor.get(`${root(world)}/welcome`, from('203.0.113.11'))).status).toBe(200);
    expect((await visitor.get(css, from('203.0.113.10'))).status).toBe(200);
  });

  it('a share-link site refuses without showing anything of itself', async () => {
    const world = await site({ visibility: 'share-link' });
    const visitor = new Visitor(world.t.url);
    for (let i = 0; i < PER_ADDRESS; i++) expect((await visitor.get(`${root(world)}/welcome`, from('203.0.113.20'))).status).toBe(404);
    const refused = await visitor.get(`${root(world)}/welcome`, from('203.0.113.20'));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.body).not.toContain('Acme Docs');
  });

  it('only the real asset files are free: any other name under _assets/ is charged like a page', async () => {
    const world = await site();
    const visitor = new Visitor(world.t.url);
    const page = await visitor.get(`${root(world)}/welcome`, from('203.0.113.30'));
    const assets = [...page.body.matchAll(/(?:href|src)="([^"]+\/_assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toHaveLength(5); // the text face (preloaded), the stylesheet, the theme, the site's script, the search dialog's
    // The page's own charge is written in the background (http/rate-limit-store.ts): written now, so
    // that any statement counted below is the assets' own.
    await world.t.context.rateLimits.flush();
    const counter = countQueries();
    try {
      for (const asset of assets) {
        const answer = await visitor.get(asset, from('203.0.113.30'));
        expect(answer.status, asset).toBe(200);
        expect(answer.headers['x-ratelimit-remaining'], asset).toBeUndefined();
      }
      // The same files under another site's name, or none: the same bytes, still free.
      expect((await visitor.get(assets[0]!.replace(root(world), '/s/no-such-site'), from('203.0.113.30'))).status).toBe(200);
      expect(counter.texts).toEqual([]);
    } finally {
      counter.restore();
    }
    for (let left = PER_ADDRESS - 2; left >= 0; left--) {
      const made = await visitor.get(`${root(world)}/_assets/made-up-${left}.css`, from('203.0.113.30'));
      expect(made.status).toBe(404);
      expect(made.headers['x-ratelimit-remaining']).toBe(String(left));
    }
    expect((await visitor.get(`${root(world)}/_assets/one-more.css`, from('203.0.113.30'))).status).toBe(429);
  });

  it('over the limit a refusal runs no query: pages, searches, unknown and malformed names, the site\'s hostname, unseen hosts', async () => {
    const world = await site();
    await claimHostname(world.admin.client, world.organizationId, world.siteId, 'docs.limits.test', dns);
    const visitor = new Visitor(world.t.url);
    // Within the budget, a page costs queries, and a Host naming no site goes on to the API, charged there.
    const counter = countQueries();
    try {
      expect((await visitor.get(`${root(world)}/welcome`, from('203.0.113.40'))).status).toBe(200);
      expect(counter.texts.length).toBeGreaterThan(0);
    } finally {
      counter.restore();
    }
    const unseen = await visitor.get('/welcome', { host: 'nothing-here.example.test', ...from('203.0.113.40') });
    expect(unseen.headers['content-type']).toMatch(/^application\/json/);
    expect(unseen.headers['x-ratelimit-remaining']).toBe(String(PER_ADDRESS - 2));
    for (let i = 0; i < 2; i++) expect((await visitor.get(`${root(world)}/welcome`, from('203.0.113.40'))).status).toBe(200);
    // Every hit admitted so far is written: from here on, nothing is left for the counters to write.
    await world.t.context.rateLimits.flush();

    const refused = countQueries();
    try {
      for (const [path, host] of [
        [`${root(world)}/welcome`, undefined],
        [`${root(world)}/search?q=hello`, undefined],
        [`${root(world)}/_assets/made-up.css`, undefined],
        ['/s/no-such-site/welcome', undefined],
        ['/s/%E0%A4%A/welcome', undefined],
        ['/welcome', 'docs.limits.test'],
        ['/welcome', 'never-seen-1.example.test'],
        ['/s/no-such-site/', 'never-seen-2.example.test'],
      ] as const) {
        const answer = await visitor.get(path, { ...(host ? { host } : {}), ...from('203.0.113.40') });
        expect(answer.status, `${host ?? ''}${path}`).toBe(429);
        expect(answer.headers['retry-after']).toBeDefined();
      }
      expect(refused.texts).toEqual([]);
    } finally {
      refused.restore();
    }
  });
});

