// Sites: list, create, read, update, delete, publish/unpublish, the published view, adaptive schema,
// customization, share links, visitor authentication, and the organization's `defaultContent.site`.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { findSiteByAddress } from '../../src/areas/sites/sites.repository.js';
import { verifyVisitorToken } from '../../src/areas/sites/audience.js';
import type { SpaceRow } from '../../src/access/standing.repository.js';
import { useTestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace, createUser, type TestUser } from '../support/factories.js';
import { addSection, addSiteSpace, createSite, publish, sitePath } from '../support/sites.js';

const server = useTestServer();

const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const NEEDS_ADMIN = { error: { code: 403, message: 'This needs the organization role "admin"' } };
const SITE_NOT_FOUND = { error: { code: 404, message: 'Site not found' } };
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const FEATURES = ['sections', 'section-groups', 'adaptive-content', 'share-links', 'visitor-auth', 'custom-hostname', 'basename', 'proxy', 'customization'].map((id) => ({
  id,
  plan: 'basic',
  frozen: false,
}));

function expectedSite(organizationId: string, id: string, overrides: Record<string, unknown> = {}) {
  return {
    object: 'site',
    id,
    type: 'basic',
    title: 'Docs',
    visibility: 'public',
    published: false,
    siteSpaces: 0,
    createdAt: expect.any(String),
    adaptiveContent: { enabled: false },
    features: FEATURES,
    urls: { location: `http://api.test/v1/orgs/${organizationId}/sites/${id}`, app: `http://app.test/o/${organizationId}/sites/${id}` },
    permissions: { view: true, edit: true, publish: true, delete: true },
    ...overrides,
  };
}

async function world() {
  const t = server();
  const { admin, organization } = await createOrganizationWithAdmin(t);
  return { t, admin, organization };
}

const site = (admin: TestUser, organizationId: string, siteId: string) => admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}', sitePath(organizationId, siteId));

