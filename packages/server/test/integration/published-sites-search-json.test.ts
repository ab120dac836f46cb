// The search dialog's JSON search of published sites (areas/sites/published/endpoints/search-json.ts), through real HTTP:
// the same visibility as the pages (hidden pages, adaptive sections, share links), kept to the current
// variant or section with a way to widen, snippets that read as text, the visitor's words marked, and
// bad input answered 400 in the documented error shape.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { DIALOG_BOUND, DIALOG_RESULTS } from '../../src/areas/sites/published/endpoints/search-json.js';
import { edit } from '../support/content.js';
import { useTestServer } from '../support/harness.js';
import { addPagesSaying, addSection, addSiteSpace, publishedSite, sitePath, spaceWithPages, Visitor } from '../support/published.js';

const server = useTestServer();

type Answer = {
  query: string;
  scope: { id: string; label: string } | null;
  total: number;
  totalIsLowerBound: boolean;
  more: string;
  results: Array<{ title: string; titleMarks: Array<[number, number]>; href: string; where?: string; snippet: string; snippetMarks: Array<[number, number]> }>;
};

const JSON_EXAMPLE = ['Send the request.', '', '```json', '{"name": "lantern", "notes": "first line\\nsecond line", "tags": ["a", "b"]}', '```'].join('\n');

async function docs(visibility: 'public' | 'share-link' | 'visitor-auth' = 'public') {
  const world = await publishedSite(
    server(),
    [
      { type: 'insert_page', ref: 'welcome', title: 'Welcome', slug: 'welcome', markdown: 'Our lighthouse keeps ships safe.' },
      { type: 'insert_page', ref: 'payload', title: 'Payloads', slug: 'payloads', markdown: JSON_EXAMPLE },
      { type: 'insert_page', ref: 'secret', title: 'Hidden', slug: 'hidden', hidden: true, markdown: 'The lighthouse treasure map.' },
    ] as never,
    { visibility },
  );
  const { t, admin, organizationId, siteId } = world;
  const v1 = await spaceWithPages(t, admin, organizationId, 'v1', [{ type: 'insert_page', title: 'Endpoints', slug: 'endpoints', markdown: '## GET /things\n\nLists the lighthouse things (v1).' } as never]);
  const v2 = await spaceWithPages(t, admin, organizationId, 'v2', [{ type: 'insert_page', title: 'Endpoints', slug: 'endpoints', markdown: '## GET /things\n\nLists the lighthouse things (v2).' } as never]);
  const beta = await spaceWithPages(t, admin, organizationId, 'Beta', [{ type: 'insert_page', title: 'Beta lighthouse', slug: 'features', markdown: 'Try them.' } as never]);
  const api = await addSection(admin.client, organizationId, siteId, v1.id, 'API');
  const second = await addSiteSpace(admin.client, organizationId, siteId, v2.id, api.id);
  const betaSection = await addSection(admin.client, organizationId, siteId, beta.id, 'Beta');
  await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { params: { path: { organizationId, siteId, siteSectionId: betaSection.id } }, body: { condition: 'visitor.claims.unsigned.beta === true' } });
  return { ...world, api, v2SiteSpace: second, betaSection, root: `/s/${siteId}` };
}

async function search(visitor: Visitor, root: string, params: Record<string, string>) {
  const answer = await visitor.get(`${root}/_search?${new URLSearchParams(params).toString()}`);
  return { ...answer, json: JSON.parse(answer.body) as Answer & { error?: { code: string; message: string } } };
}

const marked = (text: string, marks: Array<[number, number]>) => marks.map(([start, end]) => text.slice(start, end));

