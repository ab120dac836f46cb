// OpenAPI processing through the job queue (pg-boss, as in production): a create or a PUT answers at
// once with `pending`; the worker moves the spec to `progress`, then to `complete`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { createOrganizationWithAdmin, type TestUser } from '../support/factories.js';
import { startFixtureServer, type FixtureServer } from '../support/openapi-fixtures.js';

const server = useTestServer({ env: { JOBS_ENABLED: 'true' } });
let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures.close();
});

const MINIMAL = 'openapi: 3.1.0\ninfo: {title: Pets, version: 1.0.0}\npaths: {}\n';

async function stateOf(admin: TestUser, organizationId: string, specSlug: string) {
  const { data } = await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', { params: { path: { organizationId, specSlug } } });
  return data!;
}

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('OpenAPI processing as a job', () => {
  it('pending → progress → complete with a version; a PUT of the same source runs it again', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    fixtures.set('/queued.yaml', MINIMAL);
    const hold = fixtures.hold('/queued.yaml');
    const { data: created, response } = await admin.client.POST('/v1/orgs/{organizationId}/openapi', {
      params: { path: { organizationId: organization.id } },
      body: { slug: 'queued', source: { url: fixtures.url('/queued.yaml') } },
    });
    expect(response.status).toBe(201);
    expect(created?.processingState).toBe('pending');

    // The worker fetches the source: the spec is in progress while the fixture holds the answer.
    await waitFor(() => hold.waiting() === 1);
    expect((await stateOf(admin, organization.id, 'queued')).processingState).toBe('progress');
    hold.release();
    await waitFor(async () => (await stateOf(admin, organization.id, 'queued')).processingState === 'complete');
    const complete = await stateOf(admin, organization.id, 'queued');
    expect(complete).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String), lastProcessedAt: expect.any(String) });
    expect(complete.lastProcessErrorCode).toBeUndefined();

    const put = await admin.client.PUT('/v1/orgs/{organizationId}/openapi/{specSlug}', {
      params: { path: { organizationId: organization.id, specSlug: 'queued' } },
      body: { source: { url: fixtures.url('/queued.yaml') } },
    });
    expect(put.data?.processingState).toBe('pending');
    await waitFor(async () => {
      const spec = await stateOf(admin, organization.id, 'queued');
      return spec.processingState === 'complete' && spec.lastProcessedAt !== complete.lastProcessedAt;
    });
    expect((await stateOf(admin, organization.id, 'queued')).lastVersion).toBe(complete.lastVersion);
    expect(fixtures.hits('/queued.yaml')).toBe(2);
  });

  it('a failure ends complete with its code', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    await admin.client.POST('/v1/orgs/{organizationId}/openapi', {
      params: { path: { organizationId: organization.id } },
      body: { slug: 'broken', source: { url: fixtures.url('/fail') } },
    });
    await waitFor(async () => (await stateOf(admin, organization.id, 'broken')).processingState === 'complete');
    expect(await stateOf(admin, organization.id, 'broken')).toMatchObject({
      processingState: 'complete',
      lastProcessErrorCode: 'FETCH_ERROR',
      lastProcessErrors: [{ message: `${fixtures.url('/fail')}: the server answered 500`, location: fixtures.url('/fail') }],
    });
  });
});