describe('POST /v1/orgs/{organizationId}/sites', () => {
  it('400 for each limit and value of the seed', async () => {
    const { admin, organization } = await world();
    for (const [body, path] of [
      [{ title: 'x' }, '/body/title'],
      [{ title: 'x'.repeat(129) }, '/body/title'],
      [{ type: 'gold' }, '/body/type'],
      [{ visibility: 'private' }, '/body/visibility'],
      [{ spaces: 'full' }, '/body/spaces'],
      [{ spaces: ['bad id'] }, '/body/spaces'],
      [{ unknown: true }, '/body/unknown'],
    ] as const) {
      const { response, error } = await admin.client.POST('/v1/orgs/{organizationId}/sites', { ...orgPath(organization.id), body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.some((issue) => issue.path.startsWith(path)), JSON.stringify(error)).toBe(true);
    }
    expect(await admin.client.GET('/v1/orgs/{organizationId}/sites', orgPath(organization.id)).then((r) => r.data?.count)).toBe(0);
  });

  it('404 for another organization’s space, a space the caller cannot see and an unknown one; nothing is created', async () => {
    const { t, admin, organization } = await world();
    const other = await createOrganizationWithAdmin(t);
    const foreign = await createSpace(t, other.admin, other.organization);
    for (const spaceId of [foreign.id, 'x'.repeat(20)]) {
      const { error } = await admin.client.POST('/v1/orgs/{organizationId}/sites', { ...orgPath(organization.id), body: { spaces: [spaceId] } });
      expect(error).toEqual({ error: { code: 404, message: 'Space not found' } });
    }
    expect(await t.db.selectFrom('sites').select('id').where('organizationId', '=', organization.id).execute()).toEqual([]);
  });

  // Each role's refusal is the matrix's; here, what it leaves.
  it('403 below admin creates no site', async () => {
    const { t, organization } = await world();
    const caller = await createMember(t, organization, 'create');
    expect((await caller.client.POST('/v1/orgs/{organizationId}/sites', { ...orgPath(organization.id), body: {} })).error).toEqual(NEEDS_ADMIN);
    expect(await t.db.selectFrom('sites').select('id').where('organizationId', '=', organization.id).execute()).toEqual([]);
  });

  it('creates an unpublished basic public site with its spaces at the root, 201', async () => {
    const { t, admin, organization } = await world();
    const [guide, api] = [await createSpace(t, admin, organization, { title: 'User guide' }), await createSpace(t, admin, organization, { title: 'API' })];
    const { data, response } = await admin.client.POST('/v1/orgs/{organizationId}/sites', { ...orgPath(organization.id), body: { title: 'Docs', spaces: [guide.id, api.id] } });
    expect(response.status).toBe(201);
    expect(data).toEqual(expectedSite(organization.id, data!.id, { id: expect.stringMatching(/^[A-Za-z0-9]{20}$/), siteSpaces: 2 }));
    expect((await site(admin, organization.id, data!.id)).data).toEqual(data);
    const { data: siteSpaces } = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', sitePath(organization.id, data!.id));
    expect(siteSpaces?.items.map(({ path, title, default: isDefault }) => ({ path, title, default: isDefault }))).toEqual([
      { path: 'user-guide', title: 'User guide', default: true },
      { path: 'api', title: 'API', default: false },
    ]);
    expect(await findSiteByAddress(t.db, `path:${data!.id}`)).toEqual({ organizationId: organization.id, siteId: data!.id });
  });

  it('creates a new space for the site with `empty` or `sample` (the caller its admin)', async () => {
    const { admin, organization } = await world();
    for (const kind of ['empty', 'sample'] as const) {
      const { data } = await admin.client.POST('/v1/orgs/{organizationId}/sites', { ...orgPath(organization.id), body: { title: `Site ${kind}`, type: 'premium', visibility: 'unlisted', spaces: kind } });
      expect(data).toMatchObject({ type: 'premium', visibility: 'unlisted', siteSpaces: 1 });
      const { data: siteSpaces } = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', sitePath(organization.id, data!.id));
      const space = siteSpaces!.items[0]!.space!;
      expect(space).toMatchObject({ title: `Site ${kind}`, permissions: { admin: true } });
      const { data: pages } = await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
      expect(pages?.pages.map((page) => page.title)).toEqual(kind === 'sample' ? ['Welcome'] : []);
    }
  });
});

describe('GET /v1/orgs/{organizationId}/sites', () => {
  it('lists newest first in pages, filtered by space, title and published; readers see no edit permissions', async () => {
    const { t, admin, organization } = await world();
    const space = await createSpace(t, admin, organization);
    const first = await createSite(admin.client, organization.id, { title: 'Developer docs', spaces: [space.id] });
    const second = await createSite(admin.client, organization.id, { title: 'Help center' });
    await t.db.updateTable('sites').set({ createdAt: '2026-01-01T00:00:00.000Z' } as never).where('id', '=', first.id).execute();
    await publish(admin.client, organization.id, second.id);
    const reader = await createMember(t, organization, 'read');
    const list = async (query: Record<string, unknown>) =>
      (await reader.client.GET('/v1/orgs/{organizationId}/sites', { params: { path: { organizationId: organization.id }, query } })).data;
    const all = await list({});
    expect(all?.count).toBe(2);
    expect(all?.items.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(all?.items[0]!.permissions).toEqual({ view: true, edit: false, publish: false, delete: false });
    expect((await list({ space: space.id }))?.items.map((item) => item.id)).toEqual([first.id]);
    expect((await list({ title: 'DEVELOPER' }))?.items.map((item) => item.id)).toEqual([first.id]);
    expect((await list({ published: true }))?.items.map((item) => item.id)).toEqual([second.id]);
    expect((await list({ published: false }))?.items.map((item) => item.id)).toEqual([first.id]);
    const page1 = await list({ limit: 1 });
    expect(page1?.items.map((item) => item.id)).toEqual([second.id]);
    const page2 = await list({ limit: 1, page: page1!.next!.page });
    expect(page2?.items.map((item) => item.id)).toEqual([first.id]);
    expect(page2?.next).toBeUndefined();
  });

  it('400 for invalid filters', async () => {
    const { admin, organization } = await world();
    for (const [name, value] of [['space', 'bad id'], ['title', ''], ['title', 'x'.repeat(129)], ['published', 'maybe']]) {
      const { response, error } = await admin.client.GET('/v1/orgs/{organizationId}/sites', { params: { path: { organizationId: organization.id }, query: { [name!]: value } as never } });
      expect(response.status).toBe(400);
      expect(error?.error.issues?.[0]?.path).toBe(`/query/${name}`);
    }
  });
});

describe('GET/PATCH/DELETE /v1/orgs/{organizationId}/sites/{siteId}', () => {
  it('404 for another organization’s site and an unknown one', async () => {
    const { t, admin, organization } = await world();
    const other = await createOrganizationWithAdmin(t);
    const foreign = await createSite(other.admin.client, other.organization.id, { title: 'Theirs' });
    expect((await site(admin, organization.id, foreign.id)).error).toEqual(SITE_NOT_FOUND);
    expect((await site(admin, organization.id, 'x'.repeat(20))).error).toEqual(SITE_NOT_FOUND);
    expect((await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, foreign.id), body: { title: 'Mine' } })).error).toEqual(SITE_NOT_FOUND);
    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}', sitePath(organization.id, foreign.id))).error).toEqual(SITE_NOT_FOUND);
    expect((await site(other.admin, other.organization.id, foreign.id)).data?.title).toBe('Theirs');
  });

  // Each role's refusal is the matrix's; here, what it leaves.
  it('403 below admin to change, delete or publish leaves the site as it was', async () => {
    const { t, admin, organization } = await world();
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs' });
    const before = (await site(admin, organization.id, id)).data;
    expect(before?.title).toBe('Docs');
    const caller = await createMember(t, organization, 'create');
    expect((await caller.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body: { title: 'Mine' } })).error).toEqual(NEEDS_ADMIN);
    expect((await caller.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}', sitePath(organization.id, id))).error).toEqual(NEEDS_ADMIN);
    expect((await caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/publish', sitePath(organization.id, id))).error).toEqual(NEEDS_ADMIN);
    expect((await site(admin, organization.id, id)).data).toEqual(before);
  });

  it('400 for each limit and pattern of the seed', async () => {
    const { admin, organization } = await world();
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs' });
    for (const [body, path] of [
      [{ title: 'x' }, '/body/title'],
      [{ title: 'x'.repeat(129) }, '/body/title'],
      [{ basename: '' }, '/body/basename'],
      [{ basename: 'x'.repeat(101) }, '/body/basename'],
      [{ basename: 'Has Space' }, '/body/basename'],
      [{ hostname: 'localhost' }, '/body/hostname'],
      [{ hostname: 'docs.example' }, '/body/hostname'],
      [{ hostname: `${'a'.repeat(200)}.${'b'.repeat(200)}.${'c'.repeat(120)}.com` }, '/body/hostname'],
      [{ proxy: 'example.com' }, '/body/proxy'],
      [{ proxy: 'https://example.com/docs' }, '/body/proxy'],
      [{ proxy: `example.com/${'d'.repeat(510)}` }, '/body/proxy'],
      [{ visibility: 'in-collection' }, '/body/visibility'],
      [{ adaptiveContent: {} }, '/body/adaptiveContent'],
      [{ published: true }, '/body/published'],
      [{ defaultSiteSpace: 'x'.repeat(20) }, '/body/defaultSiteSpace'],
      [{ defaultSiteSection: 'x'.repeat(20) }, '/body/defaultSiteSection'],
    ] as const) {
      const { response, error } = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.some((issue) => issue.path.startsWith(path)), JSON.stringify(error)).toBe(true);
    }
    expect((await site(admin, organization.id, id)).data).toEqual(expectedSite(organization.id, id));
  });

  it('changes title, visibility, basename, hostname, proxy and adaptive content; removes them with null', async () => {
    const { admin, organization } = await world();
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs' });
    const { data, response } = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', {
      ...sitePath(organization.id, id),
      body: { title: 'Handbook', visibility: 'share-link', basename: 'handbook', hostname: 'docs.example.com', proxy: 'example.com/docs', adaptiveContent: { enabled: true } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual(
      expectedSite(organization.id, id, {
        title: 'Handbook',
        visibility: 'share-link',
        basename: 'handbook',
        hostname: 'docs.example.com',
        // Served once its DNS proves control (test/integration/site-hostnames.test.ts): until then, at /s/….
        hostnameVerification: {
          status: 'pending',
          records: [{ type: 'TXT', name: '_content-workspace.docs.example.com', value: expect.stringMatching(/^content-workspace-verification=[0-9a-f]{32}$/) }],
        },
        proxy: { origin: 'https://example.com/docs', target: `http://api.test/s/handbook` },
        adaptiveContent: { enabled: true },
      }),
    );
    await publish(admin.client, organization.id, id);
    expect((await site(admin, organization.id, id)).data?.urls.published).toBe('http://api.test/s/handbook');
    const { data: cleared } = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body: { basename: null, hostname: null, proxy: null } });
    expect(cleared).toEqual(expectedSite(organization.id, id, { title: 'Handbook', visibility: 'share-link', adaptiveContent: { enabled: true }, published: true, urls: { ...expectedSite(organization.id, id).urls, published: `http://api.test/s/${id}` } }));
  });

  it('409 for a basename or site id another site holds (any organization); a hostname is claimed, whoever else claims it', async () => {
    const { t, admin, organization } = await world();
    const other = await createOrganizationWithAdmin(t);
    const theirs = await createSite(other.admin.client, other.organization.id, { title: 'Theirs' });
    await other.admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(other.organization.id, theirs.id), body: { basename: 'docs', hostname: 'docs.example.com' } });
    const { id } = await createSite(admin.client, organization.id, { title: 'Mine' });
    const lower = await createSite(admin.client, organization.id, { title: 'Lowercase id' });
    await t.db.updateTable('siteAddresses').set({ address: 'path:lowercaseid0000000' }).where('address', '=', `path:${lower.id}`).execute();
    for (const body of [{ basename: 'docs' }, { basename: 'lowercaseid0000000' }]) {
      const { response } = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body });
      expect(response.status, JSON.stringify(body)).toBe(409);
    }
    // Another organization's claim of a hostname neither blocks this one nor shows (issue 25, F6): the
    // one whose DNS proves control will hold it.
    expect((await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body: { hostname: 'docs.example.com' } })).data?.hostnameVerification?.status).toBe('pending');
    expect((await site(admin, organization.id, id)).data).not.toHaveProperty('basename');
    // Freed addresses can be taken.
    await other.admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(other.organization.id, theirs.id), body: { basename: null } });
    expect((await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body: { basename: 'docs' } })).data?.basename).toBe('docs');
  });

  it('sets the default site space and the default section (400 for one of another site)', async () => {
    const { t, admin, organization } = await world();
    const [a, b] = [await createSpace(t, admin, organization, { title: 'A' }), await createSpace(t, admin, organization, { title: 'B' })];
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs', spaces: [a.id, b.id] });
    const { data: before } = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', sitePath(organization.id, id));
    const second = before!.items[1]!;
    await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body: { defaultSiteSpace: second.id } });
    const { data: defaults } = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', { params: { path: { organizationId: organization.id, siteId: id }, query: { default: true } } });
    expect(defaults?.items.map((item) => item.id)).toEqual([second.id]);
    const otherSite = await createSite(admin.client, organization.id, { title: 'Other' });
    const section = await addSection(admin.client, organization.id, otherSite.id, a.id, 'Guides');
    const { response, error } = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body: { defaultSiteSection: section.id } });
    expect(response.status).toBe(400);
    expect(error?.error.issues).toEqual([{ path: '/body/defaultSiteSection', message: 'is not a section of this site' }]);
    const later = await addSection(admin.client, organization.id, otherSite.id, b.id, 'Reference');
    await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, otherSite.id), body: { defaultSiteSection: later.id } });
    const { data: sections } = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/sections', sitePath(organization.id, otherSite.id));
    expect(sections?.items.map((item) => [item.title, item.default])).toEqual([
      ['Guides', false],
      ['Reference', true],
    ]);
  });

  it('deletes the site with its structure, 205; the spaces stay and the organization’s defaultContent is cleared', async () => {
    const { t, admin, organization } = await world();
    const space = await createSpace(t, admin, organization);
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs', spaces: [space.id] });
    await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(organization.id, id), body: { label: 'Partners' } });
    await publish(admin.client, organization.id, id);
    await admin.client.PATCH('/v1/orgs/{organizationId}', { ...orgPath(organization.id), body: { defaultContent: { type: 'site', site: id } } });
    const { response } = await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}', sitePath(organization.id, id));
    expect(response.status).toBe(205);
    expect((await site(admin, organization.id, id)).response.status).toBe(404);
    for (const table of ['siteSpaces', 'siteShareLinks', 'siteAddresses'] as const) {
      expect(await t.db.selectFrom(table).select('siteId').where('siteId', '=', id).execute()).toEqual([]);
    }
    const { data: after } = await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    expect(after?.urls).not.toHaveProperty('published');
    expect((await admin.client.GET('/v1/orgs/{organizationId}', orgPath(organization.id))).data).not.toHaveProperty('defaultContent');
  });
});

