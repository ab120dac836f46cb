import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { VERSION, createClient } from '../src/index.js';
import { apiError, json, organization, startServer, type TestServer } from './support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createClient', () => {
  it('calls the typed path with path parameters, the bearer token and the JSON answer', async () => {
    server = await startServer((_request, response) => json(response, 200, organization('o1')));
    const client = createClient({ baseUrl: server.url, token: 'cw_secret' });

    const { data, error, response } = await client.GET('/v1/orgs/{organizationId}', {
      params: { path: { organizationId: 'o1' } },
    });

    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data).toEqual(organization('o1'));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/v1/orgs/o1' });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer cw_secret');
  });

  it('sends no Authorization header without a token', async () => {
    server = await startServer((_request, response) => apiError(response, 401, 'Missing token'));
    const client = createClient({ baseUrl: server.url });

    await client.GET('/v1/user');

    expect(server.requests[0]?.headers).not.toHaveProperty('authorization');
  });

  it('serializes query parameters and JSON bodies', async () => {
    server = await startServer((request, response) =>
      request.method === 'POST'
        ? json(response, 201, { object: 'api-token', id: 't1', label: 'ci', createdAt: '2026-01-01T00:00:00.000Z', token: 'cw_x' })
        : json(response, 200, { items: [], count: 0 }),
    );
    const client = createClient({ baseUrl: server.url, token: 'cw_secret' });

    await client.GET('/v1/orgs', { params: { query: { limit: 10, page: 'abc' } } });
    const created = await client.POST('/v1/user/tokens', { body: { label: 'ci' } });

    expect(server.requests[0]?.url).toBe('/v1/orgs?limit=10&page=abc');
    expect(server.requests[1]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.requests[1]?.body ?? '')).toEqual({ label: 'ci' });
    expect(created.data?.token).toBe('cw_x');
  });

  it('resolves to { error, response } on an error answer by default', async () => {
    server = await startServer((_request, response) => apiError(response, 404, 'Organization not found'));
    const client = createClient({ baseUrl: server.url, token: 'cw_secret' });

    const { data, error, response } = await client.GET('/v1/orgs/{organizationId}', {
      params: { path: { organizationId: 'nope' } },
    });

    expect(data).toBeUndefined();
    expect(error).toEqual({ error: { code: 404, message: 'Organization not found' } });
    expect(response.status).toBe(404);
  });

  it('resolves a 205 without a body to data undefined', async () => {
    server = await startServer((_request, response) => {
      response.writeHead(205, { 'content-length': '0' });
      response.end();
    });
    const client = createClient({ baseUrl: server.url, token: 'cw_secret', throwOnError: true });

    const { data, response } = await client.DELETE('/v1/user/tokens/{tokenId}', { params: { path: { tokenId: 't1' } } });

    expect(response.status).toBe(205);
    expect(data).toBeUndefined();
  });

  it('names the SDK and its version in the User-Agent, then the caller’s suffix', async () => {
    server = await startServer((_request, response) => json(response, 200, { items: [], count: 0 }));

    await createClient({ baseUrl: server.url }).GET('/v1/orgs');
    await createClient({ baseUrl: server.url, userAgent: 'my-app/1.2.0' }).GET('/v1/orgs');

    expect(server.requests.map((request) => request.headers['user-agent'])).toEqual([
      `content-workspace-sdk/${VERSION}`,
      `content-workspace-sdk/${VERSION} my-app/1.2.0`,
    ]);
  });

  it('keeps VERSION equal to the package version', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(manifest.version);
  });

  it('sends requests through the given fetch', async () => {
    const seen: Request[] = [];
    const client = createClient({
      baseUrl: 'https://api.example.com',
      token: 'cw_secret',
      fetch: async (request) => {
        seen.push(request);
        return Response.json({ items: [], count: 0 });
      },
    });

    const { data } = await client.GET('/v1/user/tokens');

    expect(data).toEqual({ items: [], count: 0 });
    expect(seen.map((request) => request.url)).toEqual(['https://api.example.com/v1/user/tokens']);
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer cw_secret');
  });

  it('runs middleware added with use(), and stops after eject()', async () => {
    server = await startServer((_request, response) => json(response, 200, { items: [], count: 0 }));
    const client = createClient({ baseUrl: server.url });
    const middleware = {
      onRequest({ request }: { request: Request }) {
        request.headers.set('x-trace', 'abc');
        return request;
      },
    };

    client.use(middleware);
    await client.GET('/v1/orgs');
    client.eject(middleware);
    await client.GET('/v1/orgs');

    expect(server.requests.map((request) => request.headers['x-trace'])).toEqual(['abc', undefined]);
  });
});
