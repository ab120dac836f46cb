// Transfer of a space or a collection (with everything inside it) to another organization, or to
// another collection of the same one (then it is a move). Across organizations the lifecycle copies
// every moved row under the target organization, as each area's table declarations say, and runs the
// areas' transfer steps (areas/lifecycle.ts); then the originals are deleted (docs/design/data-lifecycle.md, "Tenancy": the distribution
// column is never updated), in one transaction.
import type { components } from '@content-workspace/contract';
import { requireCollection } from '../../access/items.js';
import type { AccessReader } from '../../access/viewer.js';
import type { Caller } from '../../auth/authenticate.js';
import { requireOrganizationMember, requireOrganizationRole } from '../../access/organization.js';
import { roleAtLeast } from '../../access/roles.js';
import { inTransaction, type Executor } from '../../db/database.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { removeTransferredSpaces } from './spaces.repository.js';
import { positionAtEnd } from './positions.repository.js';
import { conflict, forbidden, preconditionFailed } from '../../errors.js';
import type { AppContext } from '../../context.js';
import type { TransferScope, TransferServices } from '../area.js';
import { moveSpace } from './spaces.service.js';

type TransferRequest = components['schemas']['TransferRequest'];

type ScopeBase = Omit<TransferScope, 'rootPosition' | 'collectionIds' | 'spaceIds'>;

/** What a transfer uses: the database, every area's steps, and what the steps use (area.ts TransferServices). */
export type Transferring = Pick<AppContext, 'db' | 'lifecycle'> & TransferServices;

/**
 * Runs every step and removes the originals in one transaction; `contents` lists what moves, read
 * inside it, and `removeCollections` removes the moved collections after their spaces (the collections
 * area passes it: spaces know nothing of the collections area, which builds on them).
 */
export async function runTransfer(
  app: Transferring,
  scope: ScopeBase,
  contents: (trx: Executor) => Promise<Pick<TransferScope, 'collectionIds' | 'spaceIds'>>,
  removeCollections?: (trx: Executor, scope: TransferScope) => Promise<void>,
): Promise<void> {
  await inTransaction(app.db, async (trx) => {
    const rootPosition = await positionAtEnd(trx, scope.to, scope.targetParentId);
    const full = { ...scope, ...(await contents(trx)), rootPosition };
    await app.lifecycle.transfer(trx, full, app);
    await removeTransferredSpaces(trx, full);
    await removeCollections?.(trx, full);
  });
}

/**
 * The target of a transfer, checked: the organization (404 when the caller is not a member, 403 below
 * admin) and the collection (404 when not visible, 412 when outside the target organization, 403
 * below `create`).
 */
export type TransferTarget = { organizationId: string; parentId: string | null };

export async function resolveTransferTarget(app: AccessReader, caller: Caller, body: TransferRequest): Promise<TransferTarget> {
  const target = await requireOrganizationMember(app.db, caller, body.organization);
  requireOrganizationRole(target, 'admin');
  if (!body.collection) return { organizationId: target.organization.id, parentId: null };
  const collection = await requireCollection(app, caller, body.collection, 'read');
  if (collection.collection.organizationId !== target.organization.id) {
    throw preconditionFailed('The target collection is not in the target organization');
  }
  if (!roleAtLeast(collection.role, 'create')) throw forbidden('This needs the "create" role on the target collection');
  return { organizationId: target.organization.id, parentId: collection.collection.id };
}

/** Transfers the space to `target` (checked by the `transfer-target` access rule). */
export async function transferSpace(app: Transferring, space: SpaceRow, target: TransferTarget): Promise<{ organizationId: string }> {
  if (target.organizationId === space.organizationId) {
    if (target.parentId === space.parentCollectionId) throw conflict('The space is already there');
    await moveSpace(app.db, space, target.parentId, undefined);
  } else {
    await runTransfer(
      app,
      { from: space.organizationId, to: target.organizationId, rootId: space.id, targetParentId: target.parentId },
      async () => ({ collectionIds: [], spaceIds: [space.id] }),
    );
  }
  return { organizationId: target.organizationId };
}