describe('organization defaultContent.site', () => {
  it('names a site of the organization: 400 for another organization’s site', async () => {
    const { t, admin, organization } = await world();
    const other = await createOrganizationWithAdmin(t);
    const foreign = await createSite(other.admin.client, other.organization.id, { title: 'Theirs' });
    const { response, error } = await admin.client.PATCH('/v1/orgs/{organizationId}', { ...orgPath(organization.id), body: { defaultContent: { type: 'site', site: foreign.id } } });
    expect(response.status).toBe(400);
    expect(error?.error.issues).toEqual([{ path: '/body/defaultContent/site', message: 'is not a site of this organization' }]);
    const mine = await createSite(admin.client, organization.id, { title: 'Mine' });
    const { data } = await admin.client.PATCH('/v1/orgs/{organizationId}', { ...orgPath(organization.id), body: { defaultContent: { type: 'site', site: mine.id } } });
    expect(data?.defaultContent).toEqual({ type: 'site', site: mine.id });
  });
});

describe('POST .../publish and .../unpublish', () => {
  it('moves published and the published addresses', async () => {
    const { admin, organization } = await world();
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs' });
    const { data: published } = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/publish', sitePath(organization.id, id));
    expect(published).toEqual(expectedSite(organization.id, id, { published: true, urls: { ...expectedSite(organization.id, id).urls, published: `http://api.test/s/${id}` } }));
    expect((await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/publish', sitePath(organization.id, id))).data?.published).toBe(true);
    const { data: unpublished } = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/unpublish', sitePath(organization.id, id));
    expect(unpublished).toEqual(expectedSite(organization.id, id));
  });
});

describe('GET .../adaptive-schema and PUT', () => {
  const schema = {
    $schema: DRAFT_07,
    type: 'object',
    properties: {
      plan: { type: 'string', enum: ['free', 'pro'] },
      unsigned: { type: 'object', additionalProperties: false, properties: { beta: { type: 'boolean', description: 'Joined the beta' } } },
    },
    additionalProperties: false,
  } as const;

  it('answers the empty schema before any PUT, then the one PUT', async () => {
    const { admin, organization } = await world();
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs' });
    const { data: site0 } = await site(admin, organization.id, id);
    const { data: empty } = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', sitePath(organization.id, id));
    expect(empty).toEqual({
      object: 'site-adaptive-schema',
      jsonSchema: { $schema: DRAFT_07, $id: `http://api.test/v1/orgs/${organization.id}/sites/${id}/adaptive-schema`, type: 'object', properties: {}, additionalProperties: false },
      updatedAt: site0!.createdAt,
    });
    const { data, response } = await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', { ...sitePath(organization.id, id), body: { jsonSchema: schema as never } });
    expect(response.status).toBe(200);
    expect(data).toEqual({ object: 'site-adaptive-schema', jsonSchema: schema, updatedAt: expect.any(String) });
    expect((await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', sitePath(organization.id, id))).data).toEqual(data);
  });

  // Below admin is the matrix's case.
  it('400 with the failing path for schemas off the meta-schema or the shape; 404 across organizations', async () => {
    const { t, admin, organization } = await world();
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs' });
    for (const [jsonSchema, path] of [
      [{ ...schema, $schema: 'https://json-schema.org/draft/2020-12/schema' }, '/body/jsonSchema/$schema'],
      [{ ...schema, additionalProperties: true }, '/body/jsonSchema/additionalProperties'],
      [{ ...schema, properties: { plan: { type: 'string' } } }, '/body/jsonSchema/properties/plan/enum'],
      [{ ...schema, properties: { n: { type: 'number', minimum: 'low' } } }, '/body/jsonSchema/properties/n/minimum'],
      [{ ...schema, properties: { unsigned: { type: 'object', additionalProperties: false, properties: { b: { type: 'boolean' } } } } }, '/body/jsonSchema/properties/unsigned/properties/b/description'],
    ] as const) {
      const { response, error } = await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', { ...sitePath(organization.id, id), body: { jsonSchema: jsonSchema as never } });
      expect(response.status, JSON.stringify(jsonSchema)).toBe(400);
      expect(error?.error.issues?.[0]?.path, JSON.stringify(error)).toBe(path);
    }
    const other = await createOrganizationWithAdmin(t);
    expect((await other.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', sitePath(other.organization.id, id))).error).toEqual(SITE_NOT_FOUND);
  });

  it('with adaptive content enabled, conditions use declared claims only: 400 when writing one, 409 when dropping or enabling', async () => {
    const { t, admin, organization } = await world();
    const space = await createSpace(t, admin, organization);
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs' });
    const section = await addSection(admin.client, organization.id, id, space.id, 'Guides');
    const sectionPath = { params: { path: { organizationId: organization.id, siteId: id, siteSectionId: section.id } } };
    await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { ...sectionPath, body: { condition: 'visitor.claims.role === "admin"' } });
    await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', { ...sitePath(organization.id, id), body: { jsonSchema: schema as never } });
    const enable = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body: { adaptiveContent: { enabled: true } } });
    expect(enable.response.status).toBe(409);
    expect(enable.error?.error.message).toBe(`The condition of the section ${section.id} uses visitor.claims.role, which the adaptive schema does not declare`);
    await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { ...sectionPath, body: { condition: 'visitor.claims.plan === "pro" || visitor.claims.unsigned.beta' } });
    expect((await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body: { adaptiveContent: { enabled: true } } })).data?.adaptiveContent).toEqual({ enabled: true });
    const undeclared = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { ...sectionPath, body: { condition: 'visitor.claims.unsigned.other' } });
    expect(undeclared.response.status).toBe(400);
    expect(undeclared.error?.error.issues).toEqual([{ path: '/body/condition', message: "uses visitor.claims.unsigned.other, which the site's adaptive schema does not declare" }]);
    const dropping = await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', {
      ...sitePath(organization.id, id),
      body: { jsonSchema: { ...schema, properties: { plan: schema.properties.plan } } as never },
    });
    expect(dropping.response.status).toBe(409);
  });
});