describe('the search dialog\'s JSON search', () => {
  it('answers the visible pages with readable snippets and marked words, kept to a variant or section or widened', async () => {
    const world = await docs();
    const visitor = new Visitor(world.t.url);
    // The page names the scope the dialog starts with: its variant (its section has two).
    const page = await visitor.get(`${world.root}/${world.api.path}/`);
    const scopeId = /data-scope="([^"]+)"/.exec(page.body)?.[1];
    expect(page.body).toContain(`data-endpoint="${world.root}/_search"`);
    expect(page.body).toContain('data-scope-label="API › v1"');
    // A page of the default section, whose one variant is the site's first of several sections: the section.
    expect((await visitor.get(`${world.root}/welcome`)).body).toMatch(/data-scope="[^"]+" data-scope-label="Guide"/);

    const scoped = await search(visitor, world.root, { q: 'lighthouse things', scope: scopeId! });
    expect(scoped.status).toBe(200);
    expect(scoped.headers['content-type']).toMatch(/^application\/json/);
    expect(scoped.headers['cache-control']).toBe('no-cache');
    expect(scoped.headers['x-robots-tag']).toBe('noindex');
    expect(scoped.json).toEqual({
      query: 'lighthouse things',
      scope: { id: scopeId, label: 'API › v1' },
      total: 1,
      totalIsLowerBound: false,
      more: `${world.root}/search?q=lighthouse+things`,
      results: [{ title: 'GET /things', titleMarks: [[5, 11]], href: `${world.root}/${world.api.path}/endpoints#get-things`, where: 'Endpoints', snippet: 'Lists the lighthouse things (v1).', snippetMarks: [[10, 20], [21, 27]] }],
    });
    // The section: both variants.
    const section = await search(visitor, world.root, { q: 'things', scope: world.api.id });
    expect(section.json.scope).toEqual({ id: world.api.id, label: 'API' });
    expect(section.json.results.map((hit) => hit.snippet).sort()).toEqual(['Lists the lighthouse things (v1).', 'Lists the lighthouse things (v2).']);
    // Widened: the whole site, but never the hidden page or the section this visitor's claims hide.
    const all = await search(visitor, world.root, { q: 'lighthouse' });
    expect(all.json.scope).toBeNull();
    expect(all.json.results.map((hit) => [hit.title, hit.where ?? ''])).toEqual(
      expect.arrayContaining([
        ['Welcome', 'Guide'],
        ['GET /things', 'API › v1 › Endpoints'],
        ['GET /things', 'API › v2 › Endpoints'],
      ]),
    );
    expect(all.json.total).toBe(3);
    expect(all.body).not.toContain('treasure');
    expect(all.body).not.toContain('Beta');
    // With the claim, the adaptive section is searched, and can be the scope.
    const beta = new Visitor(world.t.url);
    await beta.follow(`${world.root}/?visitor.beta=true`);
    expect((await search(beta, world.root, { q: 'lighthouse' })).json.results.map((hit) => hit.title)).toContain('Beta lighthouse');
    expect((await search(beta, world.root, { q: 'lighthouse', scope: world.betaSection.id })).json.results.map((hit) => hit.title)).toEqual(['Beta lighthouse']);
    // Without it, the hidden section's id reads exactly as an unknown one.
    const hiddenScope = await search(visitor, world.root, { q: 'lighthouse', scope: world.betaSection.id });
    const unknownScope = await search(visitor, world.root, { q: 'lighthouse', scope: 'nope' });
    expect(hiddenScope.status).toBe(400);
    expect(hiddenScope.json).toEqual({ error: { code: 'invalid_search', message: 'The search scope is not a section or variant of this site.' } });
    expect(unknownScope.body).toBe(hiddenScope.body);
  });

  it('answers follow each change at once, though recent answers are kept (by the spaces\' head revisions)', async () => {
    const world = await docs();
    const visitor = new Visitor(world.t.url);
    const guide = world.spaces.guide!;
    const titles = async (q: string) => (await search(visitor, world.root, { q })).json.results.map((hit) => hit.title);
    expect(await titles('beacon')).toEqual([]);
    expect(await titles('lighthouse')).toContain('Welcome');
    // The same text again after an edit, a hidden page and a new page: each answer is the new head's.
    await edit(world.admin, guide.id, [{ type: 'update_page', page: guide.refs.welcome!, markdown: 'Our beacon keeps ships safe.' } as never]);
    expect(await titles('beacon')).toEqual(['Welcome']);
    expect(await titles('lighthouse')).not.toContain('Welcome');
    await edit(world.admin, guide.id, [{ type: 'update_page', page: guide.refs.welcome!, hidden: true } as never]);
    expect(await titles('beacon')).toEqual([]);
    await edit(world.admin, guide.id, [{ type: 'insert_page', title: 'Beacons', slug: 'beacons', markdown: 'A beacon guide.' } as never]);
    expect(await titles('beacon')).toEqual(['Beacons']);
  });

  it('reads a bounded number of matches: eight results and a count said to be a lower bound, where the results page counts them all', async () => {
    // More pages whose title and sections match than the dialog reads (titles and sections both).
    const pages = Math.max(DIALOG_BOUND.titles, DIALOG_BOUND.sections) + 10;
    const world = await publishedSite(server(), [{ type: 'insert_page', title: 'Welcome', slug: 'welcome', markdown: 'Start here.' }] as never);
    await addPagesSaying(world.admin, world.spaces.guide!.id, 'lantern', pages);
    const visitor = new Visitor(world.t.url);
    const root = `/s/${world.siteId}`;
    const found = await search(visitor, root, { q: 'lantern' });
    expect(found.status).toBe(200);
    expect(found.json.results).toHaveLength(DIALOG_RESULTS);
    expect(found.json.totalIsLowerBound).toBe(true);
    expect(found.json.total).toBeGreaterThanOrEqual(DIALOG_RESULTS);
    expect(found.json.total).toBeLessThan(pages);
    // The results page, the dialog's "all results" link, counts every one of them.
    const all = await visitor.get(found.json.more);
    expect(all.body).toContain(`${pages} pages match your search.`);
    // A search within the bound is counted exactly.
    expect((await search(visitor, root, { q: 'welcome' })).json).toMatchObject({ total: 1, totalIsLowerBound: false });
  });

  it('reads code as text: no escapes, no data punctuation in the snippet', async () => {
    const world = await docs();
    const visitor = new Visitor(world.t.url);
    const found = await search(visitor, world.root, { q: 'lantern' });
    expect(found.json.results).toHaveLength(1);
    const [hit] = found.json.results;
    expect(hit!.snippet).toBe('Send the request. name lantern notes first line second line tags a b');
    expect(marked(hit!.snippet, hit!.snippetMarks)).toEqual(['lantern']);
  });

  it('refuses bad input with a 400 in the documented shape; an empty query finds nothing', async () => {
    const world = await docs();
    const visitor = new Visitor(world.t.url);
    const bad: Array<Record<string, string>> = [{ q: 'a'.repeat(201) }, { q: 'a\u0000b' }, { q: 'lighthouse', page: '2' }, { q: 'lighthouse', scope: '../../etc' }, { q: 'lighthouse', scope: 'x'.repeat(65) }];
    for (const params of bad) {
      const answer = await search(visitor, world.root, params);
      expect(answer.status, JSON.stringify(params)).toBe(400);
      expect(answer.json.error?.code).toBe('invalid_search');
      expect(typeof answer.json.error?.message).toBe('string');
    }
    expect((await search(visitor, world.root, { q: '' })).json).toMatchObject({ total: 0, results: [] });
    for (const odd of ['"', '-lighthouse', '*', 'a:b & c | !d', '\\', '()', '\u{1F600}']) {
      expect((await search(visitor, world.root, { q: odd })).status, odd).toBe(200);
    }
    // Only GET and HEAD.
    expect((await visitor.get(`${world.root}/_search?q=lighthouse`, { method: 'POST' })).status).toBe(405);
  });

  it('share-link and visitor-auth sites: without the key or a sign-in, nothing of the site; with them, private answers', async () => {
    const world = await docs('share-link');
    const { data: link } = await world.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(world.organizationId, world.siteId), body: { label: 'Partners' } });
    const stranger = await new Visitor(world.t.url).get(`${world.root}/_search?q=lighthouse`);
    const absent = await new Visitor(world.t.url).get('/s/no-such-site/_search?q=lighthouse');
    expect(stranger.status).toBe(404);
    expect(stranger.body).toBe(absent.body);
    const partner = new Visitor(world.t.url);
    await partner.follow(`${world.root}/?shareKey=${link!.key}`);
    const found = await search(partner, world.root, { q: 'lighthouse' });
    expect(found.status).toBe(200);
    expect(found.headers['cache-control']).toBe('private, no-store');
    expect(found.json.total).toBe(3);

    const signed = await docs('visitor-auth');
    const { data: auth } = await signed.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...sitePath(signed.organizationId, signed.siteId), body: { fallbackURL: 'https://login.example.com/' } });
    expect((await new Visitor(signed.t.url).get(`${signed.root}/_search?q=lighthouse`)).status).toBe(302);
    const reader = new Visitor(signed.t.url);
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new TextEncoder().encode(auth!.secret!));
    await reader.follow(`${signed.root}/?jwt_token=${token}`);
    expect((await search(reader, signed.root, { q: 'lighthouse' })).json.total).toBe(3);
  });
});
