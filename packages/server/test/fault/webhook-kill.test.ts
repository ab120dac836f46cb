// At least once, across a crash: the server is killed with SIGKILL after two changes committed — one
// delivery under way (the receiver has it and has not answered), the other maybe not even dispatched
// — and started again on the same database. Both events reach the receiver, nothing is lost.
import { afterAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startChildServer, type ChildServer } from './child-server.js';
import { bodies, startReceiver, type Receiver } from '../support/webhook-receiver.js';

// A short attempt timeout: a claimed delivery's lease (twice the timeout and 10 s) ends soon after the restart.
const ENV = { OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '3000' };

let first: ChildServer | undefined;
let second: ChildServer | undefined;
let receiver: Receiver | undefined;
afterAll(async () => {
  await second?.cleanUp();
  await first?.cleanUp();
  await receiver?.stop();
}, 60_000);

describe('kill -9 between a commit and its delivery', () => {
  it('delivers after the restart what was committed before the kill', { timeout: 240_000 }, async () => {
    receiver = await startReceiver();
    // Until the kill, the receiver takes deliveries and never answers.
    receiver.answer({ delayMs: 600_000 });
    first = await startChildServer({ command: 'tsx', env: ENV });
    const client = first.client(first.token);
    const organizationId = first.organizationId;
    const { data: hook } = await client.POST('/v1/orgs/{organizationId}/webhooks', { params: { path: { organizationId } }, body: { url: receiver.url, eventTypes: ['space.created'] } });
    const { data: before } = await client.POST('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId } }, body: { title: 'Committed, being sent' } });
    await receiver.waitFor((received) => received.length >= 1);
    const { data: after } = await client.POST('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId } }, body: { title: 'Committed, then killed' } });
    // SIGKILL to the server's process group (its embedded PostgreSQL has its own and keeps running).
    process.kill(-first.process.pid!, 'SIGKILL');
    await first.exited;
    const beforeRestart = receiver.received.length;

    receiver.answer({ status: 200 });
    second = await startChildServer({ command: 'tsx', env: ENV, dataDir: first.dataDir, demoToken: first.token });
    // Both sent again after the restart (the one the receiver held unanswered included), and answered.
    const afterRestart = (all: Receiver['received']) => all.slice(beforeRestart);
    await receiver.waitFor(
      (all) => ['Committed, being sent', 'Committed, then killed'].every((title) => bodies<{ data: { object: { title: string } } }>(afterRestart(all)).some((event) => event.data.object.title === title)),
      90_000,
    );
    const resent = afterRestart(receiver.received);
    expect(new Set(bodies<{ space: string }>(resent).map((event) => event.space))).toEqual(new Set([before!.id, after!.id]));
    for (const delivery of resent) expect(() => new Webhook(hook!.secret).verify(delivery.body, delivery.headers as Record<string, string>)).not.toThrow();
    // And the log says so: both delivered.
    const log = async () => (await second!.client(second!.token).GET('/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries', { params: { path: { organizationId, webhookId: hook!.id } } })).data!.items;
    for (let waited = 0; (await log()).some((item) => item.status !== 'succeeded') && waited < 20_000; waited += 250) await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await log()).map((item) => item.status)).toEqual(['succeeded', 'succeeded']);
  });
});