describe('GET .../customization and PUT', () => {
  it('answers the defaults, then replaces the whole customization (omitted fields back to defaults)', async () => {
    const { t, admin, organization } = await world();
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs' });
    const defaults = {
      title: 'Docs',
      styling: {
        theme: 'clean',
        primaryColor: { light: '#346DDB', dark: '#346DDB' },
        infoColor: { light: '#787878', dark: '#787878' },
        successColor: { light: '#02A62A', dark: '#02A62A' },
        warningColor: { light: '#F59E0B', dark: '#F59E0B' },
        dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
        corners: 'rounded',
        links: 'default',
        font: 'Inter',
        icons: 'regular',
        sidebar: { background: 'default', list: 'default' },
        search: 'subtle',
      },
      internationalization: { locale: 'en' },
    };
    expect((await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/customization', sitePath(organization.id, id))).data).toEqual(defaults);
    const body = {
      title: 'Acme docs',
      styling: { theme: 'bold', primaryColor: { light: '#112233', dark: '#445566' }, tint: { color: { light: '#010101', dark: '#020202' } }, corners: 'circular', sidebar: { list: 'pill' } },
      internationalization: { locale: 'fr' },
      favicon: { emoji: '📘' },
    } as const;
    const { data } = await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...sitePath(organization.id, id), body });
    expect(data).toEqual({
      ...defaults,
      title: 'Acme docs',
      styling: { ...defaults.styling, theme: 'bold', primaryColor: { light: '#112233', dark: '#445566' }, tint: { color: { light: '#010101', dark: '#020202' } }, corners: 'circular', sidebar: { background: 'default', list: 'pill' } },
      internationalization: { locale: 'fr' },
      favicon: { emoji: '📘' },
    });
    const { data: replaced } = await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...sitePath(organization.id, id), body: {} });
    expect(replaced).toEqual(defaults);
    for (const [bad, path] of [
      [{ styling: { primaryColor: { light: 'red', dark: '#000000' } } }, '/body/styling/primaryColor/light'],
      [{ styling: { theme: 'neon' } }, '/body/styling/theme'],
      [{ internationalization: { locale: 'xx' } }, '/body/internationalization/locale'],
      [{ favicon: { icon: { light: 'javascript:alert(1)', dark: 'https://example.com/d.png' } } }, '/body/favicon'],
      [{ title: 'x'.repeat(129) }, '/body/title'],
    ] as const) {
      const { response, error } = await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...sitePath(organization.id, id), body: bad as never });
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(error?.error.issues?.some((issue) => issue.path.startsWith(path)), JSON.stringify(error)).toBe(true);
    }
    const reader = await createMember(t, organization, 'read');
    expect((await reader.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/customization', sitePath(organization.id, id))).data).toEqual(defaults);
    expect((await reader.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...sitePath(organization.id, id), body: {} })).response.status).toBe(403);
  });
});

