// Rate limits (docs/decisions.md "Rate limits", http/rate-limit.ts): per token, per client address for requests without a
// valid token (a spent address is refused before the token lookup), shared by instances on one database,
// with headers.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '@content-workspace/sdk';
import pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import * as tokensRepository from '../../src/auth/tokens.repository.js';
import { SharedCounter } from '../../src/http/rate-limit-store.js';
import { createLogger } from '../../src/logger.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { postHeadersOnly } from '../support/raw-http.js';
import { createUser } from '../support/factories.js';

// A spy on the token lookup (the real function runs): counts the lookups an address pays for.
vi.mock('../../src/auth/tokens.repository.js', async (importOriginal) => {
  const original = await importOriginal<typeof tokensRepository>();
  return { ...original, findTokenWithUser: vi.fn(original.findTokenWithUser) };
});
const lookups = vi.mocked(tokensRepository.findTokenWithUser);

const PER_TOKEN = 5;
const PER_ADDRESS = 3;
// Requests come from 127.0.0.1; trusting it as a proxy lets each test speak for an address of its own.
const env = {
  RATE_LIMIT_ENABLED: 'true',
  RATE_LIMIT_PER_TOKEN: String(PER_TOKEN),
  RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
  RATE_LIMIT_WINDOW_SECONDS: '60',
  TRUST_PROXY: 'loopback',
};

