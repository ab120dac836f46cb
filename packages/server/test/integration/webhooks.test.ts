// Webhooks: CRUD and its rules, then delivery to a real receiver over HTTP — signed as Standard
// Webhooks says (checked with its published verifier, the npm package `standardwebhooks`), filtered,
// logged, retried, redelivered, pinged, rotated, through the outbound guard — and a receiver that is
// down, then up, getting everything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, useTestServer, type TestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace, type TestUser } from '../support/factories.js';
import { bodies, startReceiver, type Delivery, type Receiver } from '../support/webhook-receiver.js';

// A timeout generous enough for a loaded machine: an answer that comes after it is sent again (at least once).
const server = useTestServer({ env: { JOBS_ENABLED: 'true', WEBHOOK_RETRY_SCHEDULE: '300ms,300ms', WEBHOOK_TIMEOUT_MS: '4000' } });

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.stop();
});

const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const hookPath = (organizationId: string, webhookId: string) => ({ params: { path: { organizationId, webhookId } } });

async function createHook(admin: TestUser, organizationId: string, body: Record<string, unknown>) {
  const { data, error, response } = await admin.client.POST('/v1/orgs/{organizationId}/webhooks', { ...orgPath(organizationId), body: { url: receiver.url, ...body } as never });
  if (!data) throw new Error(`createHook: ${response.status} ${JSON.stringify(error)}`);
  return data;
}

/** Deliveries of `organizationId`'s events that the receiver got. */
const ofOrganization = (organizationId: string) => (received: Delivery[]) => received.filter((delivery) => JSON.parse(delivery.body).organization === organizationId);

