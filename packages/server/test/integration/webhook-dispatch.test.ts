// The dispatcher's claims (areas/webhooks/dispatch.ts): the first new deliveries, as many as the
// sender has free slots, are inserted already claimed and handed over with what sending them needs;
// the rest wait to be claimed. A claimed delivery never answered (its sender died) is claimed again
// when its lease ends: at least once holds as for any claim. Jobs are off here, so nothing else
// dispatches or sends.
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { createOrganizationWithAdmin } from '../support/factories.js';
import { dispatchEvents } from '../../src/areas/webhooks/dispatch.js';
import { claimDueDeliveries } from '../../src/areas/webhooks/deliveries.repository.js';

const server = useTestServer();

describe('dispatching with free sending slots', () => {
  it('claims that many new deliveries in the dispatch, leaves the rest pending, and gives an unanswered claim back at the end of its lease', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const orgPath = { params: { path: { organizationId: organization.id } } };
    const hook = (await admin.client.POST('/v1/orgs/{organizationId}/webhooks', { ...orgPath, body: { url: 'https://hooks.example.com/in', eventTypes: ['space.created'] } })).data!;
    const spaces: string[] = [];
    for (const title of ['One', 'Two', 'Three']) spaces.push((await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath, body: { title } })).data!.id);

    const { taken, claimed } = await dispatchEvents(t.db, 100, { slots: 2, leaseMs: 60_000 });
    expect(taken).toBeGreaterThanOrEqual(3);
    expect(claimed).toHaveLength(2);
    for (const delivery of claimed) {
      expect(delivery).toMatchObject({ organizationId: organization.id, webhookId: hook.id, attempt: 1, scheduleStep: 1, eventType: 'space.created', url: 'https://hooks.example.com/in' });
      expect(spaces).toContain(JSON.parse(delivery.data).object.id);
      expect(delivery.secret).toBeInstanceOf(Buffer);
    }
    const rows = await t.db.selectFrom('webhookDeliveries').select(['id', 'state', 'attempts', 'nextAttemptAt']).where('webhookId', '=', hook.id).execute();
    expect(rows.map((row) => row.state).sort()).toEqual(['pending', 'sending', 'sending']);
    const sending = rows.filter((row) => row.state === 'sending');
    expect(sending.map((row) => row.id).sort()).toEqual(claimed.map((delivery) => delivery.id).sort());
    expect(sending.every((row) => row.attempts === 1 && row.nextAttemptAt!.getTime() > Date.now() + 50_000)).toBe(true);

    // The sender's own claim finds only the delivery left pending.
    const rest = await claimDueDeliveries(t.db, 10, 60_000);
    expect(rest.filter((delivery) => delivery.webhookId === hook.id).map((delivery) => [delivery.attempt, delivery.id])).toEqual([[1, rows.find((row) => row.state === 'pending')!.id]]);
    // Dispatching again queues nothing twice.
    expect((await dispatchEvents(t.db, 100, { slots: 10, leaseMs: 60_000 })).claimed).toEqual([]);

    // The sender died before answering: when the lease ends, the claims are taken again (second attempt).
    await t.db.updateTable('webhookDeliveries').set({ nextAttemptAt: new Date(Date.now() - 1000) }).where('id', 'in', claimed.map((delivery) => delivery.id)).execute();
    const again = await claimDueDeliveries(t.db, 10, 60_000);
    expect(again.filter((delivery) => delivery.webhookId === hook.id).map((delivery) => [delivery.id, delivery.attempt]).sort()).toEqual(claimed.map((delivery) => [delivery.id, 2]).sort());
  });
});