let first: TestServer;
let second: TestServer;
beforeAll(async () => {
  first = await startTestServer({ env });
  second = await startTestServer({ env, sharedWith: first });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

let addresses = 0;
/** An address of the documentation range no other test uses. */
const freshAddress = () => `198.51.100.${++addresses}`;

/** An SDK client whose requests come from `address` (through the trusted proxy header). */
function clientAt(t: TestServer, address: string, token?: string) {
  return createClient({
    baseUrl: t.url,
    maxRetries: 0,
    ...(token ? { token } : {}),
    fetch: (request) => {
      request.headers.set('x-forwarded-for', address);
      return fetch(request);
    },
  });
}

const madeUpToken = () => `cw_${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x').slice(0, 40)}`;
const limitHeaders = (response: Response) => ({
  limit: response.headers.get('x-ratelimit-limit'),
  remaining: response.headers.get('x-ratelimit-remaining'),
  reset: Number(response.headers.get('x-ratelimit-reset')),
  policy: response.headers.get('ratelimit-policy'),
  current: response.headers.get('ratelimit'),
});

describe('per token', () => {
  it('counts down in the headers, then answers 429 with Retry-After in the error shape', async () => {
    const { token } = await createUser(first);
    const client = clientAt(first, freshAddress(), token);
    const started = Date.now() / 1000;
    for (let i = 1; i <= PER_TOKEN; i++) {
      const { response } = await client.GET('/v1/user');
      expect(response.status).toBe(200);
      const headers = limitHeaders(response);
      expect(headers).toMatchObject({ limit: String(PER_TOKEN), remaining: String(PER_TOKEN - i), policy: `"token";q=${PER_TOKEN};w=60` });
      expect(headers.reset).toBeGreaterThanOrEqual(Math.floor(started + 50));
      expect(headers.reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000 + 60));
      expect(headers.current).toMatch(new RegExp(`^"token";r=${PER_TOKEN - i};t=(5\\d|60)$`));
    }
    const { response, error } = await client.GET('/v1/user');
    expect(response.status).toBe(429);
    expect(error).toEqual({ error: { code: 429, message: 'Too many requests' } });
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(50);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limitHeaders(response)).toMatchObject({ limit: String(PER_TOKEN), remaining: '0' });
    expect(limitHeaders(response).current).toMatch(/^"token";r=0;t=(5\d|60)$/);
  });

  it('is the token’s own budget, whatever the address', async () => {
    const one = await createUser(first);
    const other = await createUser(first);
    for (let i = 0; i < PER_TOKEN; i++) expect((await clientAt(first, freshAddress(), one.token).GET('/v1/user')).response.status).toBe(200);
    expect((await clientAt(first, freshAddress(), one.token).GET('/v1/user')).response.status).toBe(429);
    const { response } = await clientAt(first, freshAddress(), other.token).GET('/v1/user');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe(String(PER_TOKEN - 1));
  });

  it('refuses a body over the limit before it is sent', async () => {
    const { token } = await createUser(first);
    const client = clientAt(first, freshAddress(), token);
    for (let i = 0; i < PER_TOKEN; i++) await client.GET('/v1/user');
    const answer = await postHeadersOnly(first.url, '/v1/spaces/aaaaaaaaaaaaaaaaaaaa/content', 19 * 1024 * 1024, { authorization: `Bearer ${token}` });
    expect(answer.status).toBe(429);
    expect(answer.headers.connection).toBe('close');
  });

  it('leaves the health endpoints alone', async () => {
    for (let i = 0; i < PER_ADDRESS + 2; i++) {
      const response = await fetch(`${first.url}/healthz`);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});

describe('per client address', () => {
  it('limits anonymous requests by address', async () => {
    const address = freshAddress();
    for (let i = 1; i <= PER_ADDRESS; i++) {
      const { response } = await clientAt(first, address).GET('/v1/user');
      expect(response.status).toBe(401);
      expect(limitHeaders(response)).toMatchObject({ limit: String(PER_ADDRESS), remaining: String(PER_ADDRESS - i), policy: `"address";q=${PER_ADDRESS};w=60` });
    }
    const { response, error } = await clientAt(first, address).GET('/v1/user');
    expect(response.status).toBe(429);
    expect(error).toEqual({ error: { code: 429, message: 'Too many requests' } });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address has its own budget.
    expect((await clientAt(first, freshAddress()).GET('/v1/user')).response.status).toBe(401);
  });

  it('charges made-up tokens to the address; once it is spent, they cost no lookup', async () => {
    const address = freshAddress();
    const before = lookups.mock.calls.length;
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 10; i++) statuses.push((await clientAt(first, address, madeUpToken()).GET('/v1/user')).response.status);
    expect(statuses).toEqual([...Array(PER_ADDRESS).fill(401), ...Array(10).fill(429)]);
    expect(lookups.mock.calls.length - before).toBe(PER_ADDRESS);
    // Malformed tokens and anonymous requests draw from the same budget.
    expect((await clientAt(first, address).GET('/v1/user')).response.status).toBe(429);
    const malformed = await fetch(`${first.url}/v1/user`, { headers: { authorization: 'Bearer nonsense', 'x-forwarded-for': address } });
    expect(malformed.status).toBe(429);
  });

  it('charges a token its lookup finds to the token only, not to the address', async () => {
    const address = freshAddress();
    const { token } = await createUser(first); // never used: not in the token cache
    const { response } = await clientAt(first, address, token).GET('/v1/user');
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-policy')).toBe(`"token";q=${PER_TOKEN};w=60`);
    const anonymous = await clientAt(first, address).GET('/v1/user');
    expect(anonymous.response.headers.get('x-ratelimit-remaining')).toBe(String(PER_ADDRESS - 1));
  });

  it('counts an IPv6 client by its /64', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= PER_ADDRESS + 1; i++) statuses.push((await clientAt(first, `2001:db8:7:7::${i}`).GET('/v1/user')).response.status);
    expect(statuses).toEqual([...Array(PER_ADDRESS).fill(401), 429]);
    expect((await clientAt(first, '2001:db8:7:8::1').GET('/v1/user')).response.status).toBe(401);
  });
});

describe('two instances on one database', () => {
  it('share one budget', async () => {
    const { token } = await createUser(first);
    const onFirst = clientAt(first, freshAddress(), token);
    const onSecond = clientAt(second, freshAddress(), token);
    let firstReset = 0;
    for (let i = 0; i < 3; i++) {
      const { response } = await onFirst.GET('/v1/user');
      expect(response.status).toBe(200);
      firstReset = Number(response.headers.get('x-ratelimit-reset'));
    }
    await first.context.rateLimits.flush();
    // The second instance opens its window without asking the store (one hit of slack at this limit)…
    expect((await onSecond.GET('/v1/user')).response.status).toBe(200);
    // …and its next hit, near the limit, is decided by the store, which has the first instance's three:
    // the count and the window's end are the store's.
    const { response } = await onSecond.GET('/v1/user');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Math.abs(Number(response.headers.get('x-ratelimit-reset')) - firstReset)).toBeLessThanOrEqual(1);
    expect((await onSecond.GET('/v1/user')).response.status).toBe(429);
    // The first instance learns it at its next write: within the slack (1 hit at this limit), then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await onFirst.GET('/v1/user')).response.status);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(1);
    expect(statuses.at(-1)).toBe(429);
  });

  it('exhausted on one instance, refuse on the other within the slack', async () => {
    const { token } = await createUser(first);
    for (let i = 0; i < PER_TOKEN; i++) expect((await clientAt(first, freshAddress(), token).GET('/v1/user')).response.status).toBe(200);
    // The other instance has not heard this window: it may admit its slack (1 hit here), then the store refuses.
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await clientAt(second, freshAddress(), token).GET('/v1/user')).response.status);
    expect(statuses).toEqual([200, 429]);
  });
});

