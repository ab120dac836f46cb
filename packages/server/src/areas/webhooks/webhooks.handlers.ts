// Webhooks of an organization (admins only, declared in the spec): CRUD, secret rotation, a test ping,
// the delivery log and redelivery.
import { keysetPage, newestFirst, organizationObjectsPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { actorOf } from '../events/index.js';
import { attemptsOf, deliveriesQuery, findDelivery } from './deliveries.repository.js';
import { toApiDelivery, toApiWebhook } from './webhooks.mapper.js';
import { findWebhook, webhooksQuery } from './webhooks.repository.js';
import { createWebhook, DEFAULT_GRACE_SECONDS, deleteWebhook, pingWebhook, redeliver, rotateWebhookSecret, updateWebhook } from './webhooks.service.js';

export const webhookHandlers = {
  async listWebhooks({ access, query, app }) {
    const organizationId = access.organization.id;
    const page = await organizationObjectsPage(app.db, app.cursors, webhooksQuery(app.db, organizationId), { alias: 'w', operation: 'listWebhooks', organizationId, request: query });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiWebhook(row, app.urls)) } };
  },

  async createWebhook({ caller, access, body, app }) {
    const { row, secret } = await createWebhook(app, access.organization.id, actorOf(caller, app.urls), caller.user.id, body);
    const { disabledReason: _reason, failingSince: _failing, previousSecretExpiresAt: _previous, ...webhook } = toApiWebhook(row, app.urls);
    return { status: 201, body: { ...webhook, secret } };
  },

  async getWebhookById({ access, params, app }) {
    const webhook = await findWebhook(app.db, access.organization.id, params.webhookId);
    if (!webhook) throw notFound('Webhook');
    return { status: 200, body: toApiWebhook(webhook, app.urls) };
  },

  async updateWebhookById({ caller, access, params, body, app }) {
    const updated = await updateWebhook(app, access.organization.id, params.webhookId, actorOf(caller, app.urls), body);
    return { status: 200, body: toApiWebhook(updated, app.urls) };
  },

  async deleteWebhookById({ caller, access, params, app }) {
    await deleteWebhook(app, access.organization.id, params.webhookId, actorOf(caller, app.urls));
    return { status: 205 };
  },

  async rotateWebhookSecret({ caller, access, params, body, app }) {
    const grace = body?.gracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
    const { row, secret } = await rotateWebhookSecret(app, access.organization.id, params.webhookId, actorOf(caller, app.urls), grace);
    const previousSecretExpiresAt = toApiWebhook(row, app.urls).previousSecretExpiresAt;
    return { status: 200, body: { object: 'webhook-secret', webhook: row.id, secret, ...(previousSecretExpiresAt ? { previousSecretExpiresAt } : {}) } };
  },

  async pingWebhook({ caller, access, params, app }) {
    const delivery = await pingWebhook(app, access.organization.id, params.webhookId, actorOf(caller, app.urls));
    return { status: 202, body: toApiDelivery(delivery, [], app.urls) };
  },

  async listWebhookDeliveries({ access, params, query, app }) {
    const organizationId = access.organization.id;
    if (!(await findWebhook(app.db, organizationId, params.webhookId))) throw notFound('Webhook');
    const page = await keysetPage(app.db, deliveriesQuery(app.db, organizationId, params.webhookId, query.status), {
      keys: newestFirst('d'),
      request: query,
      list: { operation: 'listWebhookDeliveries', within: params.webhookId, filters: [query.status ?? null] },
      cursors: app.cursors,
    });
    const attempts = await attemptsOf(app.db, organizationId, page.items.map((row) => row.id));
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiDelivery(row, attempts.get(row.id)!, app.urls)) } };
  },

  async getWebhookDeliveryById({ access, params, app }) {
    const organizationId = access.organization.id;
    const delivery = await findDelivery(app.db, organizationId, params.webhookId, params.webhookDeliveryId);
    if (!delivery) throw notFound('Delivery');
    const attempts = await attemptsOf(app.db, organizationId, [delivery.id]);
    return { status: 200, body: toApiDelivery(delivery, attempts.get(delivery.id)!, app.urls) };
  },

  async redeliverWebhookDelivery({ access, params, app }) {
    const organizationId = access.organization.id;
    const delivery = await redeliver(app, organizationId, params.webhookId, params.webhookDeliveryId);
    const attempts = await attemptsOf(app.db, organizationId, [delivery.id]);
    return { status: 202, body: toApiDelivery(delivery, attempts.get(delivery.id)!, app.urls) };
  },
} satisfies AreaHandlers;
