// Webhooks of an organization. Their sealed secrets are read only by the delivery worker and the
// rotation (deliveries.repository.ts, readSecrets): every other read leaves them out.
import { sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { EventTypes, WebhooksTable } from '../../db/schema.js';

export type WebhookRow = {
  organizationId: string;
  id: string;
  url: string;
  description: string;
  enabled: boolean;
  disabledReason: 'failing' | null;
  eventTypes: EventTypes | null;
  spaceIds: string[] | null;
  failingSince: Date | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

const COLUMNS = [
  'w.organizationId',
  'w.id',
  'w.url',
  'w.description',
  'w.enabled',
  'w.disabledReason',
  'w.eventTypes',
  'w.spaceIds',
  'w.failingSince',
  'w.previousSecretExpiresAt',
  'w.createdAt',
  'w.updatedAt',
] as const;

/** At most this many webhooks per organization. */
export const MAX_WEBHOOKS = 50;

export function webhooksQuery(db: Executor, organizationId: string) {
  return db.selectFrom('webhooks as w').where('w.organizationId', '=', organizationId).select(COLUMNS);
}

export async function findWebhook(db: Executor, organizationId: string, id: string): Promise<WebhookRow | undefined> {
  return webhooksQuery(db, organizationId).where('w.id', '=', id).executeTakeFirst();
}

/** The webhook's row, locked until the end of the transaction. */
export async function lockWebhook(db: Executor, organizationId: string, id: string): Promise<WebhookRow | undefined> {
  return webhooksQuery(db, organizationId).where('w.id', '=', id).forUpdate().executeTakeFirst();
}

/** Serializes creations of the organization's webhooks until the end of the transaction (the limit holds). */
export async function lockWebhookCreation(trx: Executor, organizationId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`webhooks:${organizationId}`}))`.execute(trx);
}

export async function countWebhooks(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('webhooks').where('organizationId', '=', organizationId).select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
  return row.count;
}

export async function insertWebhook(
  db: Executor,
  values: { organizationId: string; id: string; url: string; description: string; enabled: boolean; eventTypes: EventTypes | null; spaceIds: string[] | null; secret: Buffer; createdBy: string | null },
): Promise<WebhookRow> {
  await db.insertInto('webhooks').values(values).execute();
  return (await findWebhook(db, values.organizationId, values.id))!;
}

export async function updateWebhookRow(db: Executor, organizationId: string, id: string, patch: Updateable<WebhooksTable>): Promise<WebhookRow | undefined> {
  await db
    .updateTable('webhooks')
    .set({ ...patch, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .execute();
  return findWebhook(db, organizationId, id);
}

export async function deleteWebhookRow(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The webhook's current sealed secret. */
export async function readSealedSecret(db: Executor, organizationId: string, id: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('webhooks').where('organizationId', '=', organizationId).where('id', '=', id).select('secret').executeTakeFirst();
  return row?.secret;
}

/** Which of `ids` are spaces of the organization (deleted ones included: they may be restored). */
export async function existingSpaceIds(db: Executor, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('spaces').where('organizationId', '=', organizationId).where('id', 'in', ids).select('id').execute();
  return new Set(rows.map((row) => row.id));
}
