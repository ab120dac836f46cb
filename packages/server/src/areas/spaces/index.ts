import { spaceHandlers } from './spaces.handlers.js';
import { copySpacesForTransfer } from './spaces.repository.js';
import { purgeSpacesWorker } from './purge-spaces.job.js';
import { defineArea } from '../area.js';
import { placementRules } from './placement.rules.js';

export const spacesArea = defineArea({
  name: 'spaces',
  handlers: spaceHandlers,
  tables: ['spaces', 'space_locators'],
  transfer: [copySpacesForTransfer],
  // The purge job deletes the space rows and their locators itself.
  purge: 'none',
  // The duplicate service writes the copy's space row.
  duplicate: 'none',
  events: ['space.created', 'space.updated', 'space.deleted', 'space.restored', 'space.moved', 'space.transferred'],
  jobs: (context) => [purgeSpacesWorker(context.db, context.lifecycle)],
  rules: placementRules,
  conflicts: { spaces_organization_id_parent_collection_id_fkey: 'The collection was deleted meanwhile' },
});
