// OpenAPI specs and versions: the operations, and processing against local fixtures (run here by
// calling the job's function; openapi-jobs.test.ts runs it through the queue). Versions are stored only
// when the content changed; the bundled document is served at a signed address without a token.
import { createContentWorkspace } from '@content-workspace/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/db/schema.js';
import { processSpec, refreshDueSpecs } from '../../src/areas/openapi-specs/openapi-specs.service.js';
import { signVersion } from '../../src/areas/openapi-specs/version-signature.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, type TestUser } from '../support/factories.js';
import { startFixtureServer, type FixtureServer } from '../support/openapi-fixtures.js';
import { expectRefusal } from '../support/refusals.js';

const server = useTestServer();
let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures.close();
});

const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const specPath = (organizationId: string, specSlug: string) => ({ params: { path: { organizationId, specSlug } } });
const versionPath = (organizationId: string, specSlug: string, versionId: string) => ({ params: { path: { organizationId, specSlug, versionId } } });
const BELOW_CREATE: Array<Role | null> = ['review', 'edit', 'comment', 'read', null];

const MINIMAL = 'openapi: 3.1.0\ninfo: {title: Pets, version: 1.0.0}\npaths: {}\n';

function deps(t: TestServer, overrides: { timeoutMs?: number; refreshMinutes?: number } = {}) {
  return {
    db: t.db,
    log: t.context.log,
    parsing: t.context.parsing,
    urls: t.context.urls,
    keys: t.context.keys,
    config: {
      outbound: { ...t.config.outbound, ...(overrides.timeoutMs ? { timeoutMs: overrides.timeoutMs } : {}) },
      openapi: { ...t.config.openapi, ...(overrides.refreshMinutes ? { refreshMinutes: overrides.refreshMinutes } : {}) },
    },
  };
}

function expectedSpec(organizationId: string, slug: string, fields: Record<string, unknown> = {}, permissions = { view: true, edit: true }) {
  return {
    object: 'openapi-spec',
    id: expect.any(String),
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    slug,
    processingState: 'pending',
    permissions,
    urls: { location: `http://api.test/v1/orgs/${organizationId}/openapi/${slug}`, app: `http://app.test/o/${organizationId}/openapi/${slug}` },
    ...fields,
  };
}

function expectedVersion(organizationId: string, slug: string, id: string) {
  return {
    object: 'openapi-spec-version',
    id,
    createdAt: expect.any(String),
    url: expect.stringMatching(/^http:\/\/api\.test\/openapi\/[A-Za-z0-9_-]+$/),
    urls: { location: `http://api.test/v1/orgs/${organizationId}/openapi/${slug}/versions/${id}` },
  };
}

async function createSpec(who: TestUser, organizationId: string, slug: string, source: { url: string } | { text: string }) {
  const { data, response, error } = await who.client.POST('/v1/orgs/{organizationId}/openapi', { ...orgPath(organizationId), body: { slug, source } });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!;
}

async function readSpec(who: TestUser, organizationId: string, slug: string) {
  const { data, response } = await who.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(organizationId, slug));
  expect(response.status).toBe(200);
  return data!;
}

/** The document served at a version's `url`, fetched without a token. */
async function download(url: string) {
  const response = await fetch(url.replace('http://api.test', server().url));
  return { response, body: (await response.json()) as any };
}