describe('the in-memory front', () => {
  it('decides requests far from the limit without a store round trip', async () => {
    const roomy = await startTestServer({ env: { ...env, RATE_LIMIT_PER_TOKEN: '400' } });
    const storeCalls = vi.spyOn(RateLimiterPostgres.prototype, 'penalty');
    try {
      const { token } = await createUser(roomy);
      const client = clientAt(roomy, freshAddress(), token);
      expect((await client.GET('/v1/user')).response.status).toBe(200);
      // Not even the window's first hit waits for the store (nor is a token found by its lookup charged to
      // its address).
      for (let i = 0; i < 5; i++) expect((await client.GET('/v1/user')).response.headers.get('x-ratelimit-remaining')).toBe(String(398 - i));
      expect(storeCalls).not.toHaveBeenCalled();
      // The hits reach the store in the background, for every instance to see.
      await roomy.context.rateLimits.flush();
      const row = await roomy.db.selectFrom('rateLimits').select('points').where('key', 'like', 'token:%').executeTakeFirstOrThrow();
      expect(row.points).toBe(6);
    } finally {
      storeCalls.mockRestore();
      await roomy.close();
    }
  });
});

describe('background writes', () => {
  it('write a quiet key every few seconds, and at once a key with half its slack unwritten or a window not confirmed', async () => {
    // The library's store is not reached at this limit (far from it): a pool that connects nowhere.
    const unused = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    const counter = new SharedCounter('background', 400, 60_000, first.db, unused, createLogger({ logLevel: 'silent' })); // slack 10
    const written = async () =>
      (await first.db.selectFrom('rateLimits').select('points').where('key', '=', 'background:k').executeTakeFirst())?.points ?? 0;
    try {
      counter.hit('k');
      await counter.flushInBackground();
      expect(await written()).toBe(1); // the window is not confirmed by the store yet: written at once
      for (let i = 0; i < 4; i++) counter.hit('k');
      await counter.flushInBackground();
      expect(await written()).toBe(1); // four unwritten, under half the slack: they wait
      counter.hit('k');
      await counter.flushInBackground();
      expect(await written()).toBe(6); // five: due
      counter.hit('k');
      await counter.flush(); // shutdown writes everything
      expect(await written()).toBe(7);
    } finally {
      await unused.end();
    }
  });
});

describe('the window', () => {
  let short: TestServer;
  beforeAll(async () => {
    short = await startTestServer({ env: { ...env, RATE_LIMIT_PER_TOKEN: '2', RATE_LIMIT_WINDOW_SECONDS: '1' } });
  });
  afterAll(async () => {
    await short?.close();
  });

  it('resets: the budget is whole again after X-RateLimit-Reset', async () => {
    const { token } = await createUser(short);
    const client = clientAt(short, freshAddress(), token);
    // Two pass, the third is refused (on a busy machine a window may end between them: then the next
    // window's third is).
    const statuses: number[] = [];
    let refused;
    while (!refused && statuses.length < 12) {
      const answer = await client.GET('/v1/user');
      statuses.push(answer.response.status);
      if (answer.response.status === 429) refused = answer;
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(refused?.response.status).toBe(429);
    const reset = Number(refused!.response.headers.get('x-ratelimit-reset'));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, reset * 1000 - Date.now()) + 50));
    const { response } = await client.GET('/v1/user');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(reset);
  });
});

describe('turned off', () => {
  it('sends no rate-limit headers and never refuses', async () => {
    const off = await startTestServer(); // the harness's default
    try {
      const { token } = await createUser(off);
      for (let i = 0; i < PER_TOKEN + 2; i++) {
        const { response } = await off.client(token).GET('/v1/user');
        expect(response.status).toBe(200);
        expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      }
    } finally {
      await off.close();
    }
  });
});
