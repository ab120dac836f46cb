// A site's redirects (issue 28): the seven operations through the SDK, and the published site applying
// them where it has no page — after a moved page's automatic 301, before its 404.
import { describe, expect, it } from 'vitest';
import { addMember, createOrganizationWithAdmin, createUser } from '../support/factories.js';
import { useTestServer } from '../support/harness.js';
import { edit } from '../support/content.js';
import { publishedSite, sitePath, Visitor, type PublishedWorld } from '../support/published.js';

const server = useTestServer();

const docs = () =>
  publishedSite(server(), [
    { type: 'insert_page', ref: 'welcome', title: 'Welcome', slug: 'welcome', markdown: 'Hello.' },
    { type: 'insert_page', ref: 'guide', title: 'Guide', slug: 'guide', markdown: 'The guide.' },
  ] as never);

const path = (world: PublishedWorld) => sitePath(world.organizationId, world.siteId);
const withId = (world: PublishedWorld, siteRedirectId: string) => ({ params: { path: { organizationId: world.organizationId, siteId: world.siteId, siteRedirectId } } });
const pageTarget = (world: PublishedWorld, ref = 'guide') => ({ kind: 'page' as const, space: world.spaces.guide!.id, page: world.spaces.guide!.refs[ref]! });
const redirect = (body: Record<string, unknown>) => ({
  object: 'site-redirect',
  id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
  permanent: true,
  ...body,
});