async function deliveries(admin: TestUser, organizationId: string, webhookId: string) {
  return (await admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries', hookPath(organizationId, webhookId))).data!.items;
}

/** The instance's count of delivery attempts with `outcome`, from `GET /metrics`. */
async function attemptsCounted(t: TestServer, outcome: 'succeeded' | 'failed'): Promise<number> {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`webhook_delivery_attempts_total{outcome="${outcome}"}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

/** Polls the delivery log until `predicate` holds. */
async function logUntil(admin: TestUser, organizationId: string, webhookId: string, predicate: (items: Awaited<ReturnType<typeof deliveries>>) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await deliveries(admin, organizationId, webhookId);
    if (predicate(items)) return items;
    if (Date.now() > deadline) throw new Error(`the delivery log did not reach the expected state: ${JSON.stringify(items, null, 1).slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('webhook CRUD', () => {
  it('400 for a bad address, unknown event types, unknown fields; 404 for a space of another organization', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const other = await createOrganizationWithAdmin(t);
    const foreign = await createSpace(t, other.admin, other.organization);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: 'ftp://hooks.example.com/' }, '/body/url'],
      [{ url: 'https://user:password@hooks.example.com/' }, '/body/url'],
      [{ url: 'https://hooks.example.com/', eventTypes: ['space.exploded'] }, '/body/eventTypes/0'],
      [{ url: 'https://hooks.example.com/', eventTypes: [] }, '/body/eventTypes'],
      [{ url: 'https://hooks.example.com/', description: 'x'.repeat(501) }, '/body/description'],
      [{ url: 'https://hooks.example.com/', secret: 'whsec_mine' }, '/body'],
    ];
    for (const [body, path] of cases) {
      const { response, error } = await admin.client.POST('/v1/orgs/{organizationId}/webhooks', { ...orgPath(organization.id), body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.[0]?.path).toContain(path);
    }
    const foreignSpace = await admin.client.POST('/v1/orgs/{organizationId}/webhooks', { ...orgPath(organization.id), body: { url: 'https://hooks.example.com/', spaces: [foreign.id] } });
    expect(foreignSpace.response.status).toBe(404);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/webhooks', orgPath(organization.id))).data?.count).toBe(0);
  });

  it('403 for a member who is not an admin; 404 across organizations', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const hook = await createHook(admin, organization.id, {});
    const member = await createMember(t, organization, 'create');
    expect((await member.client.GET('/v1/orgs/{organizationId}/webhooks', orgPath(organization.id))).response.status).toBe(403);
    expect((await member.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', hookPath(organization.id, hook.id))).response.status).toBe(403);
    const other = await createOrganizationWithAdmin(t);
    for (const call of [
      () => other.admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}', hookPath(other.organization.id, hook.id)),
      () => other.admin.client.PATCH('/v1/orgs/{organizationId}/webhooks/{webhookId}', { ...hookPath(other.organization.id, hook.id), body: { enabled: false } }),
      () => other.admin.client.DELETE('/v1/orgs/{organizationId}/webhooks/{webhookId}', hookPath(other.organization.id, hook.id)),
      () => other.admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/secret', { ...hookPath(other.organization.id, hook.id), body: {} }),
      () => other.admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries', hookPath(other.organization.id, hook.id)),
    ]) {
      expect((await call()).response.status).toBe(404);
    }
    expect((await admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}', hookPath(organization.id, hook.id))).data?.description).toBe('');
  });

  it('creates with the secret shown once, reads, lists, changes, deletes; at most 50 per organization', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const created = await createHook(admin, organization.id, { description: 'Search index', eventTypes: ['space.content-updated'], spaces: [space.id], enabled: false });
    const location = `http://api.test/v1/orgs/${organization.id}/webhooks/${created.id}`;
    const expected = {
      object: 'webhook',
      id: created.id,
      url: receiver.url,
      description: 'Search index',
      enabled: false,
      eventTypes: ['space.content-updated'],
      spaces: [space.id],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      urls: { location, deliveries: `${location}/deliveries` },
    };
    expect(created).toEqual({ ...expected, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
    const read = (await admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}', hookPath(organization.id, created.id))).data;
    expect(read).toEqual(expected);
    // Stored sealed: the secret's bytes are nowhere in the row.
    const row = await t.db.selectFrom('webhooks').select('secret').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.secret.includes(Buffer.from(created.secret.slice(6), 'base64'))).toBe(false);
    expect(row.secret.toString('latin1')).not.toContain(created.secret);

    const patched = await admin.client.PATCH('/v1/orgs/{organizationId}/webhooks/{webhookId}', { ...hookPath(organization.id, created.id), body: { eventTypes: null, spaces: null, enabled: true } });
    expect(patched.data).toEqual({ ...expected, eventTypes: null, spaces: null, enabled: true });
    expect((await admin.client.PATCH('/v1/orgs/{organizationId}/webhooks/{webhookId}', { ...hookPath(organization.id, created.id), body: {} })).response.status).toBe(400);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/webhooks', orgPath(organization.id))).data).toEqual({ items: [patched.data], count: 1 });

    for (let i = 1; i < 50; i++) await createHook(admin, organization.id, { url: `https://hooks.example.com/${i}`, enabled: false });
    expect((await admin.client.POST('/v1/orgs/{organizationId}/webhooks', { ...orgPath(organization.id), body: { url: 'https://hooks.example.com/51' } })).response.status).toBe(409);
    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/webhooks/{webhookId}', hookPath(organization.id, created.id))).response.status).toBe(205);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}', hookPath(organization.id, created.id))).response.status).toBe(404);
  });
});