describe('POST /v1/orgs/{organizationId}/openapi', () => {
  it('400 for every limit and pattern, naming the field; nothing is created', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const source = { url: 'https://example.com/openapi.yaml' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ source }, '/body/slug'],
      [{ slug: '', source }, '/body/slug'],
      [{ slug: 'a'.repeat(101), source }, '/body/slug'],
      [{ slug: 'Pets', source }, '/body/slug'],
      [{ slug: 'pets_v2', source }, '/body/slug'],
      [{ slug: '-pets', source }, '/body/slug'],
      [{ slug: 'pets--v2', source }, '/body/slug'],
      [{ slug: 'pets' }, '/body/source'],
      [{ slug: 'pets', source: {} }, '/body/source'],
      [{ slug: 'pets', source: { url: 'not an address' } }, '/body/source'],
      [{ slug: 'pets', source: { url: `https://example.com/${'x'.repeat(2048)}` } }, '/body/source'],
      [{ slug: 'pets', source: { text: '' } }, '/body/source'],
      [{ slug: 'pets', source: { url: source.url, text: MINIMAL } }, '/body/source'],
      [{ slug: 'pets', source: { url: 'ftp://example.com/openapi.yaml' } }, '/body/source/url'],
      [{ slug: 'pets', source: { url: 'file:///etc/passwd' } }, '/body/source/url'],
      [{ slug: 'pets', source: { url: 'https://user:secret@example.com/openapi.yaml' } }, '/body/source/url'],
      [{ slug: 'pets', source, extra: 1 }, '/body/extra'],
    ];
    for (const [body, path] of cases) {
      const { response, error } = await admin.client.POST('/v1/orgs/{organizationId}/openapi', { ...orgPath(organization.id), body: body as never });
      expect(response.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(error?.error.issues?.map((issue) => issue.path).some((issuePath) => issuePath.startsWith(path)), `${JSON.stringify(error?.error.issues)} for ${path}`).toBe(true);
    }
    expect((await admin.client.GET('/v1/orgs/{organizationId}/openapi', orgPath(organization.id))).data?.count).toBe(0);
  });

  it('409 for a slug already used in the organization (another organization may use it)', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    await createSpec(admin, organization.id, 'pets', { text: MINIMAL });
    const taken = await admin.client.POST('/v1/orgs/{organizationId}/openapi', { ...orgPath(organization.id), body: { slug: 'pets', source: { text: MINIMAL } } });
    expect(taken.response.status).toBe(409);
    expect(taken.error?.error.message).toBe('An OpenAPI spec with the slug "pets" already exists');
    const other = await createOrganizationWithAdmin(t);
    await createSpec(other.admin, other.organization.id, 'pets', { text: MINIMAL });
  });

  it('404 for another organization; 403 below the create role and for guests', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const stranger = await createOrganizationWithAdmin(t);
    const body = { slug: 'pets', source: { text: MINIMAL } };
    expect((await stranger.admin.client.POST('/v1/orgs/{organizationId}/openapi', { ...orgPath(organization.id), body })).response.status).toBe(404);
    for (const role of BELOW_CREATE) {
      const member = await createMember(t, organization, role);
      expect((await member.client.POST('/v1/orgs/{organizationId}/openapi', { ...orgPath(organization.id), body })).response.status, `role ${role}`).toBe(403);
    }
    const creator = await createMember(t, organization, 'create');
    expect(await createSpec(creator, organization.id, 'pets', { text: MINIMAL })).toEqual(expectedSpec(organization.id, 'pets'));
  });

  it('creates the spec pending (through the SDK); a url source shows as sourceURL', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const cw = createContentWorkspace({ baseUrl: t.url, token: admin.token, throwOnError: true, maxRetries: 0 });
    const url = fixtures.url('/multi/openapi.yaml');
    const { data } = await cw.openapiSpecs.create({ organizationId: organization.id, body: { slug: 'petstore', source: { url } } });
    expect(data).toEqual(expectedSpec(organization.id, 'petstore', { sourceURL: url }));
    expect(await createSpec(admin, organization.id, 'inline', { text: MINIMAL })).toEqual(expectedSpec(organization.id, 'inline'));
    expect((await cw.openapiSpecs.get({ organizationId: organization.id, specSlug: 'petstore' })).data).toEqual(data);
  });
});

