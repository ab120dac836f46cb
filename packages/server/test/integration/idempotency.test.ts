// Idempotent writes (src/http/idempotency.ts) on a real server and database, through the SDK: a key
// replays its first success and runs nothing again, answers 409 while its first request runs and 422
// for another request; errors and 5xx are not kept; keys belong to their token; a DELETE is replayed
// after its success removed what it deleted; a write with a body meets the access checks again.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '@content-workspace/sdk';
import { handlers } from '../../src/areas/index.js';
import type { Caller } from '../../src/auth/authenticate.js';
import { createIdempotency } from '../../src/http/idempotency.js';
import { purgeIdempotencyKeysWorker } from '../../src/http/idempotency-purge.job.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createCollection, createMember, createOrganizationWithAdmin, createSpace, createUser, grant } from '../support/factories.js';

/** createSpace fails with a 500 while `failing` is set, before it runs (a fault injected around the real handler). */
let failing = false;
const server = useTestServer({
  handlers: {
    ...handlers,
    async createSpace(input) {
      if (failing) throw new Error('injected failure');
      return handlers.createSpace(input);
    },
  },
});
afterEach(() => {
  failing = false;
});

const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const spacePath = (spaceId: string) => ({ params: { path: { spaceId } } });

async function keyRow(t: TestServer, key: string) {
  return t.db.selectFrom('idempotencyKeys').selectAll().where('key', '=', key).executeTakeFirst();
}

async function spaceTitles(t: TestServer, organizationId: string): Promise<string[]> {
  const rows = await t.db.selectFrom('spaces').select('title').where('organizationId', '=', organizationId).where('deletedAt', 'is', null).orderBy('title').execute();
  return rows.map((row) => row.title);
}