describe('delivery', () => {
  it('sends each event signed so that the Standard Webhooks verifier accepts it, the body being the event as the API returns it', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const hook = await createHook(admin, organization.id, {});
    const { data: space } = await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: 'Signed' } });
    const [delivery] = ofOrganization(organization.id)(await receiver.waitFor((received) => ofOrganization(organization.id)(received).length >= 1));
    const verified = new Webhook(hook.secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as { id: string; type: string };
    const { data: event } = await admin.client.GET('/v1/orgs/{organizationId}/events/{eventId}', { params: { path: { organizationId: organization.id, eventId: verified.id } } });
    expect(verified).toEqual(event);
    expect(event).toMatchObject({ type: 'space.created', space: space!.id, data: { object: { id: space!.id, title: 'Signed' } } });
    expect(delivery!.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': event!.id, 'webhook-timestamp': expect.stringMatching(/^\d{10}$/) });
    expect(Math.abs(Number(delivery!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    // Another secret, or a changed body or id, is refused by the verifier.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(delivery!.body, delivery!.headers as Record<string, string>)).toThrow(/No matching signature/);
    expect(() => new Webhook(hook.secret).verify(delivery!.body.replace('Signed', 'Forged'), delivery!.headers as Record<string, string>)).toThrow(/No matching signature/);

    const log = await logUntil(admin, organization.id, hook.id, (items) => items[0]?.status === 'succeeded');
    expect(log).toEqual([
      {
        object: 'webhook-delivery',
        id: expect.any(String),
        webhook: hook.id,
        event: event!.id,
        eventType: 'space.created',
        status: 'succeeded',
        attempts: [{ attempt: 1, startedAt: expect.any(String), durationMs: expect.any(Number), statusCode: 200, response: '' }],
        createdAt: expect.any(String),
        urls: {
          location: `http://api.test/v1/orgs/${organization.id}/webhooks/${hook.id}/deliveries/${log[0]!.id}`,
          event: `http://api.test/v1/orgs/${organization.id}/events/${event!.id}`,
        },
      },
    ]);
    const one = await admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{webhookDeliveryId}', { params: { path: { organizationId: organization.id, webhookId: hook.id, webhookDeliveryId: log[0]!.id } } });
    expect(one.data).toEqual(log[0]);
  });

  it('sends only the subscribed types and spaces; nothing to a disabled webhook; a ping to its webhook whatever it subscribes to', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const watched = await createSpace(t, admin, organization);
    const ignored = await createSpace(t, admin, organization);
    const filtered = await createHook(admin, organization.id, { eventTypes: ['space.updated'], spaces: [watched.id] });
    const disabled = await createHook(admin, organization.id, { enabled: false });
    for (const space of [watched, ignored]) await admin.client.PATCH('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } }, body: { title: `Renamed ${space.id}` } });
    await admin.client.POST('/v1/orgs/{organizationId}/collections', { ...orgPath(organization.id), body: { title: 'Not about a space' } });
    const ping = await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', hookPath(organization.id, filtered.id));
    expect(ping.response.status).toBe(202);
    expect(ping.data).toMatchObject({ object: 'webhook-delivery', webhook: filtered.id, eventType: 'webhook.ping', status: 'pending', attempts: [] });
    const pingDisabled = await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', hookPath(organization.id, disabled.id));
    const received = await receiver.waitFor((all) => ofOrganization(organization.id)(all).length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // anything more would have come by now
    // Once per event (a receiver dedupes by webhook-id: a delivery answered late may come again).
    const mine = [...new Map(ofOrganization(organization.id)(received).map((delivery) => [delivery.headers['webhook-id'], delivery])).values()];
    const types = bodies(mine).map((event) => `${event.type}`);
    expect(types.sort()).toEqual(['space.updated', 'webhook.ping', 'webhook.ping']);
    const updated = bodies<{ space: string }>(ofOrganization(organization.id)(received)).find((event) => (event as unknown as { type: string }).type === 'space.updated');
    expect(updated?.space).toBe(watched.id);
    expect((await deliveries(admin, organization.id, disabled.id)).map((delivery) => delivery.id)).toEqual([pingDisabled.data!.id]);
  });

  it('logs failed attempts (status, the first 1,024 bytes), retries on the schedule, ends failed; a redelivery starts over; redirects are not followed', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const hook = await createHook(admin, organization.id, { eventTypes: ['webhook.ping'] });
    const mine = (delivery: Delivery) => JSON.parse(delivery.body).organization === organization.id;
    const countedBefore = { failed: await attemptsCounted(t, 'failed'), succeeded: await attemptsCounted(t, 'succeeded') };
    receiver.answer((delivery) => (mine(delivery) ? { status: 503, body: 'é'.repeat(2000) } : {}));
    const { data: ping } = await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', hookPath(organization.id, hook.id));
    // The first attempt and two retries (300 ms apart), then failed.
    const [failed] = await logUntil(admin, organization.id, hook.id, (items) => items[0]?.status === 'failed');
    expect(failed!.attempts.map((attempt) => [attempt.attempt, attempt.statusCode, attempt.error])).toEqual([
      [1, 503, 'the receiver answered 503'],
      [2, 503, 'the receiver answered 503'],
      [3, 503, 'the receiver answered 503'],
    ]);
    expect(Buffer.byteLength(failed!.attempts[0]!.response!)).toBeLessThanOrEqual(1024);
    expect(failed!.attempts[0]!.response).toMatch(/^é+/);
    const times = failed!.attempts.map((attempt) => Date.parse(attempt.startedAt));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(250);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}', hookPath(organization.id, hook.id))).data?.failingSince).toEqual(expect.any(String));

    // A redirect is an answer, not a way elsewhere.
    receiver.answer((delivery) => (mine(delivery) ? { status: 307, headers: { location: `${receiver.url}/elsewhere` } } : {}));
    const redelivered = await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{webhookDeliveryId}/redeliver', {
      params: { path: { organizationId: organization.id, webhookId: hook.id, webhookDeliveryId: ping!.id } },
    });
    expect(redelivered.response.status).toBe(202);
    expect(redelivered.data?.status).toBe('pending');
    const [redirected] = await logUntil(admin, organization.id, hook.id, (items) => items[0]?.status === 'failed' && items[0].attempts.length === 6);
    expect(redirected!.attempts[3]).toMatchObject({ attempt: 4, statusCode: 307, error: 'the receiver answered 307: redirects are not followed' });
    expect(receiver.received.some((delivery) => delivery.path.endsWith('/elsewhere'))).toBe(false);

    receiver.answer({ status: 204 });
    await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{webhookDeliveryId}/redeliver', {
      params: { path: { organizationId: organization.id, webhookId: hook.id, webhookDeliveryId: ping!.id } },
    });
    const [succeeded] = await logUntil(admin, organization.id, hook.id, (items) => items[0]?.status === 'succeeded');
    expect(succeeded!.attempts.at(-1)).toMatchObject({ attempt: 7, statusCode: 204 });
    // Six failed attempts and one that succeeded, counted in /metrics (other tests' deliveries may add theirs).
    expect(await attemptsCounted(t, 'failed')).toBeGreaterThanOrEqual(countedBefore.failed + 6);
    expect(await attemptsCounted(t, 'succeeded')).toBeGreaterThanOrEqual(countedBefore.succeeded + 1);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}', hookPath(organization.id, hook.id))).data?.failingSince).toBeUndefined();
    receiver.answer({});
  });

  it('gives up on a receiver slower than the timeout; reads at most 1,024 bytes of a large answer', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const hook = await createHook(admin, organization.id, { eventTypes: ['webhook.ping'] });
    const mine = (delivery: Delivery) => JSON.parse(delivery.body).organization === organization.id;
    receiver.answer((delivery) => (mine(delivery) ? { delayMs: 8000 } : {}));
    await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', hookPath(organization.id, hook.id));
    const [slow] = await logUntil(admin, organization.id, hook.id, (items) => (items[0]?.attempts.length ?? 0) >= 1);
    expect(slow!.attempts[0]).toMatchObject({ error: 'no complete answer within 4000 ms' });
    expect(slow!.attempts[0]!.durationMs).toBeLessThan(7000);

    receiver.answer((delivery) => (mine(delivery) ? { body: Buffer.alloc(20 * 1024 * 1024, 'a') } : {}));
    await admin.client.PATCH('/v1/orgs/{organizationId}/webhooks/{webhookId}', { ...hookPath(organization.id, hook.id), body: { eventTypes: ['webhook.ping'] } });
    const { data: big } = await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', hookPath(organization.id, hook.id));
    const log = await logUntil(admin, organization.id, hook.id, (items) => items.find((item) => item.id === big!.id)?.status === 'succeeded');
    expect(log.find((item) => item.id === big!.id)!.attempts[0]).toMatchObject({ statusCode: 200, response: 'a'.repeat(1024) });
    receiver.answer({});
  });

  it('a rotated secret: both signatures during the grace period (each verifies), only the new one without', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const hook = await createHook(admin, organization.id, { eventTypes: ['webhook.ping'] });
    const path = hookPath(organization.id, hook.id);
    const rotated = await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/secret', { ...path, body: { gracePeriodSeconds: 3600 } });
    expect(rotated.data).toEqual({ object: 'webhook-secret', webhook: hook.id, secret: expect.stringMatching(/^whsec_/), previousSecretExpiresAt: expect.any(String) });
    expect(rotated.data!.secret).not.toBe(hook.secret);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}', path)).data?.previousSecretExpiresAt).toBe(rotated.data!.previousSecretExpiresAt);
    const pinged = async () => {
      const { data } = await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', path);
      const received = await receiver.waitFor((all) => all.some((delivery) => bodies(ofOrganization(organization.id)([delivery]))[0]?.id === data!.event));
      return received.find((delivery) => delivery.headers['webhook-id'] === data!.event)!;
    };
    const during = await pinged();
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [hook.secret, rotated.data!.secret]) expect(new Webhook(secret).verify(during.body, during.headers as Record<string, string>)).toMatchObject({ type: 'webhook.ping' });

    const final = await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/secret', { ...path, body: { gracePeriodSeconds: 0 } });
    expect(final.data!.previousSecretExpiresAt).toBeUndefined();
    const after = await pinged();
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(new Webhook(final.data!.secret).verify(after.body, after.headers as Record<string, string>)).toMatchObject({ type: 'webhook.ping' });
    expect(() => new Webhook(rotated.data!.secret).verify(after.body, after.headers as Record<string, string>)).toThrow(/No matching signature/);
  });
});