describe('GET /v1/orgs/{organizationId}/openapi', () => {
  it('400 for an invalid limit or page; 404 for another organization; 403 for guests', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/openapi', { params: { path: { organizationId: organization.id }, query: { limit: 1001 } } })).error?.error.issues?.map((issue) => issue.path)).toEqual(['/query/limit']);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/openapi', { params: { path: { organizationId: organization.id }, query: { page: 'forged' } } })).response.status).toBe(400);
    const stranger = await createOrganizationWithAdmin(t);
    expect((await stranger.admin.client.GET('/v1/orgs/{organizationId}/openapi', orgPath(organization.id))).response.status).toBe(404);
    const guest = await createMember(t, organization, null);
    expect((await guest.client.GET('/v1/orgs/{organizationId}/openapi', orgPath(organization.id))).response.status).toBe(403);
  });

  it('lists newest first, in pages, with the reader’s permissions', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const older = await createSpec(admin, organization.id, 'older', { text: MINIMAL });
    await createSpec(admin, organization.id, 'newer', { url: fixtures.url('/multi/openapi.yaml') });
    await t.db.updateTable('openapiSpecs').set({ createdAt: '2026-01-01T00:00:00.000Z' } as never).where('id', '=', older.id).execute();
    const other = await createOrganizationWithAdmin(t);
    await createSpec(other.admin, other.organization.id, 'elsewhere', { text: MINIMAL });

    const reader = await createMember(t, organization, 'read');
    const readerPermissions = { view: true, edit: false };
    const { data } = await reader.client.GET('/v1/orgs/{organizationId}/openapi', orgPath(organization.id));
    expect(data).toEqual({
      count: 2,
      items: [
        expectedSpec(organization.id, 'newer', { sourceURL: fixtures.url('/multi/openapi.yaml') }, readerPermissions),
        expectedSpec(organization.id, 'older', { id: older.id, createdAt: '2026-01-01T00:00:00.000Z' }, readerPermissions),
      ],
    });
    const first = await reader.client.GET('/v1/orgs/{organizationId}/openapi', { params: { path: { organizationId: organization.id }, query: { limit: 1 } } });
    expect(first.data?.items.map((item) => item.slug)).toEqual(['newer']);
    const second = await reader.client.GET('/v1/orgs/{organizationId}/openapi', { params: { path: { organizationId: organization.id }, query: { limit: 1, page: first.data!.next!.page } } });
    expect(second.data?.items.map((item) => item.slug)).toEqual(['older']);
    expect(second.data?.next).toBeUndefined();
  });
});

describe('GET /v1/orgs/{organizationId}/openapi/{specSlug}', () => {
  it('400 for a malformed slug; 404 for an unknown one and across organizations; 403 for guests', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    await createSpec(admin, organization.id, 'pets', { text: MINIMAL });
    expect((await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(organization.id, 'Pets'))).error?.error.issues?.map((issue) => issue.path)).toEqual(['/path/specSlug']);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(organization.id, 'dogs'))).response.status).toBe(404);
    const stranger = await createOrganizationWithAdmin(t);
    expect((await stranger.admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(organization.id, 'pets'))).response.status).toBe(404);
    expect((await stranger.admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(stranger.organization.id, 'pets'))).response.status).toBe(404);
    const guest = await createMember(t, organization, null);
    expect((await guest.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(organization.id, 'pets'))).response.status).toBe(403);
  });
});

