// The dispatcher: committed events become one delivery per subscribed webhook. The events are taken
// with FOR UPDATE SKIP LOCKED and their flag cleared in the transaction that inserts their deliveries,
// so an event is dispatched once, by one instance, and a dispatch cut short (a crash, a lost connection)
// leaves its events to be taken again. An event whose transaction has not committed is not seen yet;
// one that rolled back never is.
import { inTransaction, type Executor } from '../../db/database.js';
import { newId } from '../../ids.js';
import { commitAsynchronously, enabledSubscriptions, insertDeliveries, takeUndispatchedEvents, type Subscription, type UndispatchedEvent } from './deliveries.repository.js';

/** Deliveries inserted by one statement (4 parameters each, well within PostgreSQL's 65,535). */
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

/** Dispatches up to `limit` waiting events (the oldest first); returns how many were taken. */
export async function dispatchEvents(db: Executor, limit: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    await commitAsynchronously(trx);
    const events = await takeUndispatchedEvents(trx, limit);
    if (events.length === 0) return 0;
    const subscriptions = await enabledSubscriptions(trx, [...new Set(events.map((event) => event.organizationId))]);
    const byOrganization = new Map<string, Subscription[]>();
    for (const subscription of subscriptions) byOrganization.set(subscription.organizationId, [...(byOrganization.get(subscription.organizationId) ?? []), subscription]);
    const deliveries = events.flatMap((event) =>
      (byOrganization.get(event.organizationId) ?? [])
        .filter((webhook) => subscribes(webhook, event))
        .map((webhook) => ({ organizationId: event.organizationId, id: newId(), webhookId: webhook.id, eventId: event.id })),
    );
    for (let start = 0; start < deliveries.length; start += INSERT_CHUNK) await insertDeliveries(trx, deliveries.slice(start, start + INSERT_CHUNK));
    return events.length;
  });
}
