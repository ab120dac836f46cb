// The search box of published sites (issue 20), through real HTTP: results only from what the visitor
// may read (audience, adaptive sections, hidden pages), linking to site addresses and heading anchors,
// the query escaped and bounded, and a page of its own at `search` still reachable.
import { SignJWT } from 'jose';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { edit } from '../support/content.js';
import { addSection, publishedSite, sitePath, spaceWithPages, Visitor, type PublishedWorld } from '../support/published.js';

const server = useTestServer();

async function docs(options: Parameters<typeof publishedSite>[2] = {}): Promise<PublishedWorld> {
  return publishedSite(
    server(),
    [
      { type: 'insert_page', ref: 'welcome', title: 'Welcome', slug: 'welcome', markdown: 'Hello, visitor. Our lighthouse keeps ships safe.' },
      { type: 'insert_page', ref: 'guide', title: 'Guide', slug: 'guide', markdown: 'Intro.\n\n## Install the beacon\n\nThe beacon needs a lantern and a battery.' },
      { type: 'insert_page', ref: 'secret', title: 'Hidden', slug: 'hidden', hidden: true, markdown: 'The treasure map is here.' },
    ] as never,
    options,
  );
}

const root = (world: PublishedWorld) => `/s/${world.siteId}`;
const links = (html: string) => [...html.matchAll(/<ol class="search-results">([\s\S]*?)<\/ol>/g)].flatMap((m) => [...m[1]!.matchAll(/<li><a href="([^"]+)">([^<]*)<\/a>/g)].map((l) => [l[1], l[2]]));

describe('site search', () => {
  it('finds published pages of the site, linking to their site addresses and to the heading of a section match', async () => {
    const world = await docs();
    const visitor = new Visitor(world.t.url);
    const home = await visitor.get(`${root(world)}/`);
    // The box is a plain form: it works without script.
    expect(home.body).toContain(`<form class="search" role="search" action="${root(world)}/search" method="get"`);
    expect(home.body).toMatch(/<form class="search"[^>]*><label class="sr-only" for="site-search">Search this site<\/label><input id="site-search" type="search" name="q"/);
    const page = await visitor.get(`${root(world)}/search?q=lighthouse`);
    expect(page.status).toBe(200);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.body).toContain('<title>Search: lighthouse · Acme Docs</title>');
    expect(page.body).toContain('value="lighthouse"');
    expect(links(page.body)).toEqual([[`${root(world)}/welcome`, 'Welcome']]);
    expect(page.body).toContain('Our lighthouse keeps ships safe.');

    const section = await visitor.get(`${root(world)}/search?q=battery`);
    expect(links(section.body)).toEqual([[`${root(world)}/guide#install-the-beacon`, 'Install the beacon']]);
    // The anchor is the heading's id on the page.
    expect((await visitor.get(`${root(world)}/guide`)).body).toContain('<h2 id="install-the-beacon">');
    // Hidden pages are left out, as from navigation.
    const hidden = await visitor.get(`${root(world)}/search?q=treasure`);
    expect(hidden.status).toBe(200);
    expect(links(hidden.body)).toEqual([]);
    expect(hidden.body).toContain('Nothing published matches “treasure”.');
    // A merge is searched on the next request.
    await edit(world.admin, world.spaces.guide!.id, [{ type: 'update_page', page: world.spaces.guide!.refs.welcome!, markdown: 'Hello again: now about a windmill.' } as never]);
    expect(links((await visitor.get(`${root(world)}/search?q=windmill`)).body)).toEqual([[`${root(world)}/welcome`, 'Welcome']]);
    expect(links((await visitor.get(`${root(world)}/search?q=lighthouse`)).body)).toEqual([]);
  });

  it('says "at least" when the search reached its bound (more sections match than it ranks), an exact count otherwise', async () => {
    // Eleven pages of 200 sections (a page's most) that say the word: 2,200 sections, more than the 2,000 a search ranks.
    const seasons = ['Spring', 'Summer', 'Autumn', 'Winter', 'Dawn', 'Noon', 'Dusk', 'Night', 'Tide', 'Gale', 'Frost'];
    const almanac = (part: string) => Array.from({ length: 200 }, (_, i) => `## ${part} ${i}\n\nThe lantern of ${part.toLowerCase()} ${i}.`).join('\n\n');
    const pages = seasons.map((part) => ({ type: 'insert_page', title: part, slug: part.toLowerCase(), markdown: almanac(part) }));
    const world = await publishedSite(server(), pages as never, {});
    const visitor = new Visitor(world.t.url);
    const summary = async (q: string) => /<p class="search-summary" role="status">([^<]*)<\/p>/.exec((await visitor.get(`${root(world)}/search?q=${q}`)).body)?.[1];
    expect(await summary('lantern')).toMatch(/^At least 1[01] pages match your search\.$/);
    expect(await summary('spring')).toBe('1 page matches your search.');
  });

  it('escapes the query; refuses a query too long or with control characters (400); an empty query shows the box', async () => {
    const world = await docs();
    const visitor = new Visitor(world.t.url);
    const attack = await visitor.get(`${root(world)}/search?q=${encodeURIComponent('"><script>alert(1)</script><img src=x onerror=alert(2)>')}`);
    expect(attack.status).toBe(200);
    // Read as a browser reads it: the query is text and an attribute value, never elements.
    const { document } = parseHTML(attack.body);
    expect([...document.querySelectorAll('script')].map((script) => script.getAttribute('src'))).toEqual([expect.stringMatching(/\/_assets\/site-[0-9a-f]{12}\.js$/), expect.stringMatching(/\/_assets\/search-[0-9a-f]{12}\.js$/)]);
    expect(document.querySelectorAll('img')).toHaveLength(0);
    expect(document.querySelectorAll('[onerror]')).toHaveLength(0);
    expect((document.querySelector('#site-search') as unknown as { getAttribute(name: string): string }).getAttribute('value')).toBe('"><script>alert(1)</script><img src=x onerror=alert(2)>');
    expect(document.querySelector('h1')!.textContent).toBe('Results for “"><script>alert(1)</script><img src=x onerror=alert(2)>”');
    const long = await visitor.get(`${root(world)}/search?q=${'a'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body).toContain('at most 200 characters');
    expect((await visitor.get(`${root(world)}/search?q=a%00b`)).status).toBe(400);
    expect((await visitor.get(`${root(world)}/search?q=beacon&page=99`)).status).toBe(400);
    // Whatever the words, an answer (the search's own parser takes them), never a 500.
    for (const odd of ['"', '"unclosed phrase', '-beacon', '*', 'a:b & c | !d', "it's", '\\', '()', '\u{1F600}', 'ü'.repeat(200), '-']) {
      expect((await visitor.get(`${root(world)}/search?q=${encodeURIComponent(odd)}`)).status, odd).toBe(200);
    }
    expect((await visitor.get(`${root(world)}/search?q=a&q=b`)).status).toBe(200);
    const empty = await visitor.get(`${root(world)}/search`);
    expect(empty.status).toBe(200);
    expect(empty.body).toContain('Type words to search this site.');
  });

  it('a page of its own at `search` answers without q; the search answers with q', async () => {
    const world = await docs();
    await edit(world.admin, world.spaces.guide!.id, [{ type: 'insert_page', title: 'Search tips', slug: 'search', markdown: 'Use quotes.' } as never]);
    const visitor = new Visitor(world.t.url);
    expect((await visitor.get(`${root(world)}/search`)).body).toContain('<h1 class="page-title">Search tips</h1>');
    expect(links((await visitor.get(`${root(world)}/search?q=quotes`)).body)).toEqual([[`${root(world)}/search`, 'Search tips']]);
  });

  it('share-link: without the key the search is absent (404) and shows nothing; with it, results', async () => {
    const world = await docs({ visibility: 'share-link' });
    const { data: link } = await world.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(world.organizationId, world.siteId), body: { label: 'Partners' } });
    const stranger = new Visitor(world.t.url);
    const refused = await stranger.get(`${root(world)}/search?q=lighthouse`);
    expect(refused.status).toBe(404);
    expect(refused.body).not.toContain('lighthouse');
    expect(refused.body).not.toContain('Acme Docs');
    const partner = new Visitor(world.t.url);
    const found = await partner.follow(`${root(world)}/search?q=lighthouse&shareKey=${link!.key}`);
    expect(found.status).toBe(200);
    expect(found.headers['cache-control']).toBe('private, no-store');
    expect(links(found.body)).toEqual([[`${root(world)}/welcome`, 'Welcome']]);
  });

  it('adaptive content: a section hidden by the visitor\'s claims is not searched; with the claim it is', async () => {
    const world = await docs({ visibility: 'visitor-auth' });
    const { t, admin, organizationId, siteId } = world;
    const { data: auth } = await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...sitePath(organizationId, siteId), body: { fallbackURL: 'https://login.example.com/' } });
    const pro = await spaceWithPages(t, admin, organizationId, 'Pro', [{ type: 'insert_page', title: 'Pro tips', slug: 'tips', markdown: 'The secret lighthouse of professionals.' } as never]);
    const section = await addSection(admin.client, organizationId, siteId, pro.id, 'Pro');
    await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { params: { path: { organizationId, siteId, siteSectionId: section.id } }, body: { condition: 'visitor.claims.plan === "pro"' } });
    const jwt = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new TextEncoder().encode(auth!.secret!));

    const free = new Visitor(t.url);
    await free.follow(`${root(world)}/?jwt_token=${await jwt({ plan: 'free' })}`);
    expect(links((await free.get(`${root(world)}/search?q=lighthouse`)).body)).toEqual([[`${root(world)}/welcome`, 'Welcome']]);
    expect(links((await free.get(`${root(world)}/search?q=professionals`)).body)).toEqual([]);

    const paying = new Visitor(t.url);
    await paying.follow(`${root(world)}/?jwt_token=${await jwt({ plan: 'pro' })}`);
    const found = links((await paying.get(`${root(world)}/search?q=professionals`)).body);
    expect(found).toEqual([[`${root(world)}/${section.path}/tips`, 'Pro tips']]);
    expect((await paying.get(found[0]![0]!)).status).toBe(200);
    // Without a token, a redirect to sign in: nothing is searched.
    expect((await new Visitor(t.url).get(`${root(world)}/search?q=lighthouse`)).status).toBe(302);
  });
});
