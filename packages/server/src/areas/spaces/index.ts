import { sql } from 'kysely';
import { spaceHandlers } from './spaces.handlers.js';
import { memberSpaceHandlers } from './member-spaces.handlers.js';
import { purgeSpacesWorker } from './purge-spaces.job.js';
import { defineArea } from '../area.js';
import { placementRules } from './placement.rules.js';

export const spacesArea = defineArea({
  name: 'spaces',
  handlers: { ...spaceHandlers, ...memberSpaceHandlers },
  tables: {
    spaces: {
      transfer: {
        moves: {
          why: 'The transferred space itself is placed at the end of its new parent and leaves its collection (`in-collection` becomes `private`: docs/design/data-lifecycle.md, "Transfer") and its sites',
          set: (s) => ({
            visibility: sql`CASE WHEN src.id = ${s.rootId} AND src.visibility = 'in-collection' THEN 'private' ELSE src.visibility END`,
            parentCollectionId: sql`CASE WHEN src.id = ${s.rootId} THEN ${s.targetParentId}::text ELSE src.parent_collection_id END`,
            position: sql`CASE WHEN src.id = ${s.rootId} THEN ${s.rootPosition}::numeric ELSE src.position END`,
            inPublishedSite: sql`false`,
            updatedAt: sql`now()`,
          }),
        },
      },
      duplicate: { dropped: 'The duplicate service writes the copy’s own row (a new id, title and position)' },
    },
    spaceLocators: { stays: 'One row per space id, whatever its organization: a transfer points it at the target (removeTransferredSpaces)' },
  },
  events: ['space.created', 'space.updated', 'space.deleted', 'space.restored', 'space.moved', 'space.transferred', 'space.purged'],
  // The purge job deletes the space rows and their locators itself.
  jobs: (context) => [purgeSpacesWorker(context.db, context.lifecycle)],
  rules: placementRules,
  conflicts: { spaces_organization_id_parent_collection_id_fkey: 'The collection was deleted meanwhile' },
});

// What other areas use of this one: the only names they may import (eslint.config.js, boundaries).
export { placeIn, refuseCycle } from './placement.service.js';
export { runTransfer, type TransferTarget, type Transferring } from './transfer.service.js';
export { positionOrder, siblingOrder } from './sibling-order.js';
export { toApiSpace } from './space.mapper.js';
export { findLiveSpaceOrganization, findSpaceRows, softDeleteSpacesInCollections, spaceIdsInCollections } from './spaces.repository.js';
export { UNTITLED, createSpace } from './spaces.service.js';
