// The dispatcher: committed events become one delivery per subscribed webhook. The events are taken
// with FOR UPDATE SKIP LOCKED and their flag cleared in the transaction that inserts their deliveries,
// so an event is dispatched once, by one instance, and a dispatch cut short (a crash, a lost connection)
// leaves its events to be taken again. An event whose transaction has not committed is not seen yet;
// one that rolled back never is.
import { inTransaction, type Executor } from '../../db/database.js';
import { newId } from '../../ids.js';
import { commitAsynchronously, enabledSubscriptions, insertDeliveries, takeUndispatchedEvents, type ClaimedDelivery, type Subscription, type UndispatchedEvent } from './deliveries.repository.js';

/** Deliveries inserted by one statement (at most 8 parameters each, well within PostgreSQL's 65,535). */
const INSERT_CHUNK = 5000;

/**
 * Whether `webhook` takes `event`: it was created before the event was recorded (not by the same
 * change: its own `webhook.created` is not sent to it), subscribes to its type, and (with a space
 * list) the event is about one of its spaces.
 */
export function subscribes(webhook: Subscription, event: UndispatchedEvent): boolean {
  if (webhook.createdAt >= event.createdAt) return false;
  if (webhook.eventTypes !== null && !webhook.eventTypes.includes(event.type)) return false;
  return webhook.spaceIds === null || (event.spaceId !== null && webhook.spaceIds.includes(event.spaceId));
}

/** Sending slots the dispatching instance has free: that many new deliveries are claimed by it at once. */
export type DispatchClaim = { slots: number; leaseMs: number };

/**
 * Dispatches up to `limit` waiting events (the oldest first). With `claim`, the first `claim.slots`
 * new deliveries are inserted already claimed by this instance and answered, to be sent once this
 * returns (after the commit): one statement fewer per delivery than a pending row claimed later. At
 * least once all the same: a claimed delivery not answered (the process died) is claimed again when
 * its lease ends, like any other.
 */
export async function dispatchEvents(db: Executor, limit: number, claim: DispatchClaim = { slots: 0, leaseMs: 0 }): Promise<{ taken: number; claimed: ClaimedDelivery[] }> {
  return inTransaction(db, async (trx) => {
    await commitAsynchronously(trx);
    const events = await takeUndispatchedEvents(trx, limit);
    if (events.length === 0) return { taken: 0, claimed: [] };
    const subscriptions = await enabledSubscriptions(trx, [...new Set(events.map((event) => event.organizationId))]);
    const byOrganization = new Map<string, Subscription[]>();
    for (const subscription of subscriptions) byOrganization.set(subscription.organizationId, [...(byOrganization.get(subscription.organizationId) ?? []), subscription]);
    const pairs = events.flatMap((event) => (byOrganization.get(event.organizationId) ?? []).filter((webhook) => subscribes(webhook, event)).map((webhook) => ({ event, webhook, id: newId() })));
    const deliveries = pairs.map(({ event, webhook, id }, index) => ({
      organizationId: event.organizationId,
      id,
      webhookId: webhook.id,
      eventId: event.id,
      ...(index < claim.slots ? { claimLeaseMs: claim.leaseMs } : {}),
    }));
    const inserted = new Set<string>();
    for (let start = 0; start < deliveries.length; start += INSERT_CHUNK) {
      for (const id of await insertDeliveries(trx, deliveries.slice(start, start + INSERT_CHUNK))) inserted.add(id);
    }
    const claimed = pairs.slice(0, claim.slots).filter(({ id }) => inserted.has(id)).map(({ event, webhook, id }): ClaimedDelivery => ({
      organizationId: event.organizationId,
      id,
      webhookId: webhook.id,
      eventId: event.id,
      attempt: 1,
      scheduleStep: 1,
      eventType: event.type,
      spaceId: event.spaceId,
      eventCreatedAt: event.createdAt,
      actor: event.actor,
      data: event.data,
      url: webhook.url,
      secret: webhook.secret,
      previousSecret: webhook.previousSecret,
      previousSecretExpiresAt: webhook.previousSecretExpiresAt,
    }));
    return { taken: events.length, claimed };
  });
}
