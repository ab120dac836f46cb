// The organization's events (its audit log): a page of them, and one.
import { keysetPage } from '../../db/pagination.js';
import { invalidField, notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { eventsQuery, findEvent } from './events.repository.js';
import { toApiEvent } from './events.mapper.js';

/** A time bound of the query, as a date (400 for a time that does not exist, such as a 13th month). */
function timeBound(value: string | undefined, name: string): string | undefined {
  if (value !== undefined && Number.isNaN(Date.parse(value))) throw invalidField(`/query/${name}`, 'is not a valid time');
  return value;
}

export const eventHandlers = {
  async listEvents({ access, query, app }) {
    const organizationId = access.organization.id;
    const filters = { types: query.type, spaceId: query.space, since: timeBound(query.since, 'since'), until: timeBound(query.until, 'until') };
    const page = await keysetPage(app.db, eventsQuery(app.db, organizationId, filters), {
      keys: [
        { column: 'e.createdAt', direction: 'desc', value: (row) => row.createdAt },
        { column: 'e.seq', direction: 'desc', value: (row) => row.seq },
      ],
      request: query,
      list: { operation: 'listEvents', within: organizationId, filters: [query.type ?? null, query.space ?? null, query.since ?? null, query.until ?? null] },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map(toApiEvent) } };
  },

  async getEventById({ access, params, app }) {
    const event = await findEvent(app.db, access.organization.id, params.eventId);
    if (!event) throw notFound('Event');
    return { status: 200, body: toApiEvent(event) };
  },
} satisfies AreaHandlers;