describe('the outbound guard', () => {
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startTestServer({ env: { JOBS_ENABLED: 'true', OUTBOUND_ALLOW_PRIVATE: 'false', WEBHOOK_RETRY_SCHEDULE: '1h' } });
  });
  afterAll(async () => {
    await guarded?.close();
  });

  it('refuses a private address given as an IP; a host name resolving to one fails at delivery, checked each time', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(guarded);
    for (const url of ['http://127.0.0.1/hooks', 'http://10.1.2.3/', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data']) {
      const { response, error } = await admin.client.POST('/v1/orgs/{organizationId}/webhooks', { ...orgPath(organization.id), body: { url } });
      expect(response.status, url).toBe(400);
      expect(error?.error.issues?.[0]).toEqual({ path: '/body/url', message: 'is a private, loopback or link-local address' });
    }
    const { data: hook } = await admin.client.POST('/v1/orgs/{organizationId}/webhooks', { ...orgPath(organization.id), body: { url: `http://localhost:${receiver.port}/hooks`, eventTypes: ['webhook.ping'] } });
    const before = receiver.received.length;
    await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', hookPath(organization.id, hook!.id));
    const deadline = Date.now() + 15_000;
    let attempts: Array<{ error?: string }> = [];
    while (attempts.length === 0 && Date.now() < deadline) {
      attempts = (await admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries', hookPath(organization.id, hook!.id))).data!.items[0]!.attempts;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(attempts[0]?.error).toBe('localhost resolves to an address that may not be fetched');
    expect(receiver.received.length).toBe(before);
  });
});

