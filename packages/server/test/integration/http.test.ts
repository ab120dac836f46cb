// Cross-cutting HTTP behaviour: request ids, security and CORS headers, preflights, health, metrics.
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace, createUser } from '../support/factories.js';
import { openUpload, postHeadersOnly } from '../support/raw-http.js';
import { edit } from '../support/content.js';
import { CACHE_BUDGETS } from '../../src/caches.js';

const APP_ORIGIN = 'https://app.example.com';
const server = useTestServer({ env: { CORS_ORIGINS: `${APP_ORIGIN}, http://localhost:5173` } });

describe('every response', () => {
  it('carries a request id (the caller’s when well-formed) and the API security headers', async () => {
    const t = server();
    const mine = await fetch(`${t.url}/v1/user`, { headers: { 'x-request-id': 'trace-123' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-123');
    const made = await fetch(`${t.url}/v1/user`, { headers: { 'x-request-id': 'not valid!' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    for (const response of [mine, made]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      // Not called from a page: no CORS headers.
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('compresses large answers for clients that accept it', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    for (let i = 0; i < 12; i++) await createSpace(t, admin, organization);
    const url = `${t.url}/v1/orgs/${organization.id}/spaces`;
    const gzip = await fetch(url, { headers: { authorization: `Bearer ${admin.token}`, 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(((await gzip.json()) as { count: number }).count).toBe(12);
  });
});

describe('CORS (CORS_ORIGINS)', () => {
  const preflight = (origin: string) =>
    fetch(`${server().url}/v1/orgs`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, idempotency-key' },
    });

  it('answers the preflights of a listed origin without a token, never allowing credentials', async () => {
    const response = await preflight(APP_ORIGIN);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Authorization.*Idempotency-Key/);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it('refuses the preflight of an origin it does not list with a 403 naming the setting', async () => {
    for (const origin of ['https://evil.example', 'https://app.example.com.evil.example', 'null', 'https://APP.example.com']) {
      const response = await preflight(origin);
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain('CORS_ORIGINS');
    }
  });

  it('lets a listed origin read the answer and its request-id, rate-limit and idempotency headers', async () => {
    const t = server();
    const ada = await createUser(t);
    const listed = await fetch(`${t.url}/v1/user`, { headers: { origin: 'http://localhost:5173', authorization: `Bearer ${ada.token}` } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const exposed = listed.headers.get('access-control-expose-headers')!.split(', ');
    expect(exposed).toEqual(expect.arrayContaining(['X-Request-Id', 'Retry-After', 'Idempotent-Replayed', 'Idempotency-Key-Status', 'RateLimit']));
    expect(listed.headers.get('vary')).toContain('Origin');

    // Served (the token decides), but without the header a browser needs to hand the answer to the page.
    const other = await fetch(`${t.url}/v1/user`, { headers: { origin: 'https://evil.example', authorization: `Bearer ${ada.token}` } });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('access-control-expose-headers')).toBeNull();
  });
});

describe('request bodies', () => {
  it('refuses a large content batch or import without a valid token before its body is sent', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer cw_madeUpToken00000000000000000000000000' }];
    for (const [path, headers] of ['content', 'content/import'].flatMap((route) => attempts.map((h) => [route, h] as const))) {
      const answer = await postHeadersOnly(t.url, `/v1/spaces/${space.id}/${path}`, 19 * 1024 * 1024, headers);
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer');
      expect(answer.headers.connection).toBe('close');
    }
  });
  it('decides a large upload’s target and the caller’s access before reading it: 404 for a stranger, 403 for a reader, 400 for a malformed id', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { defaultLevel: 'read' });
    const stranger = await createUser(t);
    const reader = await createMember(t, organization, 'read');
    const cases = [
      { token: stranger.token, path: `/v1/spaces/${space.id}/content`, status: 404 },
      { token: reader.token, path: `/v1/spaces/${space.id}/content`, status: 403 },
      { token: reader.token, path: `/v1/spaces/${space.id}/content/import`, status: 403 },
      { token: admin.token, path: `/v1/spaces/no-such-space-0000000000/content`, status: 404 },
      { token: admin.token, path: '/v1/spaces/bad%20id!/content', status: 400 },
    ];
    for (const { token, path, status } of cases) {
      const answer = await postHeadersOnly(t.url, path, 19 * 1024 * 1024, { authorization: `Bearer ${token}` });
      expect(answer.status, path).toBe(status);
      expect(answer.headers.connection, path).toBe('close');
    }
  });

  it('reads only a few large bodies at once: past the cap, a 503 to retry, before the body is read', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const cap = t.config.largeBodyConcurrency;
    // `cap` uploads that announce a body and never finish sending it hold every slot.
    const held = Array.from({ length: cap }, () => openUpload(t.url, `/v1/spaces/${space.id}/content`, admin.token));
    await Promise.all(held.map((upload) => upload.started));
    // Once every slot is taken (the held uploads passed their access checks: the gauge says so), the
    // next upload is refused at once, before its body is sent.
    const reading = async () => Number(/^http_large_bodies_reading (\d+)$/m.exec(await (await fetch(`${t.url}/metrics`)).text())?.[1]);
    await expect.poll(reading, { timeout: 30_000 }).toBe(cap);
    const refused = await postHeadersOnly(t.url, `/v1/spaces/${space.id}/content`, 5 * 1024 * 1024, { authorization: `Bearer ${admin.token}` }, 30_000);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers.connection).toBe('close');
    for (const upload of held) upload.abort();
    // The slots free up as the held uploads end.
    await expect.poll(async () => (await admin.client.POST('/v1/spaces/{spaceId}/content', { params: { path: { spaceId: space.id } }, body: { changes: [{ type: 'insert_page', title: 'After the uploads' }] } })).response.status).toBe(200);
  });
});

describe('operations endpoints', () => {
  it('healthz, readyz and metrics (durations labelled by the spec path, never by ids)', async () => {
    const t = server();
    expect(await (await fetch(`${t.url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${t.url}/readyz`)).json()).toEqual({ status: 'ready' });
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toContain('http_request_duration_seconds_count{method="GET",route="/v1/spaces/{spaceId}",status="200"}');
    expect(metrics).not.toContain(space.id);
  });

  it('metrics show every in-memory cache: bytes, budget, entries, hits and misses', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    await edit(admin, space.id, [{ type: 'insert_page', title: 'Home', markdown: 'Welcome' }]);
    const scrape = async () => await (await fetch(`${t.url}/metrics`)).text();
    const value = (text: string, metric: string, cache: string) => Number(new RegExp(`^${metric}\\{cache="${cache}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    const before = await scrape();
    for (const cache of Object.keys(CACHE_BUDGETS)) {
      expect(value(before, 'cache_max_bytes', cache), cache).toBeGreaterThan(0);
      expect(value(before, 'cache_entries', cache), cache).toBeGreaterThanOrEqual(0);
    }
    for (let i = 0; i < 2; i++) await admin.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId: space.id } } });
    const after = await scrape();
    expect(value(after, 'cache_entries', 'trees')).toBeGreaterThan(0);
    expect(value(after, 'cache_bytes', 'trees')).toBeGreaterThan(0);
    expect(value(after, 'cache_hits_total', 'trees')).toBeGreaterThan(value(before, 'cache_hits_total', 'trees'));
    expect(value(after, 'cache_misses_total', 'trees')).toBeGreaterThanOrEqual(0);
  });
});
