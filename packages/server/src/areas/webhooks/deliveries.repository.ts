// Webhook deliveries: the delivery log (a webhook's deliveries and their attempts) and the durable queue
// every instance works from (docs/decisions.md, Events and webhooks). Claims use FOR UPDATE SKIP
// LOCKED, so instances never take the same rows; a claimed delivery is `sending` until its lease
// (`next_attempt_at`) ends, after which any instance may claim it again (a process killed mid-send
// loses nothing); results are written only while the claim they answer still holds.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { column, rawQuery, value, type RawRow, type RowOf } from '../../db/raw-query.js';
import type { EventType, WebhookDeliveryState } from '../../db/schema.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export type DeliveryRow = {
  organizationId: string;
  id: string;
  webhookId: string;
  eventId: string;
  eventType: EventType;
  state: WebhookDeliveryState;
  nextAttemptAt: Date | null;
  createdAt: Date;
};

const ATTEMPT = {
  deliveryId: column('webhookDeliveryAttempts', 'deliveryId'),
  attempt: column('webhookDeliveryAttempts', 'attempt'),
  startedAt: column('webhookDeliveryAttempts', 'startedAt'),
  durationMs: column('webhookDeliveryAttempts', 'durationMs'),
  statusCode: column('webhookDeliveryAttempts', 'statusCode'),
  error: column('webhookDeliveryAttempts', 'error'),
  response: column('webhookDeliveryAttempts', 'response'),
};

export type AttemptRow = RowOf<undefined, typeof ATTEMPT>;

/** The attempts a delivery shows: the latest ones. */
export const SHOWN_ATTEMPTS = 50;

const STATES: Record<DeliveryStatus, WebhookDeliveryState[]> = { pending: ['pending', 'sending'], succeeded: ['succeeded'], failed: ['failed'] };

export function deliveriesQuery(db: Executor, organizationId: string, webhookId: string, status?: DeliveryStatus) {
  return db
    .selectFrom('webhookDeliveries as d')
    .innerJoin('events as e', (join) => join.onRef('e.organizationId', '=', 'd.organizationId').onRef('e.id', '=', 'd.eventId'))
    .where('d.organizationId', '=', organizationId)
    .where('d.webhookId', '=', webhookId)
    .$if(status !== undefined, (query) => query.where('d.state', 'in', STATES[status!]))
    .select(['d.organizationId', 'd.id', 'd.webhookId', 'd.eventId', 'e.type as eventType', 'd.state', 'd.nextAttemptAt', 'd.createdAt']);
}

export async function findDelivery(db: Executor, organizationId: string, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
  return deliveriesQuery(db, organizationId, webhookId).where('d.id', '=', id).executeTakeFirst();
}

/** The latest SHOWN_ATTEMPTS attempts of each delivery, oldest first (one query for a page). */
export async function attemptsOf(db: Executor, organizationId: string, deliveryIds: readonly string[]): Promise<Map<string, AttemptRow[]>> {
  const byDelivery = new Map<string, AttemptRow[]>(deliveryIds.map((id) => [id, []]));
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await latestAttempts.rows(db, organizationId, deliveryIds);
  for (const row of rows) byDelivery.get(row.deliveryId)!.push(row);
  return byDelivery;
}

const latestAttempts = rawQuery({
  name: 'latestDeliveryAttempts',
  columns: ATTEMPT,
  statement: (organizationId: string, deliveryIds: readonly string[]) => sql`
    SELECT delivery_id, attempt, started_at, duration_ms, status_code, error, response FROM (
      SELECT a.*, row_number() OVER (PARTITION BY a.delivery_id ORDER BY a.attempt DESC) AS latest
      FROM webhook_delivery_attempts a
      WHERE a.organization_id = ${organizationId} AND a.delivery_id = ANY(${deliveryIds as string[]}::text[])
    ) ranked
    WHERE latest <= ${SHOWN_ATTEMPTS}
    ORDER BY delivery_id, attempt`,
  shapes: [['', []]],
});

/** A delivery due at once (a ping). */
export async function insertDelivery(db: Executor, values: { organizationId: string; id: string; webhookId: string; eventId: string }): Promise<void> {
  await db.insertInto('webhookDeliveries').values({ ...values, state: 'pending', nextAttemptAt: sql<Date>`now()` }).execute();
}

/**
 * Queues the delivery again, due now, its schedule started over; one being sent right now is left to
 * its attempt. Whether the delivery exists.
 */