describe('waiting deliveries', () => {
  let slow: TestServer;
  beforeAll(async () => {
    // One quick retry, then an hour: the outage outlasts the quick retries.
    slow = await startTestServer({ env: { JOBS_ENABLED: 'true', WEBHOOK_RETRY_SCHEDULE: '200ms,1h', WEBHOOK_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await slow?.close();
  });

  it('gets every event once it answers again: the first success sends the waiting ones at once', async () => {
    const down = await startReceiver();
    try {
      const { admin, organization } = await createOrganizationWithAdmin(slow);
      const hook = (await admin.client.POST('/v1/orgs/{organizationId}/webhooks', { ...orgPath(organization.id), body: { url: down.url, eventTypes: ['space.created'] } })).data!;
      await down.stop();
      const created: string[] = [];
      for (let i = 0; i < 12; i++) created.push((await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: `While down ${i}` } })).data!.id);
      // Every delivery has failed twice and waits an hour.
      await logUntil(admin, organization.id, hook.id, (items) => items.length === 12 && items.every((item) => item.attempts.length === 2 && item.status === 'pending'));
      const waiting = await slow.db.selectFrom('webhookDeliveries').select('nextAttemptAt').where('webhookId', '=', hook.id).execute();
      expect(waiting.every((row) => row.nextAttemptAt!.getTime() > Date.now() + 50 * 60_000)).toBe(true);

      await down.start();
      // An hour later, one delivery's retry comes due; its success brings the others at once.
      const [first] = await slow.db.selectFrom('webhookDeliveries').select('id').where('webhookId', '=', hook.id).orderBy('createdAt').limit(1).execute();
      await slow.db.updateTable('webhookDeliveries').set({ nextAttemptAt: new Date() }).where('id', '=', first!.id).execute();
      const received = await down.waitFor((all) => new Set(all.map((delivery) => delivery.headers['webhook-id'])).size === 12, 15_000);
      const spaces = bodies<{ space: string }>(received).map((event) => event.space);
      expect([...new Set(spaces)].sort()).toEqual([...created].sort());
      const log = await logUntil(admin, organization.id, hook.id, (items) => items.every((item) => item.status === 'succeeded'));
      expect(log).toHaveLength(12);
    } finally {
      await down.stop().catch(() => {});
    }
  });
  it('disabling a webhook ends its waiting deliveries as failed; enabling it clears why it was disabled', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(slow);
    const hook = (await admin.client.POST('/v1/orgs/{organizationId}/webhooks', { ...orgPath(organization.id), body: { url: 'http://127.0.0.1:9/unreachable', eventTypes: ['webhook.ping'] } })).data!;
    const path = hookPath(organization.id, hook.id);
    await slow.db.updateTable('webhooks').set({ disabledReason: 'failing', failingSince: new Date() }).where('id', '=', hook.id).execute();
    const { data: ping } = await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', path);
    // Failed twice, waiting an hour for its next attempt.
    await logUntil(admin, organization.id, hook.id, (items) => items[0]?.attempts.length === 2 && items[0].status === 'pending');
    await admin.client.PATCH('/v1/orgs/{organizationId}/webhooks/{webhookId}', { ...path, body: { enabled: false } });
    const [ended] = await deliveries(admin, organization.id, hook.id);
    expect([ended!.id, ended!.status, ended!.nextAttemptAt]).toEqual([ping!.id, 'failed', undefined]);
    const enabled = await admin.client.PATCH('/v1/orgs/{organizationId}/webhooks/{webhookId}', { ...path, body: { enabled: true } });
    expect(enabled.data).toMatchObject({ enabled: true });
    expect(enabled.data!.disabledReason).toBeUndefined();
    expect(enabled.data!.failingSince).toBeUndefined();
  });
});
