// Events: what changed in an organization, recorded in the change's own transaction (record.ts) by the
// areas that make the changes; listed and read here, pruned after the retention period. Other areas
// record through this file's exports.
import { defineArea } from '../area.js';
import { eventHandlers } from './events.handlers.js';
import { pruneEventsWorker } from './prune-events.job.js';

export { actorOf, recordEvent, recordEvents, SYSTEM_ACTOR, type EventActor, type EventType, type NewEvent } from './record.js';
export { eventJson } from './events.mapper.js';

export const eventsArea = defineArea({
  name: 'events',
  handlers: eventHandlers,
  tables: {
    // The audit log stays with the organization it happened in: a transferred space's earlier events
    // remain its former organization's (the transfer itself is recorded in both). Events outlive the
    // spaces they are about (no foreign key to spaces); retention prunes them.
    events: { stays: 'The organization’s audit log: what happened there stays there' },
  },
  jobs: (context) => [pruneEventsWorker(context.db, context.config.events.retentionDays)],
});