/** A connection of the test's own to the server's database, e.g. to hold a lock that makes a request wait. */
async function connect(t: TestServer): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: t.databaseUrl });
  await client.connect();
  return client;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  for (const started = Date.now(); !(await check()); ) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a write sent again with its Idempotency-Key', () => {
  it('is answered with its first answer, marked as a replay, and runs once; the answer was stored before it was sent', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const key = randomUUID();
    const send = () => admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: 'Handbook' }, idempotencyKey: key });

    const first = await send();
    expect(first.response.status).toBe(201);
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    // The client has the answer: the key holds it already, on every instance.
    expect(await keyRow(t, key)).toMatchObject({ status: 201, leaseId: null, lockedUntil: null, operation: 'POST /v1/orgs/{organizationId}/spaces' });

    const second = await send();
    expect(second.response.status).toBe(201);
    expect(second.response.headers.get('idempotent-replayed')).toBe('true');
    expect(second.response.headers.get('content-type')).toBe(first.response.headers.get('content-type'));
    // Its own request id and rate-limit headers: only the answer is replayed.
    expect(second.response.headers.get('x-request-id')).not.toBe(first.response.headers.get('x-request-id'));
    expect(second.data).toEqual(first.data);
    expect(await spaceTitles(t, organization.id)).toEqual(['Handbook']);
    // The request is compared by its digest; the table keeps no copy of it.
    expect((await keyRow(t, key))!.fingerprint).toHaveLength(32);
  });

  it('422 for the same key with another body, another path or another operation; nothing runs', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { title: 'Existing' });
    const key = randomUUID();
    expect((await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: 'First' }, idempotencyKey: key })).response.status).toBe(201);

    const otherBody = await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: 'Second' }, idempotencyKey: key });
    expect(otherBody.response.status).toBe(422);
    expect(otherBody.response.headers.get('idempotency-key-status')).toBe('mismatch');
    expect(otherBody.error).toEqual({
      error: {
        code: 422,
        message:
          'This Idempotency-Key was used with another request (POST /v1/orgs/{organizationId}/spaces, or other parameters or body) in the last 24 hours; send a new key with a new request',
      },
    });
    const otherOperation = await admin.client.PATCH('/v1/spaces/{spaceId}', { ...spacePath(space.id), body: { title: 'Renamed' }, idempotencyKey: key });
    expect(otherOperation.response.status).toBe(422);
    const otherDelete = await admin.client.DELETE('/v1/spaces/{spaceId}', { ...spacePath(space.id), idempotencyKey: key });
    expect(otherDelete.response.status).toBe(422);
    expect(await spaceTitles(t, organization.id)).toEqual(['Existing', 'First']);
  });

  it('409 while the first request runs (Idempotency-Key-Status: in-progress, Retry-After), then the replay', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const key = randomUUID();
    const send = () => admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: 'Slow' }, idempotencyKey: key });
    // Inserting a space waits for this lock (reads do not): the first request holds its key meanwhile.
    const locker = await connect(t);
    let first: ReturnType<typeof send> | undefined;
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE spaces IN EXCLUSIVE MODE');
      first = send();
      await waitFor(async () => (await keyRow(t, key))?.leaseId != null, 'the first request to claim its key');

      const second = await send();
      expect(second.response.status).toBe(409);
      expect(second.response.headers.get('idempotency-key-status')).toBe('in-progress');
      expect(second.response.headers.get('retry-after')).toBe('1');
      expect(second.error?.error.message).toBe('A request with this Idempotency-Key is still running; retry once it has been answered');
    } finally {
      await locker.query('COMMIT');
      await locker.end();
    }
    const answered = await first!;
    expect(answered.response.status).toBe(201);
    const third = await send();
    expect(third.response.headers.get('idempotent-replayed')).toBe('true');
    expect(third.data).toEqual(answered.data);
    expect(await spaceTitles(t, organization.id)).toEqual(['Slow']);
  });

  it('belongs to its token: another token’s request with the same key runs on its own', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const colleague = await createMember(t, organization, 'admin');
    const key = randomUUID();
    const body = { title: 'Same key' };
    const mine = await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body, idempotencyKey: key });
    const theirs = await colleague.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body, idempotencyKey: key });

    expect(theirs.response.status).toBe(201);
    expect(theirs.response.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.data!.id).not.toBe(mine.data!.id);
    expect(await spaceTitles(t, organization.id)).toEqual(['Same key', 'Same key']);
  });

  it('after an error runs again: a 403 is not kept, and the same request succeeds once the role is granted', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const collection = await createCollection(t, admin, organization);
    const writer = await createMember(t, organization, 'read');
    await grant(t, { kind: 'collection', item: collection }, { user: writer }, 'edit');
    const key = randomUUID();
    const send = () => writer.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: 'Draft', parent: collection.id }, idempotencyKey: key });

    // The parent's rule (create on the collection) is decided after the key was claimed.
    expect((await send()).response.status).toBe(403);
    expect(await keyRow(t, key)).toBeUndefined();

    await grant(t, { kind: 'collection', item: collection }, { user: writer }, 'create');
    const granted = await send();
    expect(granted.response.status).toBe(201);
    expect(granted.response.headers.get('idempotent-replayed')).toBeNull();
    expect(await spaceTitles(t, organization.id)).toEqual(['Draft']);
  });

  it('after a 5xx runs again: a failure is never kept', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const key = randomUUID();
    const send = () => admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: 'After a failure' }, idempotencyKey: key });

    failing = true;
    expect((await send()).response.status).toBe(500);
    expect(await keyRow(t, key)).toBeUndefined();
    failing = false;
    const retried = await send();
    expect(retried.response.status).toBe(201);
    expect(retried.response.headers.get('idempotent-replayed')).toBeNull();
    expect(await spaceTitles(t, organization.id)).toEqual(['After a failure']);
  });

  it('meets the access checks again when it has a body: a token that lost its role gets 403, not the replay', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { title: 'Before' });
    const editor = await createMember(t, organization, 'read');
    await grant(t, { kind: 'space', item: space }, { user: editor }, 'admin');
    const key = randomUUID();
    const send = () => editor.client.PATCH('/v1/spaces/{spaceId}', { ...spacePath(space.id), body: { title: 'After' }, idempotencyKey: key });

    const first = await send();
    expect(first.response.status).toBe(200);
    await grant(t, { kind: 'space', item: space }, { user: editor }, 'read');
    const refused = await send();
    expect(refused.response.status).toBe(403);
    expect(refused.response.headers.get('idempotent-replayed')).toBeNull();

    await grant(t, { kind: 'space', item: space }, { user: editor }, 'admin');
    const replayed = await send();
    expect(replayed.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.data).toEqual(first.data);
  });

  it('a DELETE is replayed although what it deleted is gone (205, not 404); without the key, 404', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const key = randomUUID();
    const remove = (idempotencyKey?: string) => admin.client.DELETE('/v1/spaces/{spaceId}', { ...spacePath(space.id), ...(idempotencyKey ? { idempotencyKey } : { headers: { 'Idempotency-Key': randomUUID() } }) });

    const first = await remove(key);
    expect(first.response.status).toBe(205);
    const again = await remove(key);
    expect(again.response.status).toBe(205);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.response.text()).toBe('');
    expect((await remove()).response.status).toBe(404);
  });

  it('a running request whose lease ran out (its process died) leaves the key to a retry, whose answer it cannot overwrite', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const key = randomUUID();
    const send = () => admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: 'Taken over' }, idempotencyKey: key });
    const locker = await connect(t);
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE spaces IN EXCLUSIVE MODE');
      const first = send();
      await waitFor(async () => (await keyRow(t, key))?.leaseId != null, 'the first request to claim its key');
      const firstLease = (await keyRow(t, key))!.leaseId;
      // As if its process had died: the lease is past and nobody renews it.
      await sql`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = ${key}`.execute(t.db);
      const retry = send();
      await waitFor(async () => ![firstLease, null].includes((await keyRow(t, key))!.leaseId), 'the retry to take the key over');
      await locker.query('COMMIT');
      const [a, b] = await Promise.all([first, retry]);
      // Both ran: the first one's process was alive after all (which is why a running request renews its
      // lease). It finished without the key, so the key holds the retry's answer.
      expect([a.response.status, b.response.status]).toEqual([201, 201]);
      const replay = await send();
      expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.data).toEqual(b.data);
    } finally {
      await locker.end().catch(() => {});
    }
  });

  it('a running request renews its lease: a retry meanwhile gets 409 however long it runs', async () => {
    const t = server();
    const someone = await createUser(t);
    const { id: tokenId } = await t.db.selectFrom('apiTokens').select('id').where('userId', '=', someone.user.id).executeTakeFirstOrThrow();
    // The middleware with a one-second lease (renewed every third of it), before a handler that waits.
    const idempotency = createIdempotency(t.context, { leaseSeconds: 1 });
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const app = express();
    app.use((req, _res, next) => {
      req.caller = { tokenId } as Caller;
      next();
    });
    app.use(idempotency.beforeHandler);
    app.post('/slow', async (_req, res) => {
      await finished;
      res.status(201).json({ done: true });
    });
    const listening = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    const url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/slow`;
    const key = randomUUID();
    const post = () => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });
    try {
      const first = post();
      await waitFor(async () => (await keyRow(t, key))?.leaseId != null, 'the first request to claim its key');
      const claimedUntil = (await keyRow(t, key))!.lockedUntil!;
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect((await keyRow(t, key))!.lockedUntil!.getTime()).toBeGreaterThan(claimedUntil.getTime() + 1_000);
      expect((await post()).status).toBe(409);
      finish();
      expect((await first).status).toBe(201);
      const replay = await post();
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await replay.json()).toEqual({ done: true });
    } finally {
      finish();
      listening.close();
    }
  });

  it('past 24 hours counts as new', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const key = randomUUID();
    const send = () => admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: 'Daily' }, idempotencyKey: key });
    expect((await send()).response.status).toBe(201);
    await sql`UPDATE idempotency_keys SET created_at = created_at - interval '25 hours', expires_at = expires_at - interval '25 hours' WHERE key = ${key}`.execute(t.db);

    const later = await send();
    expect(later.response.status).toBe(201);
    expect(later.response.headers.get('idempotent-replayed')).toBeNull();
    expect(await spaceTitles(t, organization.id)).toEqual(['Daily', 'Daily']);
  });

  it('a large body is compared by its digest: a 6 MB content batch replays, one changed byte is a 422', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const base64 = Buffer.alloc(4.5 * 1024 * 1024, 7).toString('base64');
    const key = randomUUID();
    const send = (name: string) =>
      admin.client.POST('/v1/spaces/{spaceId}/content', {
        ...spacePath(space.id),
        body: { changes: [{ type: 'insert_file', ref: 'f', name, contentType: 'application/octet-stream', base64 }] },
        idempotencyKey: key,
      });

    const first = await send('a.bin');
    expect(first.response.status, JSON.stringify(first.error)).toBe(200);
    const again = await send('a.bin');
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data).toEqual(first.data);
    expect((await send('b.bin')).response.status).toBe(422);
    const revisions = await t.db.selectFrom('revisions').select('id').where('spaceId', '=', space.id).execute();
    expect(revisions).toHaveLength(2); // the space's first revision and the batch's
  });

  it('is not looked at on a read, nor on a write without a token', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const key = randomUUID();
    const read = await admin.client.GET('/v1/spaces/{spaceId}', { ...spacePath(space.id), headers: { 'Idempotency-Key': key } });
    expect(read.response.status).toBe(200);
    const anonymous = await createClient({ baseUrl: t.url, maxRetries: 0 }).POST('/v1/orgs', { body: { title: 'x' }, idempotencyKey: key });
    expect(anonymous.response.status).toBe(401);
    expect(await keyRow(t, key)).toBeUndefined();
  });

  it('400 for a malformed key, on a write with a body and on a DELETE', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    for (const key of ['', 'has space', 'x'.repeat(256), 'é']) {
      const created = await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: {}, headers: { 'Idempotency-Key': key } });
      expect(created.response.status, JSON.stringify(key)).toBe(400);
      expect(created.error?.error.issues?.map((issue) => issue.path)).toEqual(expect.arrayContaining(['/headers/idempotency-key']));
      expect(new Set(created.error?.error.issues?.map((issue) => issue.path))).toEqual(new Set(['/headers/idempotency-key']));
      const deleted = await admin.client.DELETE('/v1/spaces/{spaceId}', { ...spacePath(space.id), headers: { 'Idempotency-Key': key } });
      expect(deleted.response.status, JSON.stringify(key)).toBe(400);
    }
    expect(await spaceTitles(t, organization.id)).toHaveLength(1);
  });
});

describe('the SDK over a lost answer', () => {
  it('retries a POST whose answer never arrived with the same key: one space, the first answer', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    let attempts = 0;
    const client = createClient({
      baseUrl: t.url,
      token: admin.token,
      retryDelayMs: 1,
      // The server answers the first attempt, but the answer is lost on the way back.
      fetch: async (request) => {
        const response = await fetch(request);
        if (++attempts === 1) {
          await response.arrayBuffer();
          throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
        }
        return response;
      },
    });

    const { data, response } = await client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: 'Once' } });

    expect(attempts).toBe(2);
    expect(response.status).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(data?.title).toBe('Once');
    expect(await spaceTitles(t, organization.id)).toEqual(['Once']);
  });
});

describe('purge-idempotency-keys', () => {
  it('removes the keys over 24 hours old and keeps the others', async () => {
    const t = server();
    const someone = await createUser(t);
    const { id: tokenId } = await t.db.selectFrom('apiTokens').select('id').where('userId', '=', someone.user.id).executeTakeFirstOrThrow();
    const row = (key: string, hoursAgo: number) => ({
      tokenId,
      key,
      fingerprint: Buffer.alloc(32),
      operation: 'POST /v1/orgs',
      status: 201,
      headers: '[]',
      createdAt: new Date(Date.now() - hoursAgo * 3_600_000),
      expiresAt: new Date(Date.now() - (hoursAgo - 24) * 3_600_000),
    });
    await t.db.insertInto('idempotencyKeys').values([row('old-1', 25), row('old-2', 48), row('recent', 23)]).execute();

    await purgeIdempotencyKeysWorker(t.db).handle({});

    const left = await t.db.selectFrom('idempotencyKeys').select('key').where('tokenId', '=', tokenId).execute();
    expect(left).toEqual([{ key: 'recent' }]);
  });

  it('goes with its token', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const key = randomUUID();
    await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: {}, idempotencyKey: key });
    await t.db.deleteFrom('apiTokens').where('userId', '=', admin.user.id).execute();
    expect(await keyRow(t, key)).toBeUndefined();
  });
});