describe('processing (the job’s function)', () => {
  it('a multi-file spec: complete, with a version whose content is each file parsed and whose url serves the bundle', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const url = fixtures.url('/multi/openapi.yaml');
    const created = await createSpec(admin, organization.id, 'petstore', { url });
    expect(await processSpec(deps(t), organization.id, created.id)).toBe('version');

    const spec = await readSpec(admin, organization.id, 'petstore');
    expect(spec).toEqual(expectedSpec(organization.id, 'petstore', { id: created.id, sourceURL: url, processingState: 'complete', lastVersion: expect.any(String), lastProcessedAt: expect.any(String) }));
    const versionId = spec.lastVersion!;

    const list = await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions', specPath(organization.id, 'petstore'));
    expect(list.data).toEqual({ count: 1, items: [expectedVersion(organization.id, 'petstore', versionId)] });
    const latest = await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest', specPath(organization.id, 'petstore'));
    expect(latest.data).toEqual(list.data!.items[0]);
    const byId = await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}', versionPath(organization.id, 'petstore', versionId));
    expect(byId.data).toEqual(latest.data);

    const expectedContent = {
      filesystem: {
        entrypoint: url,
        files: {
          [url]: fixtures.parsed('/multi/openapi.yaml'),
          [fixtures.url('/multi/schemas/pet.yaml')]: fixtures.parsed('/multi/schemas/pet.yaml'),
          [fixtures.url('/multi/schemas/owner.json')]: fixtures.parsed('/multi/schemas/owner.json'),
          [fixtures.url('/shared/error.yaml')]: fixtures.parsed('/shared/error.yaml'),
        },
      },
      url: latest.data!.url,
    };
    const content = await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content', specPath(organization.id, 'petstore'));
    expect(content.data).toEqual(expectedContent);
    // The files keep their order of keys as written (paths in the order of the source).
    expect(Object.keys((content.data!.filesystem.files[url] as Record<string, unknown>))).toEqual(['openapi', 'info', 'paths']);
    const contentById = await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content', versionPath(organization.id, 'petstore', versionId));
    expect(contentById.data).toEqual(expectedContent);

    const { response, body } = await download(latest.data!.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(body).toEqual({
      openapi: '3.1.0',
      info: { title: 'Pets', version: '1.0.0' },
      paths: {
        '/pets': {
          get: {
            responses: {
              '200': { description: 'The pets.', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/pet' } } } } },
              default: { description: 'An error.', content: { 'application/json': { schema: { $ref: '#/components/schemas/error' } } } },
            },
          },
        },
      },
      components: {
        schemas: {
          pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, owner: { $ref: '#/components/schemas/owner' } } },
          owner: { type: 'object', properties: { email: { type: 'string', format: 'email' } } },
          error: { type: 'object', properties: { message: { type: 'string' } } },
        },
      },
    });
  });

  it('stores a version only when the content changed; a PUT of the same source processes it again', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    fixtures.set('/dedupe.yaml', MINIMAL);
    const url = fixtures.url('/dedupe.yaml');
    const created = await createSpec(admin, organization.id, 'dedupe', { url });
    expect(await processSpec(deps(t), organization.id, created.id)).toBe('version');
    const first = await readSpec(admin, organization.id, 'dedupe');
    await t.db.updateTable('openapiSpecs').set({ lastProcessedAt: '2026-01-01T00:00:00.000Z' }).where('id', '=', created.id).execute();

    // The same source again: pending, processed, the same latest version, a later lastProcessedAt.
    const put = await admin.client.PUT('/v1/orgs/{organizationId}/openapi/{specSlug}', { ...specPath(organization.id, 'dedupe'), body: { source: { url } } });
    expect(put.response.status).toBe(200);
    expect(put.data).toEqual({ ...first, processingState: 'pending', lastProcessedAt: '2026-01-01T00:00:00.000Z', updatedAt: expect.any(String) });
    const hitsBefore = fixtures.hits('/dedupe.yaml');
    expect(await processSpec(deps(t), organization.id, created.id)).toBe('unchanged');
    expect(fixtures.hits('/dedupe.yaml')).toBe(hitsBefore + 1);
    const unchanged = await readSpec(admin, organization.id, 'dedupe');
    expect(unchanged).toMatchObject({ processingState: 'complete', lastVersion: first.lastVersion });
    expect(unchanged.lastProcessedAt).not.toBe('2026-01-01T00:00:00.000Z');

    fixtures.set('/dedupe.yaml', MINIMAL.replace('1.0.0', '1.1.0'));
    expect(await processSpec(deps(t), organization.id, created.id)).toBe('version');
    // Back to the first content: changed again relative to the latest, so a third version.
    fixtures.set('/dedupe.yaml', MINIMAL);
    expect(await processSpec(deps(t), organization.id, created.id)).toBe('version');
    expect(await processSpec(deps(t), organization.id, created.id)).toBe('unchanged');

    const versions = await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions', specPath(organization.id, 'dedupe'));
    expect(versions.data?.count).toBe(3);
    const latest = await readSpec(admin, organization.id, 'dedupe');
    expect(versions.data?.items[0]?.id).toBe(latest.lastVersion);
    expect(versions.data?.items[2]?.id).toBe(first.lastVersion);
    const page = await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions', { params: { path: { organizationId: organization.id, specSlug: 'dedupe' }, query: { limit: 2 } } });
    const rest = await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions', { params: { path: { organizationId: organization.id, specSlug: 'dedupe' }, query: { limit: 2, page: page.data!.next!.page } } });
    expect([...page.data!.items, ...rest.data!.items].map((item) => item.id)).toEqual(versions.data!.items.map((item) => item.id));
  });

  it('each error code against local fixtures, with the errors kept; the latest version stays', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    fixtures.set('/flaky.yaml', MINIMAL);
    const created = await createSpec(admin, organization.id, 'flaky', { url: fixtures.url('/flaky.yaml') });
    await processSpec(deps(t), organization.id, created.id);
    const good = await readSpec(admin, organization.id, 'flaky');
    const put = (url: string) => admin.client.PUT('/v1/orgs/{organizationId}/openapi/{specSlug}', { ...specPath(organization.id, 'flaky'), body: { source: { url } } });

    const cases: Array<[string, string, Array<{ message: string; location: string }>, number?]> = [
      ['/slow', 'FETCH_TIMEOUT', [{ message: `${fixtures.url('/slow')}: no complete answer within 300 ms`, location: fixtures.url('/slow') }], 300],
      ['/fail', 'FETCH_ERROR', [{ message: `${fixtures.url('/fail')}: the server answered 500`, location: fixtures.url('/fail') }]],
      ['/garbage', 'PARSE_ERROR', [{ message: expect.stringMatching(/^not JSON or YAML: /), location: expect.stringMatching(new RegExp(`^${fixtures.url('/garbage')}:\\d+:\\d+$`)) }]],
      ['/refs-local.yaml', 'FETCH_ERROR', [
        { message: `Can't resolve $ref: ${fixtures.url('/etc/passwd')}: the server answered 404`, location: `${fixtures.url('/refs-local.yaml')}#/components/schemas/a` },
        { message: expect.stringContaining('"file:///etc/passwd" is not an http or https address'), location: `${fixtures.url('/refs-local.yaml')}#/components/schemas/b` },
        { message: `Can't resolve $ref: ${fixtures.url('/package.json')}: the server answered 404`, location: `${fixtures.url('/refs-local.yaml')}#/components/schemas/c` },
      ]],
    ];
    for (const [path, code, errors, timeoutMs] of cases) {
      expect((await put(fixtures.url(path))).response.status).toBe(200);
      expect(await processSpec(deps(t, timeoutMs ? { timeoutMs } : {}), organization.id, created.id)).toBe('failed');
      const spec = await readSpec(admin, organization.id, 'flaky');
      expect(spec).toEqual({
        ...good,
        sourceURL: fixtures.url(path),
        updatedAt: expect.any(String),
        lastProcessedAt: expect.any(String),
        lastProcessErrorCode: code,
        lastProcessErrors: errors,
      });
    }
    // A text source referencing the disk: refused, and nothing of the disk in the errors.
    const text = `${MINIMAL}components:\n  schemas:\n    a: {$ref: '/etc/passwd'}\n    b: {$ref: 'file:///etc/passwd'}\n    c: {$ref: '../../package.json'}\n`;
    await admin.client.PUT('/v1/orgs/{organizationId}/openapi/{specSlug}', { ...specPath(organization.id, 'flaky'), body: { source: { text } } });
    expect(await processSpec(deps(t), organization.id, created.id)).toBe('failed');
    const local = await readSpec(admin, organization.id, 'flaky');
    expect(local.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(local.lastProcessErrors?.map((error) => error.location)).toEqual(['openapi.yaml#/components/schemas/a', 'openapi.yaml#/components/schemas/b', 'openapi.yaml#/components/schemas/c']);
    expect(JSON.stringify(local)).not.toMatch(/root:x:0|content-workspace/);
    expect(local.sourceURL).toBeUndefined();

    // Fixed: complete, errors gone, the same content as the first version (so no new version).
    await put(fixtures.url('/flaky.yaml'));
    expect(await processSpec(deps(t), organization.id, created.id)).toBe('unchanged');
    expect(await readSpec(admin, organization.id, 'flaky')).toEqual({ ...good, updatedAt: expect.any(String), lastProcessedAt: expect.any(String) });
  });

  it('a processing whose source was replaced meanwhile discards its result; a deleted spec is left alone', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    fixtures.set('/held.yaml', MINIMAL);
    const created = await createSpec(admin, organization.id, 'held', { url: fixtures.url('/held.yaml') });
    const hold = fixtures.hold('/held.yaml');
    const running = processSpec(deps(t), organization.id, created.id);
    await waitFor(() => hold.waiting() === 1);
    expect((await readSpec(admin, organization.id, 'held')).processingState).toBe('progress');
    await admin.client.PUT('/v1/orgs/{organizationId}/openapi/{specSlug}', { ...specPath(organization.id, 'held'), body: { source: { text: MINIMAL } } });
    hold.release();
    expect(await running).toBe('superseded');
    expect(await readSpec(admin, organization.id, 'held')).toEqual(expectedSpec(organization.id, 'held', { id: created.id }));

    const doomed = await createSpec(admin, organization.id, 'doomed', { url: fixtures.url('/held.yaml') });
    const again = fixtures.hold('/held.yaml');
    const late = processSpec(deps(t), organization.id, doomed.id);
    await waitFor(() => again.waiting() === 1);
    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(organization.id, 'doomed'))).response.status).toBe(205);
    again.release();
    expect(await late).toBe('gone');
    expect(await t.db.selectFrom('openapiSpecVersions').select('id').where('specId', '=', doomed.id).execute()).toEqual([]);
  });

  it('refreshes url sources processed longer ago than the configured period, and nothing else', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    fixtures.set('/refresh.yaml', MINIMAL);
    const due = await createSpec(admin, organization.id, 'due', { url: fixtures.url('/refresh.yaml') });
    const recent = await createSpec(admin, organization.id, 'recent', { url: fixtures.url('/refresh.yaml') });
    const text = await createSpec(admin, organization.id, 'text', { text: MINIMAL });
    for (const spec of [due, recent, text]) await processSpec(deps(t), organization.id, spec.id);
    await t.db.updateTable('openapiSpecs').set({ lastProcessedAt: '2026-01-01T00:00:00.000Z' }).where('id', 'in', [due.id, text.id]).execute();
    fixtures.set('/refresh.yaml', MINIMAL.replace('1.0.0', '2.0.0'));

    // Off by default.
    expect(t.config.openapi.refreshMinutes).toBe(0);
    expect(await refreshDueSpecs(deps(t))).toBe(0);
    expect(await refreshDueSpecs(deps(t, { refreshMinutes: 60 }))).toBe(1);
    const versions = async (slug: string) => (await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions', specPath(organization.id, slug))).data?.count;
    expect([await versions('due'), await versions('recent'), await versions('text')]).toEqual([2, 1, 1]);
    expect((await readSpec(admin, organization.id, 'due')).processingState).toBe('complete');
    expect(await refreshDueSpecs(deps(t, { refreshMinutes: 60 }))).toBe(0);
  });
});

