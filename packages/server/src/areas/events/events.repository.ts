// The events of an organization: the list (newest first, filtered by type, space and time), one event,
// and the retention job's deletes. Events are written by record.ts only.
import { sql, type Selectable } from 'kysely';
import { PREPARED, type Executor } from '../../db/database.js';
import type { EventsTable, EventType } from '../../db/schema.js';

export type EventRow = Pick<Selectable<EventsTable>, 'organizationId' | 'id' | 'type' | 'spaceId' | 'createdAt' | 'seq'> & {
  /** The JSON text stored (read as text: the camel-casing row mapping would rename nested keys). */
  actor: string;
  data: string;
};

export type EventFilters = { types?: readonly EventType[] | undefined; spaceId?: string | undefined; since?: string | undefined; until?: string | undefined };

/** An event as stored: `actor` and `data` are JSON text. */
export type NewEventRow = { organizationId: string; id: string; type: EventType; spaceId: string | null; actor: string; data: string };

/**
 * Inserts the events in one statement; `dispatch`: marked for the dispatcher when their organization
 * has an enabled webhook (decided inside the INSERT).
 */
export async function insertEvents(db: Executor, rows: readonly NewEventRow[], dispatch: boolean): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => sql`(${row.organizationId}, ${row.id}, ${row.type}, ${row.spaceId}, ${row.actor}::jsonb, ${row.data}::jsonb)`);
  const waits = dispatch ? sql`EXISTS (SELECT 1 FROM webhooks w WHERE w.organization_id = v.organization_id AND w.enabled)` : sql`false`;
  // A single event (the usual case) runs as a prepared statement: one text, planned once per connection.
  await sql`${rows.length === 1 ? PREPARED : sql``}
    INSERT INTO events (organization_id, id, type, space_id, actor, data, undispatched)
    SELECT v.organization_id, v.id, v.type, v.space_id, v.actor, v.data, ${waits}
    FROM (VALUES ${sql.join(values)}) AS v (organization_id, id, type, space_id, actor, data)`.execute(db);
}

const COLUMNS = [
  'e.organizationId',
  'e.id',
  'e.type',
  'e.spaceId',
  sql<string>`e.actor::text`.as('actor'),
  sql<string>`e.data::text`.as('data'),
  'e.createdAt',
  'e.seq',
] as const;

/** The organization's events matching `filters` (each filter has its index: see the migration). */
export function eventsQuery(db: Executor, organizationId: string, filters: EventFilters) {
  return db
    .selectFrom('events as e')
    .where('e.organizationId', '=', organizationId)
    .$if(filters.types !== undefined, (query) => query.where('e.type', 'in', filters.types!))
    .$if(filters.spaceId !== undefined, (query) => query.where('e.spaceId', '=', filters.spaceId!))
    .$if(filters.since !== undefined, (query) => query.where('e.createdAt', '>=', new Date(filters.since!)))
    .$if(filters.until !== undefined, (query) => query.where('e.createdAt', '<', new Date(filters.until!)))
    .select(COLUMNS)
    .$castTo<EventRow>();
}

export async function findEvent(db: Executor, organizationId: string, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('events as e').where('e.organizationId', '=', organizationId).where('e.id', '=', id).select(COLUMNS).$castTo<EventRow>().executeTakeFirst();
}

/** Organizations holding events older than `before` (one index probe per organization). */
export async function organizationsWithEventsBefore(db: Executor, before: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('organizations as o')
    .select('o.id')
    .where((eb) => eb.exists(eb.selectFrom('events as e').select(sql.lit(1).as('one')).whereRef('e.organizationId', '=', 'o.id').where('e.createdAt', '<', before)))
    .execute();
  return rows.map((row) => row.id);
}

/** Deletes up to `limit` of the organization's events older than `before` (their deliveries go by cascade); how many. */
export async function deleteEventsBefore(db: Executor, organizationId: string, before: Date, limit: number): Promise<number> {
  const { numAffectedRows } = await sql`
    DELETE FROM events WHERE organization_id = ${organizationId} AND id IN (
      SELECT id FROM events WHERE organization_id = ${organizationId} AND created_at < ${before} ORDER BY created_at LIMIT ${limit}
    )`.execute(db);
  return Number(numAffectedRows ?? 0);
}
