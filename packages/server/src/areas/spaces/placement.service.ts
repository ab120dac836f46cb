// Where a space or collection goes when created or moved inside its organization: the parent's access
// rule (docs/design/access-model.md, "Rules": `create` on the target collection, or the `create` organization role at the top
// level) and its position among the parent's children.
import type { components } from '@content-workspace/contract';
import { requireCollection } from '../../access/items.js';
import type { Caller } from '../../auth/authenticate.js';
import { createInParentRole } from '../../access/permissions.js';
import { roleAtLeast, type Role } from '../../access/roles.js';
import type { AccessReader } from '../../access/viewer.js';
import type { Executor } from '../../db/database.js';
import { collectionAncestry, positionAtEnd, positionNextTo, type SiblingRef } from './positions.repository.js';
import { forbidden, invalidField, notFound, preconditionFailed } from '../../errors.js';

type Position = components['schemas']['Position'];
type PositionReference = components['schemas']['PositionReference'];

export type Placement = { parentId: string | null; position: string };

/** 404 unless `parentId` is a collection of the organization the caller can see; 403 below `create`. */
export async function requireTargetParent(
  app: AccessReader,
  caller: Caller,
  organizationId: string,
  parentId: string | null,
  organizationRole: Role | null | undefined,
): Promise<void> {
  if (parentId === null) {
    if (!roleAtLeast(organizationRole, 'create')) throw forbidden('Creating at the top level needs the "create" organization role');
    return;
  }
  const target = await requireCollection(app, caller, parentId, 'read');
  if (target.collection.organizationId !== organizationId) throw notFound('Collection');
  if (!roleAtLeast(target.role, createInParentRole)) throw forbidden(`This needs the "${createInParentRole}" role on the target collection`);
}

function toSibling(reference: PositionReference): SiblingRef {
  return 'space' in reference ? { type: 'space', id: reference.space } : { type: 'collection', id: reference.collection };
}

/** The position for `position` (before/after a sibling in `parentId`), or the end when omitted. */
export async function placeIn(
  db: Executor,
  organizationId: string,
  parentId: string | null,
  position: Position | undefined,
  movingId?: string,
): Promise<string> {
  if (!position) return positionAtEnd(db, organizationId, parentId);
  const side = position.before ? 'before' : 'after';
  const reference = position.before ?? position.after;
  if (!reference) throw invalidField('/body/position', 'must have exactly one of before and after');
  if (movingId && toSibling(reference).id === movingId) throw invalidField(`/body/position/${side}`, 'cannot be the item being moved');
  const placed = await positionNextTo(db, organizationId, parentId, toSibling(reference), side, movingId);
  if (placed === undefined) throw invalidField(`/body/position/${side}`, 'must name a sibling in the target parent');
  return placed;
}

/** 412 when `parentId` is `collectionId` itself or one of its descendants. */
export async function refuseCycle(db: Executor, organizationId: string, collectionId: string, parentId: string | null): Promise<void> {
  if (parentId === null) return;
  const ancestry = await collectionAncestry(db, organizationId, parentId);
  if (ancestry.includes(collectionId)) throw preconditionFailed('A collection cannot move into itself or one of its descendants');
}

/**
 * The parent a move goes to (`parent` omitted: stays put; null: the top level), checked when it
 * changes: `create` on the target collection, or the `create` organization role at the top level.
 */
export async function resolveMoveTarget(
  app: AccessReader,
  caller: Caller,
  item: { organizationId: string; parentCollectionId: string | null },
  organizationRole: Role | null | undefined,
  parent: string | null | undefined,
): Promise<string | null> {
  const parentId = parent === undefined ? item.parentCollectionId : parent;
  if (parentId !== item.parentCollectionId) await requireTargetParent(app, caller, item.organizationId, parentId, organizationRole);
  return parentId;
}
