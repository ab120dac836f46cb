import { sql } from 'kysely';
import { collectionHandlers } from './collections.handlers.js';
import { defineArea } from '../area.js';

// Collections are never purged: only spaces are (their deleted collections go at once).
export const collectionsArea = defineArea({
  name: 'collections',
  handlers: collectionHandlers,
  tables: {
    collections: {
      transfer: {
        moves: {
          why: 'The transferred collection is placed at the end of its new parent; those inside keep theirs',
          set: (s) => ({
            parentCollectionId: sql`CASE WHEN src.id = ${s.rootId} THEN ${s.targetParentId}::text ELSE src.parent_collection_id END`,
            position: sql`CASE WHEN src.id = ${s.rootId} THEN ${s.rootPosition}::numeric ELSE src.position END`,
            updatedAt: sql`now()`,
          }),
        },
      },
      duplicate: { dropped: 'A duplicate copies a space, never the collections around it' },
    },
    collectionLocators: { stays: 'One row per collection id, whatever its organization: a transfer points it at the target (removeTransferredCollections)' },
  },
  events: ['collection.created', 'collection.updated', 'collection.deleted', 'collection.moved', 'collection.transferred'],
  conflicts: { collections_organization_id_parent_collection_id_fkey: 'The parent collection was deleted meanwhile' },
});