describe('share links', () => {
  it('creates a link with its key shown once, lists without keys, revokes; the key opens the published share-link site', async () => {
    const { t, admin, organization } = await world();
    const space = await createSpace(t, admin, organization, { title: 'Guide' });
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs', spaces: [space.id], visibility: 'share-link' });
    const { data: link, response } = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(organization.id, id), body: { label: 'Partners' } });
    expect(response.status).toBe(201);
    expect(link).toEqual({
      object: 'site-share-link',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      label: 'Partners',
      createdAt: expect.any(String),
      createdBy: admin.user.id,
      key: expect.stringMatching(/^[A-Za-z0-9]{40}$/),
      urls: { published: `http://api.test/s/${id}?shareKey=${link!.key}` },
    });
    const stored = await t.db.selectFrom('siteShareLinks').select('keyHash').where('id', '=', link!.id).executeTakeFirstOrThrow();
    expect(stored.keyHash.toString('hex')).not.toContain(Buffer.from(link!.key).toString('hex'));
    const { data: list } = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/share-links', sitePath(organization.id, id));
    expect(list).toEqual({ count: 1, items: [{ object: 'site-share-link', id: link!.id, label: 'Partners', createdAt: link!.createdAt, createdBy: admin.user.id }] });

    await publish(admin.client, organization.id, id);
    const stranger = await createUser(t);
    const published = (shareKey?: string) =>
      stranger.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/published', { params: { path: { organizationId: organization.id, siteId: id }, query: shareKey ? { shareKey } : {} } });
    expect((await published()).response.status).toBe(404);
    expect((await published('x'.repeat(40))).response.status).toBe(404);
    const opened = await published(link!.key);
    expect(opened.response.status).toBe(200);
    expect(opened.data?.structure).toEqual({
      type: 'siteSpaces',
      structure: [{ object: 'site-space', id: expect.any(String), path: 'guide', title: 'Guide', default: true, urls: { published: `http://api.test/s/${id}/guide?shareKey=${link!.key}` } }],
    });
    // The key completes the space's published address (and grants no access to it).
    const { data: read } = await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id }, query: { shareKey: link!.key } } });
    expect(read?.urls.published).toBe(`http://api.test/s/${id}/guide?shareKey=${link!.key}`);
    expect((await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).data?.urls.published).toBe(`http://api.test/s/${id}/guide`);
    expect((await stranger.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id }, query: { shareKey: link!.key } } })).response.status).toBe(404);

    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}', { params: { path: { organizationId: organization.id, siteId: id, shareLinkId: link!.id } } })).response.status).toBe(205);
    expect((await published(link!.key)).response.status).toBe(404);
    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}', { params: { path: { organizationId: organization.id, siteId: id, shareLinkId: link!.id } } })).response.status).toBe(404);
  });

  // Below admin is the matrix's case.
  it('400 for a missing or long label; 409 past 100 links', async () => {
    const { t, admin, organization } = await world();
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs' });
    for (const body of [{}, { label: '' }, { label: 'x'.repeat(101) }]) {
      expect((await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(organization.id, id), body: body as never })).response.status).toBe(400);
    }
    await t.db
      .insertInto('siteShareLinks')
      .values(Array.from({ length: 100 }, (_, i) => ({ organizationId: organization.id, siteId: id, id: `link${String(i).padStart(16, '0')}`, label: `L${i}`, keyHash: Buffer.alloc(32, i) })))
      .execute();
    expect((await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(organization.id, id), body: { label: 'One more' } })).response.status).toBe(409);
  });
});

