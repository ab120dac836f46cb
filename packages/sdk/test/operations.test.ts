import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, NotFoundError, collect, createContentWorkspace, paginate } from '../src/index.js';
import { operationRoutes } from '../src/generated/operations.js';
import { apiError, json, organization, space, startServer, type TestServer } from './support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers every request with `body` (200), and records it. */
async function answering(body: unknown = {}) {
  server = await startServer((_request, response) => json(response, 200, body));
  return server;
}

describe('named operations', () => {
  it('put path parameters in the path, query in the query string, and send no body without one', async () => {
    const { url, requests } = await answering(space('s 1', 'Guides', 'o1'));
    const cw = createContentWorkspace({ baseUrl: url, token: 'cw_x' });

    const { data } = await cw.spaces.get({ spaceId: 's 1', query: { shareKey: 'k/1' } });

    expect(data?.title).toBe('Guides');
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/v1/spaces/s%201?shareKey=k%2F1', body: '' });
    expect(requests[0]?.headers.authorization).toBe('Bearer cw_x');
  });

  it('send the body as JSON next to several path parameters', async () => {
    const { url, requests } = await answering({ revision: 'r2', result: 'merge', conflicts: [] });
    const cw = createContentWorkspace({ baseUrl: url });

    await cw.changeRequests.update({ spaceId: 's1', changeRequestId: '7', body: { subject: 'New subject' } });
    const { data } = await cw.changeRequests.merge({ spaceId: 's1', changeRequestId: '7' });

    expect(data?.result).toBe('merge');
    expect(requests.map((request) => `${request.method} ${request.url} ${request.body}`)).toEqual([
      'PATCH /v1/spaces/s1/change-requests/7 {"subject":"New subject"}',
      'POST /v1/spaces/s1/change-requests/7/merge ',
    ]);
    expect(requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('take call options second: headers, parseAs, retries and a signal', async () => {
    let calls = 0;
    server = await startServer((_request, response) => (++calls === 1 ? apiError(response, 503, 'Starting') : json(response, 200, { ok: 1 })));
    const cw = createContentWorkspace({ baseUrl: server.url, retryDelayMs: 1, maxRetries: 0 });

    const { data } = await cw.users.getCurrent({}, { headers: { 'x-trace': 't1' }, parseAs: 'text', maxRetries: 1 });
    const aborted = await cw.users.getCurrent({}, { signal: AbortSignal.abort(new Error('stop')) }).catch((error: Error) => error.message);

    expect(data).toBe('{"ok":1}');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers['x-trace']).toBe('t1');
    expect(aborted).toBe('stop');
  });

  it('resolve to { error } by default and reject with the ApiError subclass with throwOnError', async () => {
    server = await startServer((_request, response) => apiError(response, 404, 'Space not found'));

    const quiet = await createContentWorkspace({ baseUrl: server.url }).spaces.get({ spaceId: 'x' });
    const thrown = await createContentWorkspace({ baseUrl: server.url, throwOnError: true })
      .spaces.get({ spaceId: 'x' })
      .catch((error: unknown) => error);

    expect(quiet.error).toEqual({ error: { code: 404, message: 'Space not found' } });
    expect(thrown).toBeInstanceOf(NotFoundError);
  });

  it('go through cw.client, so its middleware applies', async () => {
    const { url, requests } = await answering(organization('o1'));
    const cw = createContentWorkspace({ baseUrl: url });
    cw.client.use({ onRequest: ({ request }) => (request.headers.set('x-from', 'middleware'), request) });

    await cw.organizations.get({ organizationId: 'o1' });
    await cw.client.GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: 'o1' } } });

    expect(requests.map((request) => [request.url, request.headers['x-from']])).toEqual([
      ['/v1/orgs/o1', 'middleware'],
      ['/v1/orgs/o1', 'middleware'],
    ]);
  });

  it('name their method and path', () => {
    const cw = createContentWorkspace({ baseUrl: 'http://api.test' });
    expect([cw.changeRequests.merge.method, cw.changeRequests.merge.path]).toEqual(['POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge']);
    expect([cw.spaces.get.method, cw.spaces.get.path]).toEqual(['GET', '/v1/spaces/{spaceId}']);
  });
});

describe('paginate over a named operation', () => {
  /** Pages of two spaces out of five, for any organization; `page` is an offset. */
  async function pagedSpaces() {
    server = await startServer((request, response) => {
      const url = new URL(request.url, 'http://x');
      const start = Number(url.searchParams.get('page') ?? 0);
      const items = [1, 2, 3, 4, 5].slice(start, start + 2).map((n) => space(`s${n}`, `Space ${n}`, 'o1'));
      json(response, 200, { items, count: 5, ...(start + 2 < 5 ? { next: { page: String(start + 2) } } : {}) });
    });
    return server;
  }

  it('follows the pages with the path parameters and the query of the first call', async () => {
    const { url, requests } = await pagedSpaces();
    const cw = createContentWorkspace({ baseUrl: url });

    const ids = (await collect(paginate(cw.spaces.list, { organizationId: 'o1', query: { limit: 2 } }))).map((s) => s.id);

    expect(ids).toEqual(['s1', 's2', 's3', 's4', 's5']);
    expect(requests.map((request) => request.url)).toEqual([
      '/v1/orgs/o1/spaces?limit=2',
      '/v1/orgs/o1/spaces?limit=2&page=2',
      '/v1/orgs/o1/spaces?limit=2&page=4',
    ]);
  });

  it('starts at query.page, stops fetching when iteration stops, and passes the call options', async () => {
    const { url, requests } = await pagedSpaces();
    const cw = createContentWorkspace({ baseUrl: url, throwOnError: true });

    const first = await collect(paginate(cw.spaces.list, { organizationId: 'o1', query: { page: '2' } }, { timeoutMs: 5_000 }), 1);

    expect(first.map((s) => s.id)).toEqual(['s3']);
    expect(requests.map((request) => request.url)).toEqual(['/v1/orgs/o1/spaces?page=2']);
  });

  it('rejects with an ApiError when a page fails, whatever the client', async () => {
    server = await startServer((_request, response) => apiError(response, 404, 'Organization not found'));
    const cw = createContentWorkspace({ baseUrl: server.url });

    const failure = await collect(paginate(cw.spaces.list, { organizationId: 'x' })).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(404);
  });
});

describe('the generated operations', () => {
  const spec = JSON.parse(readFileSync(new URL('../../contract/openapi.json', import.meta.url), 'utf8'));

  it('have one method for each operation of the spec, with its method and path', () => {
    const fromSpec = Object.entries(spec.paths as Record<string, Record<string, { operationId?: string }>>)
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method, operation]) => operation?.operationId && method !== 'parameters')
          .map(([method]) => `${method.toUpperCase()} ${path}`),
      )
      .sort();
    const routes = (group: object): string[] => Object.values(group).flatMap((value) => (typeof value === 'string' ? [value] : routes(value)));
    const generated = routes(operationRoutes).sort();
    expect(generated).toEqual(fromSpec);
  });

  it('are named as the contract declares (x-sdk-name), nested groups included', () => {
    expect(operationRoutes.changeRequests.merge).toBe('POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge');
    expect(operationRoutes.changeRequests.comments.list).toBe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments');
    expect(operationRoutes.spaces.comments.replies.create).toBe('POST /v1/spaces/{spaceId}/comments/{commentId}/replies');
  });
});