describe('createSiteRedirect', () => {
  it('refuses a malformed source, a target into the site itself or outside its spaces (400) and writes nothing', async () => {
    const world = await docs();
    const { client } = world.admin;
    const url = { kind: 'url' as const, url: 'https://example.com/docs' };
    for (const [source, message] of [
      ['/a//b', 'empty segment'],
      ['/%zz', 'malformed percent-encoding'],
      ['/a/../b', '. or .. segment'],
      ['/a%2Fb', 'encoded /'],
      ['/', 'fewer than 2 characters'],
      ['//', 'empty segment'],
    ] as const) {
      const { error, response } = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...path(world), body: { source, target: url } });
      expect(response.status, source).toBe(400);
      expect(error!.error.issues).toEqual([{ path: '/body/source', message: expect.stringContaining(message) }]);
    }
    const intoSite = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...path(world), body: { source: '/old', target: { kind: 'url', url: `${world.t.context.config.publicUrl}/s/${world.siteId}/welcome` } } });
    expect(intoSite.response.status).toBe(400);
    expect(intoSite.error!.error.issues).toEqual([{ path: '/body/target/url', message: 'leads back into the site: use a page target' }]);
    const credentials = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...path(world), body: { source: '/old', target: { kind: 'url', url: 'https://user:pw@example.com/' } } });
    expect(credentials.error!.error.issues).toEqual([{ path: '/body/target/url', message: 'may not carry credentials' }]);
    const otherSpace = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...path(world), body: { source: '/old', target: { kind: 'page', space: 'NotASpaceOfThisSite0', page: 'x' } } });
    expect(otherSpace.error!.error.issues).toEqual([{ path: '/body/target/space', message: 'is not a space of this site' }]);
    const scheme = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...path(world), body: { source: '/old', target: { kind: 'url', url: 'javascript:alert(1)' } } });
    expect(scheme.response.status).toBe(400);
    expect((await client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirects', path(world))).data!.count).toBe(0);
  });

  it('is 404 for another organization’s site and 403 below admin', async () => {
    const world = await docs();
    const other = await createOrganizationWithAdmin(server());
    const body = { source: '/old', target: { kind: 'url' as const, url: 'https://example.com/' } };
    const foreign = await other.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { params: { path: { organizationId: other.organization.id, siteId: world.siteId } }, body });
    expect(foreign.response.status).toBe(404);
    const reader = await createUser(server());
    await addMember(server(), { id: world.organizationId }, reader, 'read');
    expect((await reader.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...path(world), body })).response.status).toBe(403);
    // A reader may read them.
    expect((await reader.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirects', path(world))).response.status).toBe(200);
  });

  it('creates, reads, lists by source, updates, looks up by any spelling of the source and deletes', async () => {
    const world = await docs();
    const { client } = world.admin;
    const created = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...path(world), body: { source: '/old/Guide/', target: pageTarget(world) } });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual(redirect({ source: '/old/Guide', target: pageTarget(world) }));
    const outside = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...path(world), body: { source: '/café', target: { kind: 'url', url: 'https://example.com/cafe' }, permanent: false } });
    expect(outside.data).toEqual(redirect({ source: '/caf%C3%A9', target: { kind: 'url', url: 'https://example.com/cafe' }, permanent: false }));
    // The same source in another spelling is taken.
    const again = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...path(world), body: { source: '/caf%c3%a9/', target: pageTarget(world) } });
    expect(again.response.status).toBe(409);

    const list = await client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { params: { ...path(world).params, query: { limit: 1 } } });
    expect(list.data).toEqual({ items: [outside.data], count: 2, next: { page: expect.any(String) } });
    const rest = await client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { params: { ...path(world).params, query: { limit: 1, page: list.data!.next!.page } } });
    expect(rest.data).toEqual({ items: [created.data], count: 2 });

    expect((await client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', withId(world, created.data!.id))).data).toEqual(created.data);
    expect((await client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', withId(world, 'NoSuchRedirect000000'))).response.status).toBe(404);

    const lookup = await client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirect', { params: { ...path(world).params, query: { source: '/old/Guide/' } } });
    expect(lookup.data).toEqual({ redirect: created.data, location: `${world.t.context.config.publicUrl}/s/${world.siteId}/guide` });
    const external = await client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirect', { params: { ...path(world).params, query: { source: '/caf%c3%a9' } } });
    expect(external.data).toEqual({ redirect: outside.data, location: 'https://example.com/cafe' });
    expect((await client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirect', { params: { ...path(world).params, query: { source: '/nothing' } } })).response.status).toBe(404);

    const updated = await client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', { ...withId(world, created.data!.id), body: { source: '/older', permanent: false } });
    expect(updated.data).toEqual({ ...created.data, source: '/older', permanent: false, updatedAt: expect.any(String) });
    const taken = await client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', { ...withId(world, created.data!.id), body: { source: '/café' } });
    expect(taken.response.status).toBe(409);

    expect((await client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', withId(world, created.data!.id))).response.status).toBe(205);
    expect((await client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', withId(world, created.data!.id))).response.status).toBe(404);
    expect((await client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', withId(world, created.data!.id))).response.status).toBe(404);
  });
});

describe('upsertSiteRedirects', () => {
  it('refuses repeated sources and bad items with every issue (400), writing none', async () => {
    const world = await docs();
    const { error, response } = await world.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/redirects/bulk', {
      ...path(world),
      body: {
        redirects: [
          { source: '/a', target: pageTarget(world) },
          { source: '/a/', target: pageTarget(world) },
          { source: '/b', target: { kind: 'page', space: 'Elsewhere00000000000', page: 'p' } },
        ],
      },
    });
    expect(response.status).toBe(400);
    expect(error!.error.issues).toEqual([
      { path: '/body/redirects/1/source', message: 'repeats the source of /body/redirects/0 (/a)' },
      { path: '/body/redirects/2/target/space', message: 'is not a space of this site' },
    ]);
    expect((await world.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirects', path(world))).data!.count).toBe(0);
  });

  it('creates new sources and updates existing ones in one request, answering in the request’s order', async () => {
    const world = await docs();
    const { client } = world.admin;
    const first = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...path(world), body: { source: '/b', target: { kind: 'url', url: 'https://example.com/b' } } });
    const { data, response } = await client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/redirects/bulk', {
      ...path(world),
      body: { redirects: [{ source: '/c', target: pageTarget(world, 'welcome'), permanent: false }, { source: '/b/', target: pageTarget(world) }] },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      items: [redirect({ source: '/c', target: pageTarget(world, 'welcome'), permanent: false }), { ...first.data, target: pageTarget(world), updatedAt: expect.any(String) }],
      created: 1,
      updated: 1,
    });
    expect((await client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirects', path(world))).data!.items.map((item) => item.source)).toEqual(['/b', '/c']);
  });

  it('holds a site to 5,000 redirects (409), all or nothing', async () => {
    const world = await docs();
    const { client } = world.admin;
    for (let batch = 0; batch < 10; batch++) {
      const redirects = Array.from({ length: 500 }, (_, index) => ({ source: `/r${batch}-${index}`, target: { kind: 'url' as const, url: 'https://example.com/' } }));
      expect((await client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/redirects/bulk', { ...path(world), body: { redirects } })).response.status).toBe(200);
    }
    const one = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...path(world), body: { source: '/one-more', target: { kind: 'url', url: 'https://example.com/' } } });
    expect(one.response.status).toBe(409);
    expect(one.error!.error.message).toBe('A site holds at most 5000 redirects');
    // An update of existing sources with one new: refused whole.
    const mixed = await client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/redirects/bulk', {
      ...path(world),
      body: { redirects: [{ source: '/r0-0', target: pageTarget(world) }, { source: '/new', target: pageTarget(world) }] },
    });
    expect(mixed.response.status).toBe(409);
    const kept = await client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirect', { params: { ...path(world).params, query: { source: '/r0-0' } } });
    expect(kept.data!.redirect.target).toEqual({ kind: 'url', url: 'https://example.com/' });
    // Updating only existing ones is fine at the limit.
    const update = await client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/redirects/bulk', { ...path(world), body: { redirects: [{ source: '/r0-0', target: pageTarget(world) }] } });
    expect(update.data).toMatchObject({ created: 0, updated: 1 });
  });
});

describe('the published site', () => {
  it('applies a redirect where it has no page: 301 or 302, to the page where it is now or to the outside address, the query kept', async () => {
    const world = await docs();
    const { client } = world.admin;
    const visitor = new Visitor(world.t.url);
    const root = `/s/${world.siteId}`;
    await client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/redirects/bulk', {
      ...path(world),
      body: {
        redirects: [
          { source: '/old-guide', target: pageTarget(world) },
          { source: '/elsewhere', target: { kind: 'url', url: 'https://example.com/elsewhere' }, permanent: false },
          { source: '/welcome', target: pageTarget(world) },
          { source: '/café', target: pageTarget(world, 'welcome') },
        ],
      },
    });
    const moved = await visitor.get(`${root}/old-guide?from=mail`);
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe(`${root}/guide?from=mail`);
    const outside = await visitor.get(`${root}/elsewhere/`);
    expect(outside.status).toBe(302);
    expect(outside.headers.location).toBe('https://example.com/elsewhere');
    expect((await visitor.get(`${root}/caf%C3%A9`)).headers.location).toBe(`${root}/welcome`);
    // A page at the source is served: redirects apply only where the site has none.
    expect((await visitor.get(`${root}/welcome`)).status).toBe(200);
    expect((await visitor.get(`${root}/no-such-page`)).status).toBe(404);

    // The target page moves: the redirect follows it; a page moved away keeps its automatic 301 first.
    await edit(world.admin, world.spaces.guide!.id, [{ type: 'update_page', page: world.spaces.guide!.refs.guide!, slug: 'handbook' } as never]);
    expect((await visitor.get(`${root}/old-guide`)).headers.location).toBe(`${root}/handbook`);
    // (`/welcome` has a redirect of its own, to the guide: the moved page's 301 comes first.)
    await edit(world.admin, world.spaces.guide!.id, [{ type: 'update_page', page: world.spaces.guide!.refs.welcome!, slug: 'hello' } as never]);
    expect((await visitor.get(`${root}/welcome`)).headers.location).toBe(`${root}/hello`);
    // The target page is deleted: the source answers the site's 404.
    await edit(world.admin, world.spaces.guide!.id, [{ type: 'delete_page', page: world.spaces.guide!.refs.guide! } as never]);
    expect((await visitor.get(`${root}/old-guide`)).status).toBe(404);
  });
});