describe('visitor authentication', () => {
  it('generates the secret on the first PUT and shows it once; rotation replaces it; tokens signed with it verify', async () => {
    const { t, admin, organization } = await world();
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs', visibility: 'visitor-auth' });
    const path = sitePath(organization.id, id);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', path)).data).toEqual({ object: 'site-visitor-auth', fallbackURL: null });
    const { data: first } = await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...path, body: { fallbackURL: 'https://example.com/login' } });
    expect(first).toEqual({ object: 'site-visitor-auth', fallbackURL: 'https://example.com/login', secretCreatedAt: expect.any(String), secret: expect.stringMatching(/^[A-Za-z0-9]{64}$/) });
    const { data: again } = await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...path, body: { fallbackURL: null } });
    expect(again).toEqual({ object: 'site-visitor-auth', fallbackURL: null, secretCreatedAt: first!.secretCreatedAt });
    expect((await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', path)).data).toEqual(again);
    const token = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(first!.secret!));
    const stored = async () => (await t.db.selectFrom('sites').select('visitorAuthSecret').where('id', '=', id).executeTakeFirstOrThrow()).visitorAuthSecret!;
    expect(await verifyVisitorToken(await stored(), token)).toEqual({ ok: true, claims: expect.objectContaining({ plan: 'pro' }) });
    const { data: rotated } = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth/secret', path);
    expect(rotated?.secret).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(rotated?.secret).not.toBe(first!.secret);
    expect(await verifyVisitorToken(await stored(), token)).toEqual({ ok: false, reason: 'invalid' });
  });

  // Below admin is the matrix's case.
  it('400 for a fallback address that is not http(s)', async () => {
    const { admin, organization } = await world();
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs' });
    for (const fallbackURL of ['javascript:alert(1)', 'not a url', `https://example.com/${'x'.repeat(2048)}`]) {
      const { response } = await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...sitePath(organization.id, id), body: { fallbackURL } });
      expect(response.status, fallbackURL).toBe(400);
    }
  });
});

