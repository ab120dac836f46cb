// Every write (POST, PUT, PATCH, DELETE) goes out with an `Idempotency-Key`: a new random one per call,
// the same on each of the call's retries, or the caller's own. Reads carry none.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, createContentWorkspace } from '../src/index.js';
import { newIdempotencyKey } from '../src/retry.js';
import { apiError, json, organization, startServer, type TestServer } from './support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  vi.unstubAllGlobals();
  await server?.close();
  server = undefined;
});

const fast = { retryDelayMs: 1, maxRetryDelayMs: 20 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const org = { params: { path: { organizationId: 'o1' } } } as const;
const token = { params: { path: { tokenId: 't1' } } } as const;

/** Answers each method's success (503 to the first `failures` requests). */
function api(failures = 0) {
  return startServer((request, response, index) => {
    if (index < failures) return apiError(response, 503, 'Starting', { 'retry-after': '0' });
    if (request.method === 'DELETE') {
      response.writeHead(205, { 'content-length': '0' });
      return response.end();
    }
    return json(response, request.method === 'POST' ? 201 : 200, organization('o1'));
  });
}

const keys = () => server!.requests.map((request) => request.headers['idempotency-key']);

describe('Idempotency-Key', () => {
  it('goes with every POST, PUT, PATCH and DELETE, a new one per call; GET carries none', async () => {
    server = await api();
    const client = createClient({ baseUrl: server.url });

    await client.GET('/v1/orgs/{organizationId}', org);
    await client.POST('/v1/orgs', { body: { title: 'A' } });
    await client.POST('/v1/orgs', { body: { title: 'A' } });
    await client.PATCH('/v1/orgs/{organizationId}', { ...org, body: { title: 'B' } });
    await client.PUT('/v1/orgs/{organizationId}/teams', { ...org, body: { title: 'Writers' } });
    await client.DELETE('/v1/user/tokens/{tokenId}', token);

    const [read, ...writes] = keys();
    expect(read).toBeUndefined();
    for (const key of writes) expect(key).toMatch(UUID);
    expect(new Set(writes).size).toBe(5);
  });

  it('stays the same across the retries of one call', async () => {
    server = await api(2);
    const client = createClient({ baseUrl: server.url, ...fast });

    const { response } = await client.DELETE('/v1/user/tokens/{tokenId}', token);

    expect(response.status).toBe(205);
    expect(keys()).toHaveLength(3);
    expect(new Set(keys()).size).toBe(1);
  });

  it('is the caller’s own when given: per call, in headers, or as a named operation’s header argument', async () => {
    server = await api(1);
    const client = createClient({ baseUrl: server.url, ...fast });
    const cw = createContentWorkspace({ baseUrl: server.url, ...fast });

    await client.POST('/v1/orgs', { body: { title: 'A' }, idempotencyKey: 'order-1042' });
    await client.PATCH('/v1/orgs/{organizationId}', { ...org, body: { title: 'B' }, headers: { 'idempotency-key': 'from-headers' } });
    await cw.organizations.create({ body: { title: 'C' } }, { idempotencyKey: 'named-1' });
    await cw.organizations.update({ organizationId: 'o1', body: { title: 'D' }, header: { 'Idempotency-Key': 'named-2' } });

    // The first call was answered 503 once: its retry sent the same key.
    expect(keys()).toEqual(['order-1042', 'order-1042', 'from-headers', 'named-1', 'named-2']);
  });

  it('is a version-4 UUID from getRandomValues where randomUUID is missing (browser pages without TLS)', () => {
    const { getRandomValues } = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: getRandomValues.bind(globalThis.crypto) });
    const made = Array.from({ length: 50 }, () => newIdempotencyKey());

    for (const key of made) expect(key).toMatch(UUID);
    expect(new Set(made).size).toBe(50);
  });
});