describe('versions', () => {
  it('404 for an unknown version, another spec’s, or the latest of a spec without one; 400 for a malformed id; 403 for guests', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const processed = await createSpec(admin, organization.id, 'processed', { text: MINIMAL });
    await processSpec(deps(t), organization.id, processed.id);
    const versionId = (await readSpec(admin, organization.id, 'processed')).lastVersion!;
    await createSpec(admin, organization.id, 'fresh', { text: MINIMAL });

    for (const call of [
      () => admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest', specPath(organization.id, 'fresh')),
      () => admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content', specPath(organization.id, 'fresh')),
      () => admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}', versionPath(organization.id, 'fresh', versionId)),
      () => admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content', versionPath(organization.id, 'fresh', versionId)),
      () => admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}', versionPath(organization.id, 'processed', 'unknownVersionId000')),
      () => admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions', specPath(organization.id, 'nothing')),
    ]) {
      expect((await call()).response.status).toBe(404);
    }
    expect((await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}', versionPath(organization.id, 'processed', 'bad id!'))).error?.error.issues?.map((issue) => issue.path)).toEqual(['/path/versionId']);
    const stranger = await createOrganizationWithAdmin(t);
    expect((await stranger.admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}', versionPath(organization.id, 'processed', versionId))).response.status).toBe(404);
    const guest = await createMember(t, organization, null);
    expect((await guest.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest', specPath(organization.id, 'processed'))).response.status).toBe(403);
    const reader = await createMember(t, organization, 'read');
    expect((await reader.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest', specPath(organization.id, 'processed'))).response.status).toBe(200);
  });

  it('the document address: 404 when forged or for a deleted spec, 410 when expired, 400 when malformed', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const created = await createSpec(admin, organization.id, 'served', { text: MINIMAL });
    await processSpec(deps(t), organization.id, created.id);
    const latest = (await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest', specPath(organization.id, 'served'))).data!;
    expect((await download(latest.url)).response.status).toBe(200);

    const forged = latest.url.slice(0, -4) + (latest.url.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await download(forged)).response.status).toBe(404);
    const expired = signVersion(t.context.keys.openapiSignature, { organizationId: organization.id, versionId: latest.id }, Date.now() - 3 * 3600_000);
    const gone = await download(`http://api.test/openapi/${expired}`);
    expect(gone.response.status).toBe(410);
    expect(gone.body.error.code).toBe(410);
    // Signed for another organization: absent.
    const elsewhere = signVersion(t.context.keys.openapiSignature, { organizationId: 'anotherOrganization', versionId: latest.id });
    expect((await download(`http://api.test/openapi/${elsewhere}`)).response.status).toBe(404);
    expect((await fetch(`${t.url}/openapi/not!valid`)).status).toBe(400);

    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(organization.id, 'served'))).response.status).toBe(205);
    expect((await download(latest.url)).response.status).toBe(404);
  });
});

