import { collectionHandlers } from './collections.handlers.js';
import { copyCollectionsForTransfer } from './collections.repository.js';
import { defineArea } from '../area.js';

export const collectionsArea = defineArea({
  name: 'collections',
  handlers: collectionHandlers,
  tables: ['collections', 'collection_locators'],
  transfer: [copyCollectionsForTransfer],
  // Collections are never purged: only spaces are (their deleted collections go at once).
  purge: 'none',
  duplicate: 'none',
  events: ['collection.created', 'collection.updated', 'collection.deleted', 'collection.moved', 'collection.transferred'],
  conflicts: { collections_organization_id_parent_collection_id_fkey: 'The parent collection was deleted meanwhile' },
});
