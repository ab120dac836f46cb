import { grantHandlers } from './grants.handlers.js';
import { copyGrantsForTransfer } from './grants.repository.js';
import { defineArea } from '../area.js';

/** Grants on spaces and collections. A duplicate starts with only its creator's `admin` grant. */
export const permissionsArea = defineArea({
  name: 'permissions',
  handlers: grantHandlers,
  tables: ['space_grants', 'collection_grants'],
  transfer: [copyGrantsForTransfer],
  purge: 'none',
  duplicate: 'none',
  conflicts: {
    space_grants_organization_id_space_id_fkey: 'The space was removed meanwhile',
    collection_grants_organization_id_collection_id_fkey: 'The collection was deleted meanwhile',
  },
});