describe('PUT /v1/orgs/{organizationId}/openapi/{specSlug}', () => {
  it('400 for a malformed slug or source; 404 for another organization; 403 below create', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const put = (who: TestUser, slug: string, body: unknown) => who.client.PUT('/v1/orgs/{organizationId}/openapi/{specSlug}', { ...specPath(organization.id, slug), body: body as never });
    expect((await put(admin, 'Pets', { source: { text: MINIMAL } })).error?.error.issues?.map((issue) => issue.path)).toEqual(['/path/specSlug']);
    for (const [body, path] of [
      [{}, '/body/source'],
      [{ source: { url: 'mailto:someone@example.com' } }, '/body/source/url'],
      [{ slug: 'pets', source: { text: MINIMAL } }, '/body/slug'],
    ] as Array<[unknown, string]>) {
      const { response, error } = await put(admin, 'pets', body);
      expect(response.status).toBe(400);
      expect(error?.error.issues?.map((issue) => issue.path).some((issuePath) => issuePath.startsWith(path))).toBe(true);
    }
    const stranger = await createOrganizationWithAdmin(t);
    expect((await put(stranger.admin, 'pets', { source: { text: MINIMAL } })).response.status).toBe(404);
    for (const role of BELOW_CREATE) {
      const member = await createMember(t, organization, role);
      expect((await put(member, 'pets', { source: { text: MINIMAL } })).response.status, `role ${role}`).toBe(403);
    }
    expect((await admin.client.GET('/v1/orgs/{organizationId}/openapi', orgPath(organization.id))).data?.count).toBe(0);
  });

  it('creates the spec when the slug is new, or replaces the source of the existing one (200, pending)', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const cw = createContentWorkspace({ baseUrl: t.url, token: admin.token, throwOnError: true, maxRetries: 0 });
    const created = await cw.openapiSpecs.upsert({ organizationId: organization.id, specSlug: 'pets', body: { source: { text: MINIMAL } } });
    expect(created.response.status).toBe(200);
    expect(created.data).toEqual(expectedSpec(organization.id, 'pets'));
    await processSpec(deps(t), organization.id, created.data.id);

    const url = fixtures.url('/multi/openapi.yaml');
    const replaced = await cw.openapiSpecs.upsert({ organizationId: organization.id, specSlug: 'pets', body: { source: { url } } });
    expect(replaced.data).toEqual(
      expectedSpec(organization.id, 'pets', { id: created.data.id, sourceURL: url, lastVersion: expect.any(String), lastProcessedAt: expect.any(String), createdAt: created.data.createdAt }),
    );
    expect(await processSpec(deps(t), organization.id, created.data.id)).toBe('version');
    expect((await cw.openapiSpecs.versions.list({ organizationId: organization.id, specSlug: 'pets' })).data.count).toBe(2);
  });
});

