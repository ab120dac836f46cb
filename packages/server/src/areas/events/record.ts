// Recording events (the transactional outbox, docs/decisions.md "Events and webhooks"): a change's
// events are written by the executor that writes the change — its transaction — so a change that
// commits has its events and one that rolls back has none. One INSERT per call, whatever the number
// of events (events.repository.ts); the dispatcher (areas/webhooks/dispatch.ts) turns the committed
// ones into deliveries.
//
// What an event carries is typed by the contract: `data` must be the schema of its `type`
// (spec/components/schemas/<Name>Event.yaml), so a payload that drifts from the spec fails `tsc`.
import type { Caller } from '../../auth/authenticate.js';
import type { Executor } from '../../db/database.js';
import { newId } from '../../ids.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';
import { toApiUser } from '../users/index.js';
import { insertEvents } from './events.repository.js';

export type ApiEvent = Schemas['Event'];
export type EventType = ApiEvent['type'];
export type EventActor = Schemas['EventActor'];
export type EventData<T extends EventType> = Extract<ApiEvent, { type: T }>['data'];

/** An event to record: its type, the data its schema describes, and whose it is. */
export type NewEvent = {
  [T in EventType]: {
    type: T;
    organizationId: string;
    /** The space the event is about (events list filter, webhooks' space lists). */
    spaceId?: string | null;
    actor: EventActor;
    data: EventData<T>;
  };
}[EventType];

/** The caller as an event's actor: the user, and the token the request came with. */
export function actorOf(caller: Pick<Caller, 'user' | 'tokenId'>, urls: Urls): EventActor {
  return { type: 'user', user: toApiUser(caller.user, urls), token: caller.tokenId };
}

/** Work the server does by itself (background jobs). */
export const SYSTEM_ACTOR: EventActor = { type: 'system' };

/**
 * Records `events` with `db` — the transaction of the change they describe. An event is marked for
 * dispatching only when its organization has an enabled webhook (one index probe inside the INSERT),
 * so organizations without webhooks cost the dispatcher nothing; `dispatch: false` leaves it to the
 * caller (a ping queues its one delivery itself). Returns the events' ids.
 */
export async function recordEvents(db: Executor, events: readonly NewEvent[], options: { dispatch?: boolean } = {}): Promise<string[]> {
  const rows = events.map((event) => ({
    organizationId: event.organizationId,
    id: newId(),
    type: event.type,
    spaceId: event.spaceId ?? null,
    actor: JSON.stringify(event.actor),
    data: JSON.stringify(event.data),
  }));
  await insertEvents(db, rows, options.dispatch !== false);
  return rows.map((row) => row.id);
}

/** Records one event with `db` (the change's transaction); returns its id. */
export async function recordEvent(db: Executor, event: NewEvent, options: { dispatch?: boolean } = {}): Promise<string> {
  return (await recordEvents(db, [event], options))[0]!;
}
