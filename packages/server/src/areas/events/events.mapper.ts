import type { ApiEvent } from './record.js';
import type { EventRow } from './events.repository.js';

/**
 * The event as the API (and every webhook delivery) shows it. `actor` and `data` were written from API
 * objects of their type's schema (record.ts): they are read back as they are (see eventJson).
 */
export function toApiEvent(row: EventRow): ApiEvent {
  return {
    object: 'event',
    id: row.id,
    type: row.type,
    createdAt: row.createdAt.toISOString(),
    organization: row.organizationId,
    ...(row.spaceId !== null ? { space: row.spaceId } : {}),
    actor: JSON.parse(row.actor),
    data: JSON.parse(row.data),
  } as ApiEvent;
}

/** An event whose actor and data are still the JSON text stored (the webhook sender's read). */
export type StoredEventText = { organizationId: string; id: string; type: string; spaceId: string | null; createdAt: Date; actor: string; data: string };

/**
 * The JSON of toApiEvent's answer for an event read as text: a delivery's body, made without parsing
 * and serializing its data again.
 */
export function eventJson(event: StoredEventText): string {
  const space = event.spaceId !== null ? `,"space":${JSON.stringify(event.spaceId)}` : '';
  return `{"object":"event","id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"createdAt":"${event.createdAt.toISOString()}","organization":${JSON.stringify(event.organizationId)}${space},"actor":${event.actor},"data":${event.data}}`;
}