describe('DELETE /v1/orgs/{organizationId}/openapi/{specSlug}', () => {
  // A stranger's 404 and the 403 below create are the sweep's and the matrix's.
  it('404 for an unknown slug; a refusal below create deletes nothing', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    await createSpec(admin, organization.id, 'pets', { text: MINIMAL });
    expectRefusal(await admin.client.DELETE('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(organization.id, 'dogs')), 404, 'OpenAPI spec not found');
    const editor = await createMember(t, organization, 'edit');
    expect((await editor.client.DELETE('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(organization.id, 'pets'))).response.status).toBe(403);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(organization.id, 'pets'))).response.status).toBe(200);
  });

  it('deletes the spec and its versions (205); the slug is free again', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const created = await createSpec(admin, organization.id, 'pets', { text: MINIMAL });
    await processSpec(deps(t), organization.id, created.id);
    const { response } = await admin.client.DELETE('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(organization.id, 'pets'));
    expect(response.status).toBe(205);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath(organization.id, 'pets'))).response.status).toBe(404);
    expect(await t.db.selectFrom('openapiSpecVersions').select('id').where('specId', '=', created.id).execute()).toEqual([]);
    const again = await createSpec(admin, organization.id, 'pets', { text: MINIMAL });
    expect(again.id).not.toBe(created.id);
  });
});

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
