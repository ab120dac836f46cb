import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, UnauthorizedError, collect, createClient, paginate } from '../src/index.js';
import { apiError, json, organization, startServer, type TestServer } from './support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * Serves `total` organizations `o0…` in pages of `limit` (default 2, as the query says), with the
 * next page's offset as the cursor, like a keyset cursor the client must pass back untouched.
 */
function listServer(total: number) {
  return startServer((request, response) => {
    const url = new URL(request.url, 'http://x');
    if (url.pathname !== '/v1/orgs') return apiError(response, 404, 'Not found');
    const limit = Number(url.searchParams.get('limit') ?? 2);
    const page = url.searchParams.get('page');
    if (page !== null && !/^cursor-\d+$/.test(page)) return apiError(response, 400, 'Invalid cursor');
    const start = page ? Number(page.slice('cursor-'.length)) : 0;
    const items = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => organization(`o${start + i}`));
    const end = start + items.length;
    json(response, 200, { items, count: total, ...(end < total ? { next: { page: `cursor-${end}` } } : {}) });
  });
}

describe('paginate', () => {
  it('yields every item across several pages, following next.page', async () => {
    server = await listServer(5);
    const client = createClient({ baseUrl: server.url, token: 'cw_x' });

    const ids: string[] = [];
    for await (const org of paginate(client, '/v1/orgs')) ids.push(org.id);

    expect(ids).toEqual(['o0', 'o1', 'o2', 'o3', 'o4']);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v1/orgs',
      '/v1/orgs?page=cursor-2',
      '/v1/orgs?page=cursor-4',
    ]);
  });

  it('keeps the query (limit) on every page and starts from a given page', async () => {
    server = await listServer(7);
    const client = createClient({ baseUrl: server.url, token: 'cw_x' });

    const orgs = await collect(paginate(client, '/v1/orgs', { query: { limit: 3, page: 'cursor-1' } }));

    expect(orgs.map((org) => org.id)).toEqual(['o1', 'o2', 'o3', 'o4', 'o5', 'o6']);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v1/orgs?limit=3&page=cursor-1',
      '/v1/orgs?limit=3&page=cursor-4',
    ]);
  });

  it('makes one request for a single page, and none more for an empty list', async () => {
    server = await listServer(0);
    const client = createClient({ baseUrl: server.url, token: 'cw_x' });

    expect(await collect(paginate(client, '/v1/orgs'))).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('works with a throwing client too', async () => {
    server = await listServer(3);
    const client = createClient({ baseUrl: server.url, token: 'cw_x', throwOnError: true });

    expect(await collect(paginate(client, '/v1/orgs'))).toHaveLength(3);
  });

  it('rejects with the ApiError of a page that fails, after yielding the earlier ones', async () => {
    server = await startServer((request, response) =>
      request.url.includes('page=')
        ? apiError(response, 401, 'Token expired')
        : json(response, 200, { items: [organization('o0')], count: 2, next: { page: 'p2' } }),
    );
    const client = createClient({ baseUrl: server.url, token: 'cw_x' });

    const seen: string[] = [];
    const failure = await (async () => {
      for await (const org of paginate(client, '/v1/orgs')) seen.push(org.id);
    })().catch((error: unknown) => error);

    expect(seen).toEqual(['o0']);
    expect(failure).toBeInstanceOf(UnauthorizedError);
    expect(failure).toMatchObject({ status: 401, message: 'GET /v1/orgs: 401 Unauthorized: Token expired (request req-401)', requestId: 'req-401' });
  });

  it('passes call options (timeout, retries, signal) to each page', async () => {
    server = await startServer((_request, response) => apiError(response, 404, 'Gone'));
    const client = createClient({ baseUrl: server.url, token: 'cw_x' });
    const controller = new AbortController();
    controller.abort();

    await expect(collect(paginate(client, '/v1/user/tokens', {}, { signal: controller.signal }))).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(server.requests).toHaveLength(0);
    await expect(collect(paginate(client, '/v1/user/tokens'))).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('collect', () => {
  it('stops after max items without fetching further pages', async () => {
    server = await listServer(10);
    const client = createClient({ baseUrl: server.url, token: 'cw_x' });

    const orgs = await collect(paginate(client, '/v1/orgs'), 3);

    expect(orgs.map((org) => org.id)).toEqual(['o0', 'o1', 'o2']);
    expect(server.requests).toHaveLength(2);
  });

  it('collects nothing, and fetches nothing, for max 0', async () => {
    server = await listServer(10);
    const client = createClient({ baseUrl: server.url, token: 'cw_x' });

    expect(await collect(paginate(client, '/v1/orgs'), 0)).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});
