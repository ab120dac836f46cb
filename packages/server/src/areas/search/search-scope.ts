// The organization search's scope: the spaces its member reads, as a condition on the space row that
// the search statement evaluates itself (the lists' expression, docs/design/access-model.md) — never a filter after.
import { sql } from 'kysely';
import type { Viewer } from '../../access/listing.repository.js';
import { spaceRankExpression } from '../../access/listing.repository.js';
import type { SearchScope } from '../../content/search/search.js';

export function readableSpacesOf(viewer: Viewer): SearchScope {
  return { kind: 'organization', organizationId: viewer.organizationId, readable: sql<boolean>`${spaceRankExpression(viewer)} > 0` };
}
