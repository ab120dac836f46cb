// Retries when the database is down (503 + Retry-After) and when the connection is reset: before the
// answer, or while its body is being read. Every call is retried: idempotent ones (GET, HEAD, PUT,
// DELETE, OPTIONS) by nature, POST and PATCH because each attempt carries the call's Idempotency-Key.
// Once the retries are spent, a ConnectionError rather than fetch's own error.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, createClient, createContentWorkspace } from '../src/index.js';
import { apiError, json, organization, startServer, type TestServer } from './support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fast = { retryDelayMs: 1, maxRetryDelayMs: 50 };
const get = { params: { path: { organizationId: 'o1' } } } as const;
const gaps = (requests: { at: number }[]) => requests.slice(1).map((request, i) => request.at - requests[i]!.at);

/** An error as Node's fetch reports a reset: `TypeError: fetch failed` (or `terminated`) caused by ECONNRESET. */
function resetError(message = 'fetch failed'): TypeError {
  return new TypeError(message, { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' }) });
}

/** What node:http-based fetch implementations (node-fetch, …) reject with. */
function socketHangUp(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

/** Answers 200 with the start of a JSON body, then resets the connection (TCP RST) before the rest. */
function resetMidBody(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
  response.write('{"object":"organization",');
  setTimeout(() => response.socket?.resetAndDestroy(), 10);
}

/** A fetch that fails the first `failures` calls of each method with `failure()`, then answers 200 (205 for DELETE). */
function flakyFetch(failures: number, failure: () => unknown) {
  const calls: string[] = [];
  const fetch = async (request: Request) => {
    calls.push(request.method);
    if (calls.filter((method) => method === request.method).length <= failures) throw failure();
    if (request.method === 'DELETE') return new Response(null, { status: 205 });
    return Response.json(organization('o1'), { status: request.method === 'PUT' ? 201 : 200 });
  };
  return { fetch, calls };
}

describe('503 with Retry-After (the database is down)', () => {
  it('waits as long as the server asks, then retries a GET', async () => {
    server = await startServer((_request, response, index) =>
      index === 0 ? apiError(response, 503, 'The database is unavailable', { 'retry-after': '1' }) : json(response, 200, organization('o1')),
    );
    const client = createClient({ baseUrl: server.url, retryDelayMs: 1, maxRetryDelayMs: 5_000 });

    const { data, response } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(response.status).toBe(200);
    expect(data?.id).toBe('o1');
    expect(server.requests).toHaveLength(2);
    expect(gaps(server.requests)[0]).toBeGreaterThanOrEqual(990);
  });

  it('retries a POST and a PATCH too, each attempt with its call’s Idempotency-Key', async () => {
    server = await startServer((_request, response) => apiError(response, 503, 'The database is unavailable', { 'retry-after': '0' }));
    const client = createClient({ baseUrl: server.url, ...fast, maxRetries: 1 });

    const posted = await client.POST('/v1/user/tokens', { body: { label: 'x' } });
    const patched = await client.PATCH('/v1/orgs/{organizationId}', { ...get, body: { title: 'New' } });

    expect([posted.response.status, patched.response.status]).toEqual([503, 503]);
    expect(server.requests.map((request) => request.method)).toEqual(['POST', 'POST', 'PATCH', 'PATCH']);
    const keys = server.requests.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).toBe(keys[3]);
    expect(keys[0]).not.toBe(keys[2]);
  });
});

describe('connection resets, injected fetch', () => {
  const failures = {
    '`fetch failed` caused by ECONNRESET': () => resetError(),
    'socket hang up': socketHangUp,
    'a TypeError without a cause': () => new TypeError('Failed to fetch'),
  };

  it.each(Object.entries(failures))('retries GET, PUT and DELETE after %s', async (_name, failure) => {
    const { fetch, calls } = flakyFetch(Number.POSITIVE_INFINITY, failure);
    const client = createClient({ baseUrl: 'http://api.test', fetch, ...fast, maxRetries: 2 });
    const failed = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

    const results = [
      await failed(client.GET('/v1/orgs/{organizationId}', get)),
      await failed(client.PUT('/v1/orgs/{organizationId}/teams', { ...get, body: { title: 'Writers' } })),
      await failed(client.DELETE('/v1/user/tokens/{tokenId}', { params: { path: { tokenId: 't1' } } })),
    ];

    for (const error of results) {
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).cause).toBeInstanceOf(Error);
    }
    expect(calls).toEqual(['GET', 'GET', 'GET', 'PUT', 'PUT', 'PUT', 'DELETE', 'DELETE', 'DELETE']);
  });

  it('resolves to the answer that came after the reset', async () => {
    const { fetch, calls } = flakyFetch(2, resetError);
    const client = createClient({ baseUrl: 'http://api.test', fetch, ...fast, maxRetries: 2 });

    const { data } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(data?.id).toBe('o1');
    expect(calls).toHaveLength(3);
  });

  it('retries POST and PATCH with their key, and rejects with a ConnectionError naming the cause once the retries are spent', async () => {
    const { fetch, calls } = flakyFetch(Number.POSITIVE_INFINITY, resetError);
    const client = createClient({ baseUrl: 'http://api.test', fetch, ...fast, maxRetries: 1 });

    const posted = await client.POST('/v1/user/tokens', { body: { label: 'x' } }).catch((error: unknown) => error);
    const patched = await client.PATCH('/v1/orgs/{organizationId}', { ...get, body: { title: 'x' } }).catch((error: unknown) => error);

    expect(posted).toBeInstanceOf(ConnectionError);
    expect((posted as ConnectionError).message).toBe('POST http://api.test/v1/user/tokens failed: fetch failed (ECONNRESET)');
    expect(patched).toBeInstanceOf(ConnectionError);
    expect(calls).toEqual(['POST', 'POST', 'PATCH', 'PATCH']);
  });

  it('retries a GET whose answer broke off while its body was read', async () => {
    let calls = 0;
    const fetch = async () => {
      calls++;
      if (calls > 1) return Response.json(organization('o1'));
      // The headers arrived; reading the body fails as Node's fetch fails it on a reset.
      const body = new ReadableStream({ pull: (controller) => controller.error(resetError('terminated')) });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const client = createClient({ baseUrl: 'http://api.test', fetch, ...fast });

    const { data } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(data?.id).toBe('o1');
    expect(calls).toBe(2);
  });

  it('passes the same retries to named operations', async () => {
    const { fetch, calls } = flakyFetch(1, socketHangUp);
    const cw = createContentWorkspace({ baseUrl: 'http://api.test', fetch, ...fast, throwOnError: true });

    const { data } = await cw.organizations.get({ organizationId: 'o1' });
    const { data: created } = await cw.organizations.create({ body: { title: 'x' } });

    expect(data.id).toBe('o1');
    expect(created.id).toBe('o1');
    expect(calls).toEqual(['GET', 'GET', 'POST', 'POST']);
  });
});

describe('connection resets, real server', () => {
  it('retries a GET reset (TCP RST) before any answer', async () => {
    server = await startServer((_request, response, index) =>
      index === 0 ? response.socket?.resetAndDestroy() : json(response, 200, organization('o1')),
    );
    const client = createClient({ baseUrl: server.url, ...fast });

    const { data } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(data?.id).toBe('o1');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a GET reset while the body of its answer was being read', async () => {
    server = await startServer((_request, response, index) => (index === 0 ? resetMidBody(response) : json(response, 200, organization('o1'))));
    const client = createClient({ baseUrl: server.url, ...fast });

    const { data } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(data?.id).toBe('o1');
    expect(server.requests).toHaveLength(2);
  });

  it('reports the reset as a ConnectionError once the retries are spent', async () => {
    server = await startServer((_request, response) => resetMidBody(response));
    const client = createClient({ baseUrl: server.url, ...fast, maxRetries: 1 });

    const failure = await client.GET('/v1/orgs/{organizationId}', get).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ConnectionError);
    // Node reports the reset as ECONNRESET, or as the socket closed, depending on timing.
    expect((failure as ConnectionError).message).toMatch(
      new RegExp(`^GET ${server.url}/v1/orgs/o1 failed while reading the answer: terminated \\((ECONNRESET|UND_ERR_SOCKET)\\)$`),
    );
    expect(server.requests).toHaveLength(2);
  });

  it('retries a POST whose answer was reset, with the same key and body', async () => {
    const created = { object: 'api-token', id: 't1', label: 'x', createdAt: '2026-01-01T00:00:00.000Z', token: 'cw_x' };
    server = await startServer((_request, response, index) => (index === 0 ? resetMidBody(response) : json(response, 201, created)));
    const client = createClient({ baseUrl: server.url, ...fast });

    const { data, response } = await client.POST('/v1/user/tokens', { body: { label: 'x' } });

    expect(response.status).toBe(201);
    expect(data).toEqual(created);
    const [first, second] = server.requests;
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    expect(second!.body).toBe(first!.body);
  });
});
