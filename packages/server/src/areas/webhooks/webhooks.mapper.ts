import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';
import type { AttemptRow, DeliveryRow } from './deliveries.repository.js';
import type { WebhookRow } from './webhooks.repository.js';

const webhookPath = (organizationId: string, webhookId: string) => `/v1/orgs/${organizationId}/webhooks/${webhookId}`;

/** The webhook as the API shows it (never its secrets). */
export function toApiWebhook(row: WebhookRow, urls: Urls, now = new Date()): Schemas['Webhook'] {
  const location = urls.api(webhookPath(row.organizationId, row.id));
  return {
    object: 'webhook',
    id: row.id,
    url: row.url,
    description: row.description,
    enabled: row.enabled,
    ...(row.disabledReason ? { disabledReason: row.disabledReason } : {}),
    eventTypes: row.eventTypes,
    spaces: row.spaceIds,
    ...(row.failingSince ? { failingSince: row.failingSince.toISOString() } : {}),
    ...(row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? { previousSecretExpiresAt: row.previousSecretExpiresAt.toISOString() } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    urls: { location, deliveries: `${location}/deliveries` },
  };
}

function toApiAttempt(row: AttemptRow): Schemas['WebhookDeliveryAttempt'] {
  return {
    attempt: row.attempt,
    startedAt: row.startedAt.toISOString(),
    durationMs: row.durationMs,
    ...(row.statusCode !== null ? { statusCode: row.statusCode } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
    ...(row.response !== null ? { response: row.response } : {}),
  };
}

/** A delivery with its latest attempts; one being sent shows as `pending`. */
export function toApiDelivery(row: DeliveryRow, attempts: readonly AttemptRow[], urls: Urls): Schemas['WebhookDelivery'] {
  const status = row.state === 'sending' ? 'pending' : row.state;
  return {
    object: 'webhook-delivery',
    id: row.id,
    webhook: row.webhookId,
    event: row.eventId,
    eventType: row.eventType,
    status,
    ...(status === 'pending' && row.nextAttemptAt ? { nextAttemptAt: row.nextAttemptAt.toISOString() } : {}),
    attempts: attempts.map(toApiAttempt),
    createdAt: row.createdAt.toISOString(),
    urls: {
      location: urls.api(`${webhookPath(row.organizationId, row.webhookId)}/deliveries/${row.id}`),
      event: urls.api(`/v1/orgs/${row.organizationId}/events/${row.eventId}`),
    },
  };
}