describe('GET .../published', () => {
  it('members see any site; others a published public or unlisted one only (visitor-auth needs the renderer)', async () => {
    const { t, admin, organization } = await world();
    const publicSpace = await createSpace(t, admin, organization, { title: 'Open', visibility: 'public' });
    const privateSpace = await createSpace(t, admin, organization, { title: 'Closed' });
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs', spaces: [publicSpace.id, privateSpace.id] });
    const reader = await createMember(t, organization, 'read');
    const stranger = await createUser(t);
    const guest = await createMember(t, organization, null);
    const get = (user: TestUser) => user.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/published', sitePath(organization.id, id));
    expect((await get(reader)).response.status).toBe(200);
    expect((await get(stranger)).response.status).toBe(404);
    expect((await get(guest)).response.status).toBe(404);
    await publish(admin.client, organization.id, id);
    const { data } = await get(stranger);
    expect(data?.site).toMatchObject({ id, published: true, permissions: { view: false, edit: false, publish: false, delete: false } });
    // The stranger sees the public space's object, not the private one's.
    expect(data?.structure.structure.map((item) => ('space' in item ? item.space?.title : undefined))).toEqual(['Open', undefined]);
    for (const visibility of ['visitor-auth', 'share-link'] as const) {
      await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body: { visibility } });
      expect((await get(stranger)).response.status).toBe(404);
      expect((await get(reader)).response.status).toBe(200);
    }
    await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body: { visibility: 'unlisted' } });
    expect((await get(stranger)).response.status).toBe(200);
    const other = await createOrganizationWithAdmin(t);
    expect((await other.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/published', sitePath(other.organization.id, id))).response.status).toBe(404);
  });

  it('answers the structure as visitors see it, with the customization, as a whole body', async () => {
    const { t, admin, organization } = await world();
    const [guide, api, beta, gone] = (await Promise.all(['Guide', 'API', 'Beta', 'Gone'].map((title) => createSpace(t, admin, organization, { title })))) as [SpaceRow, SpaceRow, SpaceRow, SpaceRow];
    const { id } = await createSite(admin.client, organization.id, { title: 'Docs' });
    // Basenames are unique across the server: this file's other tests hold `docs`.
    const renamed = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, id), body: { basename: 'published-docs' } });
    expect(renamed.response.status).toBe(200);
    const guides = await addSection(admin.client, organization.id, id, guide.id, 'Guides');
    const reference = await addSection(admin.client, organization.id, id, api.id, 'Reference');
    const betaSection = await addSection(admin.client, organization.id, id, beta.id, 'Beta');
    await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', {
      params: { path: { organizationId: organization.id, siteId: id, siteSectionId: betaSection.id } },
      body: { condition: 'visitor.claims.unsigned.beta === true' },
    });
    const goneSiteSpace = await addSiteSpace(admin.client, organization.id, id, gone.id, reference.id);
    await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: gone.id } } });
    const group = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups', { ...sitePath(organization.id, id), body: { title: 'Develop', sections: [reference.id] } });
    await publish(admin.client, organization.id, id);
    const { data } = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/published', sitePath(organization.id, id));
    const root = 'http://api.test/s/published-docs';
    const siteSpace = (siteSpaceId: string, space: { id: string; title: string }, sectionId: string, sectionPath: string, path: string) => ({
      object: 'site-space',
      id: siteSpaceId,
      path,
      section: sectionId,
      space: expect.objectContaining({ id: space.id, urls: expect.objectContaining({ published: `${root}/${sectionPath}/${path}` }) }),
      title: space.title,
      default: true,
      urls: { published: `${root}/${sectionPath}/${path}` },
    });
    expect(data).toEqual({
      object: 'published-content-site',
      site: expectedSite(organization.id, id, { basename: 'published-docs', published: true, siteSpaces: 3, urls: { ...expectedSite(organization.id, id).urls, published: root } }),
      structure: {
        type: 'sections',
        structure: [
          {
            object: 'site-section',
            id: guides.id,
            title: 'Guides',
            default: true,
            path: 'guides',
            siteSpaces: [siteSpace(guides.siteSpaces[0]!.id, guide, guides.id, 'guides', 'guide')],
            urls: { published: `${root}/guides` },
          },
          {
            object: 'site-section-group',
            id: group.data!.id,
            title: 'Develop',
            sections: [
              {
                object: 'site-section',
                id: reference.id,
                title: 'Reference',
                default: false,
                path: 'reference',
                sectionGroup: group.data!.id,
                siteSpaces: [siteSpace(reference.siteSpaces[0]!.id, api, reference.id, 'reference', 'api')],
                urls: { published: `${root}/reference` },
              },
            ],
          },
        ],
      },
      customizations: { site: expect.objectContaining({ title: 'Docs' }) },
    });
    expect(JSON.stringify(data)).not.toContain(goneSiteSpace.id);
    // Restored, the space comes back.
    await admin.client.POST('/v1/spaces/{spaceId}/restore', { params: { path: { spaceId: gone.id } } });
    const { data: restored } = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/published', sitePath(organization.id, id));
    expect(JSON.stringify(restored)).toContain(goneSiteSpace.id);
  });
});
