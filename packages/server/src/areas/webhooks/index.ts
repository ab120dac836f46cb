// Webhooks: an organization's addresses that receive its events (areas/events), signed as Standard
// Webhooks says, sent at least once by a loop on every instance (delivery-worker.ts) from the
// deliveries queue the dispatcher fills (dispatch.ts).
import { defineArea } from '../area.js';
import { webhookDeliveryWorker } from './delivery-worker.js';
import { webhookHandlers } from './webhooks.handlers.js';

const WEBHOOK_OWN = 'An organization’s webhooks and their deliveries: they never follow a space';

export const webhooksArea = defineArea({
  name: 'webhooks',
  handlers: webhookHandlers,
  // Webhooks belong to the organization, not to its spaces: a transferred space leaves them behind
  // (a space list naming it then matches nothing more).
  tables: {
    webhooks: { stays: WEBHOOK_OWN },
    webhookDeliveries: { stays: WEBHOOK_OWN },
    webhookDeliveryAttempts: { stays: WEBHOOK_OWN },
  },
  events: ['webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.disabled', 'webhook.ping'],
  jobs: (context) => [webhookDeliveryWorker(context)],
});
