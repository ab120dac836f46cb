// Token lookups are cached per instance; every change to a token reaches every instance at once
// through a notification, so a revoked token stops working everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@content-workspace/sdk';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { useTestServer } from '../support/harness.js';
import { createUser } from '../support/factories.js';

const server = useTestServer();
let second: RunningServer;

beforeAll(async () => {
  // A second instance on the same database, as behind a load balancer.
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', JOBS_ENABLED: 'false', BOOTSTRAP_DEMO: 'false', DB_POOL_SIZE: '2' });
  second = await startServer(config, createLogger(config), { databaseUrl: server().databaseUrl, migrate: false });
});
afterAll(async () => {
  await second?.close();
});

async function until(condition: () => Promise<boolean>, ms = 3000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

describe('token cache', () => {
  it('a revoked token fails at once on this instance and within moments on another', async () => {
    const t = server();
    const alice = await createUser(t);
    const { data: token } = await alice.client.POST('/v1/user/tokens', { body: { label: 'cached' } });
    const here = t.client(token!.token);
    const there = createClient({ baseUrl: second.url, token: token!.token, maxRetries: 0 });
    // Both instances have now looked it up (and cached it).
    expect((await here.GET('/v1/user')).response.status).toBe(200);
    expect((await there.GET('/v1/user')).response.status).toBe(200);
    expect((await here.GET('/v1/user')).response.status).toBe(200);

    await alice.client.DELETE('/v1/user/tokens/{tokenId}', { params: { path: { tokenId: token!.id } } });
    expect((await here.GET('/v1/user')).response.status).toBe(401);
    expect(await until(async () => (await there.GET('/v1/user')).response.status === 401)).toBe(true);
  });

  it('a token deleted in the database (say, with its user) stops working on every instance', async () => {
    const t = server();
    const bob = await createUser(t);
    const there = createClient({ baseUrl: second.url, token: bob.token, maxRetries: 0 });
    expect((await there.GET('/v1/user')).response.status).toBe(200);
    expect((await bob.client.GET('/v1/user')).response.status).toBe(200);
    await t.db.deleteFrom('users').where('id', '=', bob.user.id).execute();
    expect(await until(async () => (await there.GET('/v1/user')).response.status === 401)).toBe(true);
    expect(await until(async () => (await bob.client.GET('/v1/user')).response.status === 401)).toBe(true);
  });

  it('a changed user is read again', async () => {
    const t = server();
    const carol = await createUser(t, { name: 'Carol' });
    expect((await carol.client.GET('/v1/user')).data?.displayName).toBe('Carol');
    await t.db.updateTable('users').set({ displayName: 'Caroline' }).where('id', '=', carol.user.id).execute();
    expect(await until(async () => (await carol.client.GET('/v1/user')).data?.displayName === 'Caroline')).toBe(true);
  });
});
