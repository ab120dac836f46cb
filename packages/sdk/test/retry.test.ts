import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, RateLimitError, createClient } from '../src/index.js';
import { parseRetryAfter, retryDelay } from '../src/retry.js';
import { apiError, closedPortUrl, json, organization, startServer, type TestServer } from './support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fast = { retryDelayMs: 1, maxRetryDelayMs: 50 };
const gaps = (requests: { at: number }[]) => requests.slice(1).map((request, i) => request.at - requests[i]!.at);

/** Answers `status` to the first `failures` requests, then 200. */
function failingThenOk(failures: number, status: number, headers: Record<string, string> = {}) {
  return startServer((request, response, index) => {
    if (index < failures) return apiError(response, status, 'Try again later', headers);
    if (request.method === 'POST') {
      return json(response, 201, { object: 'api-token', id: 't1', label: 'x', createdAt: '2026-01-01T00:00:00.000Z', token: 'cw_x' });
    }
    if (request.method === 'DELETE') {
      response.writeHead(205, { 'content-length': '0' });
      return response.end();
    }
    return json(response, 200, organization('o1'));
  });
}

const get = { params: { path: { organizationId: 'o1' } } } as const;

describe('retries', () => {
  it('retries a GET after 503 and 429 and resolves to the answer that succeeded', async () => {
    server = await failingThenOk(2, 503);
    const client = createClient({ baseUrl: server.url, ...fast });

    const { data, response } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(response.status).toBe(200);
    expect(data?.id).toBe('o1');
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after maxRetries and answers the last error', async () => {
    server = await failingThenOk(10, 429);
    const client = createClient({ baseUrl: server.url, maxRetries: 3, ...fast });

    const { error, response } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(response.status).toBe(429);
    expect(error).toEqual({ error: { code: 429, message: 'Try again later' } });
    expect(server.requests).toHaveLength(4);
  });

  it('sends once with maxRetries 0, on the client or on the call', async () => {
    server = await failingThenOk(10, 503);

    await createClient({ baseUrl: server.url, maxRetries: 0 }).GET('/v1/orgs/{organizationId}', get);
    expect(server.requests).toHaveLength(1);

    await createClient({ baseUrl: server.url, ...fast }).GET('/v1/orgs/{organizationId}', { ...get, maxRetries: 0 });
    expect(server.requests).toHaveLength(2);
  });

  it('retries the other idempotent methods (PUT, DELETE) too', async () => {
    server = await failingThenOk(1, 503);
    const client = createClient({ baseUrl: server.url, ...fast });

    const { response } = await client.DELETE('/v1/user/tokens/{tokenId}', { params: { path: { tokenId: 't1' } } });

    expect(response.status).toBe(205);
    expect(server.requests.map((request) => request.method)).toEqual(['DELETE', 'DELETE']);
  });

  it('retries POST and PATCH too: each attempt carries its call’s Idempotency-Key', async () => {
    server = await failingThenOk(2, 503);
    const client = createClient({ baseUrl: server.url, ...fast });

    const posted = await client.POST('/v1/user/tokens', { body: { label: 'x' } });

    expect(posted.response.status).toBe(201);
    expect(server.requests.map((request) => request.method)).toEqual(['POST', 'POST', 'POST']);
    expect(new Set(server.requests.map((request) => request.headers['idempotency-key'])).size).toBe(1);
  });

  it.each([408, 500, 502, 504])('retries a %i', async (status) => {
    server = await failingThenOk(1, status);
    const client = createClient({ baseUrl: server.url, ...fast });

    const { response } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it.each([400, 403, 404, 412, 422])('does not retry a %i: the same call would get it again', async (status) => {
    server = await failingThenOk(10, status);
    const client = createClient({ baseUrl: server.url, ...fast });

    const { response } = await client.POST('/v1/user/tokens', { body: { label: 'x' } });

    expect(response.status).toBe(status);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 409 only when its key is in progress, not a conflict with the state', async () => {
    server = await failingThenOk(1, 409, { 'idempotency-key-status': 'in-progress', 'retry-after': '0' });
    const client = createClient({ baseUrl: server.url, ...fast });
    const { response } = await client.POST('/v1/user/tokens', { body: { label: 'x' } });
    expect(response.status).toBe(201);
    expect(server.requests).toHaveLength(2);
    await server.close();

    server = await failingThenOk(10, 409);
    const conflict = await createClient({ baseUrl: server.url, ...fast }).POST('/v1/user/tokens', { body: { label: 'x' } });
    expect(conflict.response.status).toBe(409);
    expect(server.requests).toHaveLength(1);
  });

  it('waits longer before each retry (exponential backoff)', async () => {
    server = await failingThenOk(3, 503);
    const client = createClient({ baseUrl: server.url, retryDelayMs: 40, maxRetries: 3 });

    await client.GET('/v1/orgs/{organizationId}', get);

    // Equal jitter: each wait is between half and all of 40, 80, 160 ms.
    const [first, second, third] = gaps(server.requests);
    expect(first).toBeGreaterThanOrEqual(19);
    expect(second).toBeGreaterThanOrEqual(39);
    expect(third).toBeGreaterThanOrEqual(79);
    expect(first! + second! + third!).toBeLessThan(2_000);
  });

  it('honours Retry-After over its own backoff', async () => {
    server = await failingThenOk(1, 429, { 'retry-after': '1' });
    const client = createClient({ baseUrl: server.url, retryDelayMs: 1, maxRetryDelayMs: 5_000 });

    const { response } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(response.status).toBe(200);
    expect(gaps(server.requests)[0]).toBeGreaterThanOrEqual(990);
  });

  it('caps Retry-After at maxRetryDelayMs', async () => {
    server = await failingThenOk(1, 503, { 'retry-after': '120' });
    const client = createClient({ baseUrl: server.url, retryDelayMs: 1, maxRetryDelayMs: 100 });

    const started = performance.now();
    const { response } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(response.status).toBe(200);
    expect(gaps(server.requests)[0]).toBeGreaterThanOrEqual(99);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('retries a GET whose connection was dropped, then throws ConnectionError', async () => {
    server = await startServer((_request, response, index) =>
      index < 1 ? response.socket?.destroy() : json(response, 200, organization('o1')),
    );
    const client = createClient({ baseUrl: server.url, ...fast });

    const { data } = await client.GET('/v1/orgs/{organizationId}', get);
    expect(data?.id).toBe('o1');
    expect(server.requests).toHaveLength(2);

    const dead = createClient({ baseUrl: await closedPortUrl(), ...fast, maxRetries: 2 });
    const failure = await dead.GET('/v1/orgs/{organizationId}', get).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConnectionError);
    expect((failure as ConnectionError).message).toMatch(/ECONNREFUSED/);
    expect((failure as ConnectionError).cause).toBeInstanceOf(Error);
  });

  it('counts the attempts on a refused connection', async () => {
    let attempts = 0;
    const url = await closedPortUrl();
    const client = createClient({
      baseUrl: url,
      ...fast,
      maxRetries: 2,
      fetch: (request) => {
        attempts++;
        return fetch(request);
      },
    });

    await expect(client.GET('/v1/user')).rejects.toBeInstanceOf(ConnectionError);
    expect(attempts).toBe(3);
  });

  it('retries a POST whose connection was dropped, with the same key', async () => {
    server = await startServer((_request, response) => response.socket?.destroy());
    const client = createClient({ baseUrl: server.url, ...fast });

    await expect(client.POST('/v1/user/tokens', { body: { label: 'x' } })).rejects.toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(3);
    expect(new Set(server.requests.map((request) => request.headers['idempotency-key'])).size).toBe(1);
  });

  it('throws RateLimitError with the Retry-After of the last answer in throwing mode', async () => {
    server = await failingThenOk(10, 429, { 'retry-after': '0' });
    const client = createClient({ baseUrl: server.url, throwOnError: true, maxRetries: 1, ...fast });

    const failure = await client.GET('/v1/orgs/{organizationId}', get).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(RateLimitError);
    expect((failure as RateLimitError).retryAfterMs).toBe(0);
    expect(server.requests).toHaveLength(2);
  });
});

describe('retryDelay', () => {
  const policy = { maxRetries: 5, retryDelayMs: 100, maxRetryDelayMs: 1_000 };

  it('doubles the delay at each attempt, between half and all of it', () => {
    expect([0, 1, 2].map((attempt) => retryDelay(attempt, undefined, policy, () => 0))).toEqual([50, 100, 200]);
    expect([0, 1, 2].map((attempt) => retryDelay(attempt, undefined, policy, () => 1))).toEqual([100, 200, 400]);
  });

  it('caps the delay', () => {
    expect(retryDelay(10, undefined, policy, () => 1)).toBe(1_000);
  });

  it('prefers Retry-After, capped', () => {
    const asking = (value: string) => new Response(null, { status: 429, headers: { 'retry-after': value } });
    expect(retryDelay(0, asking('0'), policy, () => 1)).toBe(0);
    expect(retryDelay(0, asking('0.5'), policy, () => 1)).toBe(100); // not a valid delay: backoff
    expect(retryDelay(0, asking('3600'), policy, () => 1)).toBe(1_000);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('0.5')).toBeUndefined();
    expect(parseRetryAfter(new Date(Date.now() - 60_000).toUTCString())).toBe(0);
    const inAMinute = parseRetryAfter(new Date(Date.now() + 60_000).toUTCString());
    expect(inAMinute).toBeGreaterThan(58_000);
    expect(inAMinute).toBeLessThanOrEqual(60_000);
  });
});