export async function requeueDelivery(db: Executor, organizationId: string, webhookId: string, id: string): Promise<boolean> {
  const result = await db
    .updateTable('webhookDeliveries')
    .set({ state: 'pending', scheduleStep: 0, nextAttemptAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('webhookId', '=', webhookId)
    .where('id', '=', id)
    .where('state', '<>', 'sending')
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return true;
  return (await db.selectFrom('webhookDeliveries').where('organizationId', '=', organizationId).where('webhookId', '=', webhookId).where('id', '=', id).select('id').executeTakeFirst()) !== undefined;
}

/** Ends the webhook's waiting deliveries as failed (it was disabled). */
export async function failWaitingDeliveries(db: Executor, organizationId: string, webhookId: string): Promise<void> {
  await db
    .updateTable('webhookDeliveries')
    .set({ state: 'failed', nextAttemptAt: null })
    .where('organizationId', '=', organizationId)
    .where('webhookId', '=', webhookId)
    .where('state', '=', 'pending')
    .execute();
}

/**
 * Lets the delivery machinery's own transaction (dispatch, claim, answers) commit without waiting for
 * its WAL flush. A database crash may then forget its last fraction of a second of them, which only
 * makes deliveries go again (their flags and leases come back): nothing is lost, and no request waits
 * on these commits. The changes and their events always commit synchronously.
 */
export async function commitAsynchronously(trx: Executor): Promise<void> {
  await sql`SET LOCAL synchronous_commit = off`.execute(trx);
}

/**
 * The same for a statement run on its own (its implicit transaction: no BEGIN, SET LOCAL and COMMIT
 * round trips): a one-row CTE setting `synchronous_commit` for the current transaction, which the
 * statement joins where it reads its input, so it runs whenever the statement writes anything; the
 * setting holds until the commit that ends the statement.
 */
const ASYNCHRONOUS_COMMIT = sql`asynchronous_commit AS (SELECT set_config('synchronous_commit', 'off', true) AS setting)`;

// ---- The dispatcher: committed events into deliveries -------------------------------------------

const undispatchedEvents = rawQuery({
  name: 'takeUndispatchedEvents',
  columns: {
    organizationId: column('events', 'organizationId'),
    id: column('events', 'id'),
    type: column('events', 'type'),
    spaceId: column('events', 'spaceId'),
    createdAt: column('events', 'createdAt'),
    // The event's actor and data as JSON text, as stored (a delivery's body is made of them).
    actor: value('text'),
    data: value('text'),
  },
  statement: (limit: number) => sql`
    UPDATE events e SET undispatched = false
    FROM (SELECT organization_id, id FROM events WHERE undispatched ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED) taken
    WHERE e.organization_id = taken.organization_id AND e.id = taken.id
    RETURNING e.organization_id, e.id, e.type, e.space_id, e.created_at, e.actor::text AS actor, e.data::text AS data`,
  shapes: [[0]],
});

export type UndispatchedEvent = RawRow<typeof undispatchedEvents>;

/** Takes up to `limit` events waiting to be dispatched (the oldest first), clearing their flag. */
export async function takeUndispatchedEvents(trx: Executor, limit: number): Promise<UndispatchedEvent[]> {
  return undispatchedEvents.rows(trx, limit);
}

export type Subscription = {
  organizationId: string;
  id: string;
  eventTypes: EventType[] | null;
  spaceIds: string[] | null;
  createdAt: Date;
  /** What a delivery claimed at dispatch is sent with. */
  url: string;
  secret: Buffer;
  previousSecret: Buffer | null;
  previousSecretExpiresAt: Date | null;
};

/** The enabled webhooks of these organizations, with what they subscribe to. */
export async function enabledSubscriptions(db: Executor, organizationIds: readonly string[]): Promise<Subscription[]> {
  if (organizationIds.length === 0) return [];
  return db
    .selectFrom('webhooks')
    .where('organizationId', 'in', organizationIds)
    .where('enabled', '=', true)
    .select(['organizationId', 'id', 'eventTypes', 'spaceIds', 'createdAt', 'url', 'secret', 'previousSecret', 'previousSecretExpiresAt'])
    .execute();
}

export type NewDelivery = { organizationId: string; id: string; webhookId: string; eventId: string; /** Claimed by the dispatching instance, for this lease. */ claimLeaseMs?: number };

/**
 * New deliveries, due at once — or, with `claimLeaseMs`, already claimed (`sending`, its first attempt
 * counted) by the instance that dispatches them, which sends them after the commit without claiming
 * them again. An event already queued for a webhook is not queued twice. Returns the ids inserted.
 */
export async function insertDeliveries(db: Executor, rows: readonly NewDelivery[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  return new Set((await newDeliveries.rows(db, rows)).map((row) => row.id));
}

// One statement over five arrays: the rows' values are bound as five parameters, not eight per row
// (building and binding a 500-row VALUES list was ~6% of the sender's CPU).
const newDeliveries = rawQuery({
  name: 'insertDeliveries',
  columns: { id: column('webhookDeliveries', 'id') },
  statement: (rows: readonly NewDelivery[]) => sql`
    INSERT INTO webhook_deliveries (organization_id, id, webhook_id, event_id, state, next_attempt_at, attempts, schedule_step)
    SELECT n.organization_id, n.id, n.webhook_id, n.event_id,
           CASE WHEN n.lease_ms IS NULL THEN 'pending' ELSE 'sending' END,
           now() + coalesce(n.lease_ms, 0) * interval '1 millisecond',
           CASE WHEN n.lease_ms IS NULL THEN 0 ELSE 1 END,
           CASE WHEN n.lease_ms IS NULL THEN 0 ELSE 1 END
    FROM unnest(${rows.map((r) => r.organizationId)}::text[], ${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.webhookId)}::text[],
                ${rows.map((r) => r.eventId)}::text[], ${rows.map((r) => r.claimLeaseMs ?? null)}::int[]) AS n (organization_id, id, webhook_id, event_id, lease_ms)
    ON CONFLICT (organization_id, webhook_id, event_id) DO NOTHING
    RETURNING id`,
  shapes: [[[]]],
});

// ---- The sender: claims, and what the attempts answered ------------------------------------------

const dueDeliveries = rawQuery({
  name: 'claimDueDeliveries',
  columns: {
    organizationId: column('webhookDeliveries', 'organizationId'),
    id: column('webhookDeliveries', 'id'),
    webhookId: column('webhookDeliveries', 'webhookId'),
    eventId: column('webhookDeliveries', 'eventId'),
    // This attempt's number.
    attempt: column('webhookDeliveries', 'attempts'),
    // Attempts since the delivery was (re)queued, this one included.
    scheduleStep: column('webhookDeliveries', 'scheduleStep'),
    eventType: column('events', 'type'),
    spaceId: column('events', 'spaceId'),
    eventCreatedAt: column('events', 'createdAt'),
    // The event's actor and data as JSON text, as stored.
    actor: value('text'),
    data: value('text'),
    url: column('webhooks', 'url'),
    secret: column('webhooks', 'secret'),
    previousSecret: column('webhooks', 'previousSecret'),
    previousSecretExpiresAt: column('webhooks', 'previousSecretExpiresAt'),
  },
  statement: (limit: number, leaseMs: number) => sql`
    WITH ${ASYNCHRONOUS_COMMIT},
    claimed AS (
      UPDATE webhook_deliveries d
      SET state = 'sending', next_attempt_at = now() + ${leaseMs} * interval '1 millisecond', attempts = d.attempts + 1, schedule_step = d.schedule_step + 1
      FROM (
        SELECT organization_id, id FROM webhook_deliveries
        WHERE state IN ('pending', 'sending') AND next_attempt_at <= now()
        ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      ) due, asynchronous_commit
      WHERE d.organization_id = due.organization_id AND d.id = due.id
      RETURNING d.organization_id, d.id, d.webhook_id, d.event_id, d.attempts, d.schedule_step
    )
    SELECT c.organization_id, c.id, c.webhook_id, c.event_id, c.attempts AS attempt, c.schedule_step,
           e.type AS event_type, e.space_id, e.created_at AS event_created_at, e.actor::text AS actor, e.data::text AS data,
           w.url, w.secret, w.previous_secret, w.previous_secret_expires_at
    FROM claimed c
    JOIN events e ON e.organization_id = c.organization_id AND e.id = c.event_id
    JOIN webhooks w ON w.organization_id = c.organization_id AND w.id = c.webhook_id`,
  shapes: [[0, 0]],
});

export type ClaimedDelivery = RawRow<typeof dueDeliveries>;

/**
 * Claims up to `limit` due deliveries (the longest waiting first): each becomes `sending` until
 * `leaseMs` from now, its attempt counted. Read with its event and its webhook's address and secrets.
 * One statement, committed asynchronously when run on its own.
 */
export async function claimDueDeliveries(db: Executor, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  return dueDeliveries.rows(db, limit, leaseMs);
}

const values = <T>(rows: readonly T[], row: (item: T) => ReturnType<typeof sql>) => sql.join(rows.map(row));

/**
 * Gives back claims not acted on (a sender stopping with deliveries it had claimed ahead): due now, the
 * attempt not counted — only where the claim still holds.
 */
export async function releaseClaims(db: Executor, claims: ReadonlyArray<Pick<ClaimedDelivery, 'organizationId' | 'id' | 'attempt'>>): Promise<void> {
  if (claims.length === 0) return;
  await sql`
    UPDATE webhook_deliveries d
    SET state = 'pending', next_attempt_at = now(), attempts = d.attempts - 1, schedule_step = d.schedule_step - 1
    FROM (VALUES ${values(claims, (c) => sql`(${c.organizationId}::text, ${c.id}::text, ${c.attempt}::int)`)}) AS v (organization_id, id, attempt)
    WHERE d.organization_id = v.organization_id AND d.id = v.id AND d.state = 'sending' AND d.attempts = v.attempt`.execute(db);
}

export type AttemptResult = {
  organizationId: string;
  deliveryId: string;
  webhookId: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  response: string | null;
  succeeded: boolean;
  /** After a failure: the wait before the next attempt, or null when the schedule is over. */
  retryInMs: number | null;
};

/**
 * Writes what the attempts answered, in one statement: their log rows; each delivery's new state —
 * only where the claim answered still holds (no other instance took the delivery after its lease ended
 * meanwhile); and the webhooks that answered are no longer failing, those that were getting their
 * waiting deliveries due at once — a receiver back from an outage gets its backlog without waiting for
 * each retry. (The parts see one snapshot: the deliveries answered here are `sending` in it, never among
 * the waiting ones made due.) Committed asynchronously when run on its own.
 */
export async function writeAttemptResults(trx: Executor, results: readonly AttemptResult[]): Promise<void> {
  if (results.length === 0) return;
  const rows = values(results, (r) => {
    const state: WebhookDeliveryState = r.succeeded ? 'succeeded' : r.retryInMs === null ? 'failed' : 'pending';
    return sql`(${r.organizationId}::text, ${r.deliveryId}::text, ${r.webhookId}::text, ${r.attempt}::int, ${r.startedAt}::timestamptz, ${r.durationMs}::int,
      ${r.statusCode}::int, ${r.error}::text, ${r.response}::text, ${state}::text, ${r.succeeded ? null : r.retryInMs}::bigint)`;
  });
  await sql`
    WITH ${ASYNCHRONOUS_COMMIT},
    answers (organization_id, id, webhook_id, attempt, started_at, duration_ms, status_code, error, response, state, retry_ms) AS (VALUES ${rows}),
    logged AS (
      INSERT INTO webhook_delivery_attempts (organization_id, delivery_id, attempt, started_at, duration_ms, status_code, error, response)
      SELECT organization_id, id, attempt, started_at, duration_ms, status_code, error, response FROM answers, asynchronous_commit
      ON CONFLICT DO NOTHING
    ),
    answered AS (
      UPDATE webhook_deliveries d
      SET state = v.state, next_attempt_at = CASE WHEN v.retry_ms IS NULL THEN NULL ELSE now() + v.retry_ms * interval '1 millisecond' END
      FROM answers v
      WHERE d.organization_id = v.organization_id AND d.id = v.id AND d.state = 'sending' AND d.attempts = v.attempt
    ),
    recovered AS (
      UPDATE webhooks w SET failing_since = NULL
      FROM (SELECT DISTINCT organization_id, webhook_id FROM answers WHERE state = 'succeeded') s
      WHERE w.organization_id = s.organization_id AND w.id = s.webhook_id AND w.failing_since IS NOT NULL
      RETURNING w.organization_id, w.id
    )
    UPDATE webhook_deliveries d SET next_attempt_at = now()
    FROM recovered r
    WHERE d.organization_id = r.organization_id AND d.webhook_id = r.id AND d.state = 'pending' AND d.next_attempt_at > now()`.execute(trx);
}

type WebhookKey = { organizationId: string; webhookId: string };
const keyList = (keys: readonly WebhookKey[]) => sql.join(keys.map((key) => sql`(${key.organizationId}, ${key.webhookId})`));

const disableFailing = rawQuery({
  name: 'disableFailingWebhooks',
  columns: { organizationId: column('webhooks', 'organizationId'), id: column('webhooks', 'id') },
  statement: (keys: readonly WebhookKey[], disableAfterMs: number) => sql`
    UPDATE webhooks SET enabled = false, disabled_reason = 'failing', updated_at = now()
    WHERE (organization_id, id) IN (${keyList(keys)}) AND enabled AND failing_since < now() - ${disableAfterMs} * interval '1 millisecond'
    RETURNING organization_id, id`,
  shapes: [[[{ organizationId: '', webhookId: '' }], 0]],
});

/**
 * Webhooks whose attempt failed: failing since their first failure. Those failing for longer than
 * `disableAfterMs` are disabled (their waiting deliveries end as failed); returns them.
 */
export async function markFailing(trx: Executor, keys: readonly WebhookKey[], disableAfterMs: number): Promise<Array<{ organizationId: string; id: string }>> {
  if (keys.length === 0) return [];
  await sql`
    UPDATE webhooks SET failing_since = now()
    WHERE (organization_id, id) IN (${keyList(keys)}) AND failing_since IS NULL`.execute(trx);
  const rows = await disableFailing.rows(trx, keys, disableAfterMs);
  for (const row of rows) await failWaitingDeliveries(trx, row.organizationId, row.id);
  return rows;
}
