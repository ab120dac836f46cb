import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { addMember, createOrganization, createUser } from '../support/factories.js';

const server = useTestServer();

describe('GET /v1/user', () => {
  it('401 with an unknown, malformed or expired token', async () => {
    const t = server();
    for (const [token, message] of [
      ['cw_doesnotexist', 'Invalid bearer token'],
      ['not-a-token', 'Malformed bearer token'],
    ] as const) {
      const { error, response } = await t.client(token).GET('/v1/user');
      expect(response.status).toBe(401);
      expect(error?.error.message).toBe(message);
    }
    const alice = await createUser(t);
    const { data: created } = await alice.client.POST('/v1/user/tokens', {
      body: { label: 'short-lived', expiresAt: new Date(Date.now() + 60_000).toISOString() },
    });
    await t.db.updateTable('apiTokens').set({ expiresAt: new Date(Date.now() - 1000) }).where('id', '=', created!.id).execute();
    const { error, response } = await t.client(created!.token).GET('/v1/user');
    expect(response.status).toBe(401);
    expect(error?.error.message).toBe('Expired bearer token');
  });

  it('answers the token holder', async () => {
    const t = server();
    const alice = await createUser(t, { email: 'alice@example.com', name: 'Alice' });
    const { data, response } = await alice.client.GET('/v1/user');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
    expect(data).toEqual({
      object: 'user',
      id: alice.user.id,
      displayName: 'Alice',
      email: 'alice@example.com',
      urls: { location: `http://api.test/v1/users/${alice.user.id}` },
    });
  });
});

describe('GET /v1/users/{userId}', () => {
  it('400 for a malformed id', async () => {
    const alice = await createUser(server());
    const { error, response } = await alice.client.GET('/v1/users/{userId}', { params: { path: { userId: 'bad id!' } } });
    expect(response.status).toBe(400);
    expect(error?.error.issues).toEqual([{ path: '/path/userId', message: expect.stringContaining('pattern') }]);
  });

  it('404 for a user who shares no organization with the caller', async () => {
    const t = server();
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const { error, response } = await alice.client.GET('/v1/users/{userId}', { params: { path: { userId: bob.user.id } } });
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: { code: 404, message: 'User not found' } });
  });

  it('reads a fellow member, guests included', async () => {
    const t = server();
    const [alice, bob] = [await createUser(t), await createUser(t, { name: 'Bob' })];
    const organization = await createOrganization(t, alice);
    await addMember(t, organization, bob, null);
    const { data } = await alice.client.GET('/v1/users/{userId}', { params: { path: { userId: bob.user.id } } });
    expect(data).toEqual({
      object: 'user',
      id: bob.user.id,
      displayName: 'Bob',
      email: bob.user.email,
      urls: { location: `http://api.test/v1/users/${bob.user.id}` },
    });
    const { data: self } = await bob.client.GET('/v1/users/{userId}', { params: { path: { userId: bob.user.id } } });
    expect(self?.id).toBe(bob.user.id);
  });
});
