// Webhook writes, one transaction each, each recording its event in it: create (the secret shown once),
// change, delete, secret rotation (the previous secret signs beside the new one for a grace period), a
// test ping, and redelivery.
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import { conflict, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { isPublicAddress } from '../../outbound.js';
import type { Schemas } from '../../schemas.js';
import { recordEvent, type EventActor } from '../events/index.js';
import { failWaitingDeliveries, findDelivery, insertDelivery, requeueDelivery, type DeliveryRow } from './deliveries.repository.js';
import { newSigningSecret, sealSecret } from './webhook-secrets.js';
import { toApiWebhook } from './webhooks.mapper.js';
import {
  countWebhooks,
  deleteWebhookRow,
  existingSpaceIds,
  findWebhook,
  insertWebhook,
  lockWebhook,
  lockWebhookCreation,
  MAX_WEBHOOKS,
  readSealedSecret,
  updateWebhookRow,
  type WebhookRow,
} from './webhooks.repository.js';

type App = Pick<AppContext, 'db' | 'urls' | 'keys' | 'config'>;

/** The default time a rotated-out secret keeps signing. */
export const DEFAULT_GRACE_SECONDS = 86_400;

/**
 * A URL deliveries may go to: no credentials in it, and (unless private addresses are allowed) not an
 * IP address of a private range. Host names are checked at each delivery, when they are resolved.
 */
function checkUrl(url: string, allowPrivate: boolean): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidField('/body/url', 'is not a valid address');
  }
  if (parsed.username || parsed.password) throw invalidField('/body/url', 'may not carry credentials');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && /^[0-9a-fx.:]+$/i.test(host) && !isPublicAddress(host)) throw invalidField('/body/url', 'is a private, loopback or link-local address');
}

/** 404 for a space that is not one of the organization's, as for any id of another organization. */
async function checkSpaces(app: App, organizationId: string, spaceIds: readonly string[] | null | undefined): Promise<void> {
  if (!spaceIds) return;
  const found = await existingSpaceIds(app.db, organizationId, spaceIds);
  if (spaceIds.some((id) => !found.has(id))) throw notFound('Space');
}

const webhookData = (app: App, row: WebhookRow) => ({ object: toApiWebhook(row, app.urls) });

export async function createWebhook(app: App, organizationId: string, actor: EventActor, createdBy: string, body: Schemas['CreateWebhookRequest']) {
  checkUrl(body.url, app.config.outbound.allowPrivate);
  await checkSpaces(app, organizationId, body.spaces);
  const secret = newSigningSecret();
  const row = await inTransaction(app.db, async (trx) => {
    // One creation at a time per organization, so the limit holds under concurrent requests.
    await lockWebhookCreation(trx, organizationId);
    if ((await countWebhooks(trx, organizationId)) >= MAX_WEBHOOKS) throw conflict(`An organization has at most ${MAX_WEBHOOKS} webhooks`);
    const id = newId();
    const created = await insertWebhook(trx, {
      organizationId,
      id,
      url: body.url,
      description: body.description ?? '',
      enabled: body.enabled ?? true,
      eventTypes: body.eventTypes ?? null,
      spaceIds: body.spaces ?? null,
      secret: sealSecret(app.keys.webhookSecrets, organizationId, id, secret),
      createdBy,
    });
    await recordEvent(trx, { type: 'webhook.created', organizationId, actor, data: webhookData(app, created) });
    return created;
  });
  return { row, secret };
}

export async function updateWebhook(app: App, organizationId: string, id: string, actor: EventActor, body: Schemas['UpdateWebhookRequest']): Promise<WebhookRow> {
  if (body.url !== undefined) checkUrl(body.url, app.config.outbound.allowPrivate);
  await checkSpaces(app, organizationId, body.spaces);
  return inTransaction(app.db, async (trx) => {
    const current = await lockWebhook(trx, organizationId, id);
    if (!current) throw notFound('Webhook');
    const enabling = body.enabled === true && !current.enabled;
    const disabling = body.enabled === false && current.enabled;
    const updated = (await updateWebhookRow(trx, organizationId, id, {
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
      ...(body.eventTypes !== undefined ? { eventTypes: body.eventTypes } : {}),
      ...(body.spaces !== undefined ? { spaceIds: body.spaces } : {}),
      ...(enabling ? { disabledReason: null, failingSince: null } : {}),
    }))!;
    if (disabling) await failWaitingDeliveries(trx, organizationId, id);
    await recordEvent(trx, { type: 'webhook.updated', organizationId, actor, data: webhookData(app, updated) });
    return updated;
  });
}

export async function deleteWebhook(app: App, organizationId: string, id: string, actor: EventActor): Promise<void> {
  await inTransaction(app.db, async (trx) => {
    const current = await lockWebhook(trx, organizationId, id);
    if (!current) throw notFound('Webhook');
    await deleteWebhookRow(trx, organizationId, id);
    await recordEvent(trx, { type: 'webhook.deleted', organizationId, actor, data: webhookData(app, current) });
  });
}

/** A new secret; the current one signs beside it for `graceSeconds` (none: it stops at once). */
export async function rotateWebhookSecret(app: App, organizationId: string, id: string, actor: EventActor, graceSeconds: number) {
  const secret = newSigningSecret();
  return inTransaction(app.db, async (trx) => {
    if (!(await lockWebhook(trx, organizationId, id))) throw notFound('Webhook');
    const current = (await readSealedSecret(trx, organizationId, id))!;
    const updated = (await updateWebhookRow(trx, organizationId, id, {
      secret: sealSecret(app.keys.webhookSecrets, organizationId, id, secret),
      previousSecret: graceSeconds > 0 ? current : null,
      previousSecretExpiresAt: graceSeconds > 0 ? new Date(Date.now() + graceSeconds * 1000) : null,
    }))!;
    await recordEvent(trx, { type: 'webhook.updated', organizationId, actor, data: webhookData(app, updated) });
    return { row: updated, secret };
  });
}

/** Records a `webhook.ping` event and queues its delivery to this webhook alone. */
export async function pingWebhook(app: App, organizationId: string, id: string, actor: EventActor): Promise<DeliveryRow> {
  return inTransaction(app.db, async (trx) => {
    if (!(await findWebhook(trx, organizationId, id))) throw notFound('Webhook');
    const eventId = await recordEvent(trx, { type: 'webhook.ping', organizationId, actor, data: { webhook: id } }, { dispatch: false });
    const deliveryId = newId();
    await insertDelivery(trx, { organizationId, id: deliveryId, webhookId: id, eventId });
    return (await findDelivery(trx, organizationId, id, deliveryId))!;
  });
}

/** Queues a delivery again, due at once with its schedule started over. */
export async function redeliver(app: App, organizationId: string, webhookId: string, id: string): Promise<DeliveryRow> {
  if (!(await requeueDelivery(app.db, organizationId, webhookId, id))) throw notFound('Delivery');
  return (await findDelivery(app.db, organizationId, webhookId, id))!;
}
