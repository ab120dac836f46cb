import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { createUser } from '../support/factories.js';

const server = useTestServer();

describe('POST /v1/user/tokens', () => {
  it('400 for a missing label, an unknown field or a past expiry', async () => {
    const alice = await createUser(server());
    const missing = await alice.client.POST('/v1/user/tokens', { body: {} as never });
    expect(missing.response.status).toBe(400);
    expect(missing.error?.error.issues).toEqual([{ path: '/body/label', message: "must have required property 'label'" }]);
    const unknown = await alice.client.POST('/v1/user/tokens', { body: { label: 'x', scope: 'all' } as never });
    expect(unknown.error?.error.issues).toEqual([{ path: '/body/scope', message: 'must NOT have additional properties' }]);
    const past = await alice.client.POST('/v1/user/tokens', { body: { label: 'x', expiresAt: '2020-01-01T00:00:00.000Z' } });
    expect(past.response.status).toBe(400);
    expect(past.error?.error.issues).toEqual([{ path: '/body/expiresAt', message: 'must be in the future' }]);
    const { data } = await alice.client.GET('/v1/user/tokens');
    expect(data?.count).toBe(1); // only the factory's token: nothing was created
  });

  it('creates a token that works, shown once and stored hashed', async () => {
    const t = server();
    const alice = await createUser(t);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const { data, response } = await alice.client.POST('/v1/user/tokens', { body: { label: 'CI', expiresAt } });
    expect(response.status).toBe(201);
    expect(data).toEqual({ object: 'api-token', id: expect.any(String), label: 'CI', createdAt: expect.any(String), expiresAt, token: expect.stringMatching(/^cw_[A-Za-z0-9]{40}$/) });
    const me = await t.client(data!.token).GET('/v1/user');
    expect(me.data?.id).toBe(alice.user.id);
    const stored = await t.db.selectFrom('apiTokens').selectAll().where('id', '=', data!.id).executeTakeFirstOrThrow();
    expect(stored.tokenHash.toString('hex')).not.toContain(data!.token);
    expect(stored.tokenHash).toHaveLength(32);
  });
});

describe('GET /v1/user/tokens', () => {
  it('400 for a bad limit or a forged cursor', async () => {
    const alice = await createUser(server());
    const limit = await alice.client.GET('/v1/user/tokens', { params: { query: { limit: 0 } } });
    expect(limit.error?.error.issues).toEqual([{ path: '/query/limit', message: 'must be >= 1' }]);
    const cursor = await alice.client.GET('/v1/user/tokens', { params: { query: { page: 'eyJ2IjoxfQ.AAAA' } } });
    expect(cursor.response.status).toBe(400);
    expect(cursor.error?.error.message).toBe('Invalid page cursor');
  });

  it('lists only the caller’s tokens, newest first, in pages, without secrets', async () => {
    const t = server();
    const [alice, bob] = [await createUser(t), await createUser(t)];
    for (const label of ['one', 'two', 'three']) await alice.client.POST('/v1/user/tokens', { body: { label } });
    await bob.client.POST('/v1/user/tokens', { body: { label: 'bob' } });

    const first = await alice.client.GET('/v1/user/tokens', { params: { query: { limit: 2 } } });
    expect(first.data).toEqual({
      items: [
        { object: 'api-token', id: expect.any(String), label: 'three', createdAt: expect.any(String) },
        { object: 'api-token', id: expect.any(String), label: 'two', createdAt: expect.any(String) },
      ],
      count: 4,
      next: { page: expect.any(String) },
    });
    const second = await alice.client.GET('/v1/user/tokens', { params: { query: { limit: 2, page: first.data!.next!.page } } });
    expect(second.data?.items.map((token) => token.label)).toEqual(['one', 'test']);
    expect(second.data?.next).toBeUndefined();
    // A cursor of Alice's list is not a cursor of Bob's.
    const foreign = await bob.client.GET('/v1/user/tokens', { params: { query: { page: first.data!.next!.page } } });
    expect(foreign.response.status).toBe(400);
  });
});

describe('DELETE /v1/user/tokens/{tokenId}', () => {
  it('400 for a malformed id', async () => {
    const alice = await createUser(server());
    const { response } = await alice.client.DELETE('/v1/user/tokens/{tokenId}', { params: { path: { tokenId: 'a b' } } });
    expect(response.status).toBe(400);
  });

  it('404 for another user’s token, which keeps working', async () => {
    const t = server();
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const { data } = await bob.client.POST('/v1/user/tokens', { body: { label: 'bob' } });
    const { error, response } = await alice.client.DELETE('/v1/user/tokens/{tokenId}', { params: { path: { tokenId: data!.id } } });
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: { code: 404, message: 'Token not found' } });
    expect((await t.client(data!.token).GET('/v1/user')).response.status).toBe(200);
  });

  it('revokes at once (205, empty body)', async () => {
    const t = server();
    const alice = await createUser(t);
    const { data } = await alice.client.POST('/v1/user/tokens', { body: { label: 'temp' } });
    const { response } = await alice.client.DELETE('/v1/user/tokens/{tokenId}', { params: { path: { tokenId: data!.id } } });
    expect(response.status).toBe(205);
    expect(await response.text()).toBe('');
    expect((await t.client(data!.token).GET('/v1/user')).response.status).toBe(401);
    const again = await alice.client.DELETE('/v1/user/tokens/{tokenId}', { params: { path: { tokenId: data!.id } } });
    expect(again.response.status).toBe(404);
  });
});
