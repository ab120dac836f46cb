import type { Executor } from '../database.js';
import type { PrincipalKind, Role } from '../schema.js';

export type GrantTarget = { kind: 'space' | 'collection'; organizationId: string; id: string };

/** Sets the role of a user or team on a space or collection (replacing any earlier grant). */
export async function upsertGrant(db: Executor, target: GrantTarget, principal: { kind: PrincipalKind; id: string }, role: Role): Promise<void> {
  const base = { organizationId: target.organizationId, principalKind: principal.kind, principalId: principal.id, role };
  if (target.kind === 'space') {
    await db
      .insertInto('spaceGrants')
      .values({ ...base, spaceId: target.id })
      .onConflict((oc) => oc.columns(['organizationId', 'spaceId', 'principalKind', 'principalId']).doUpdateSet({ role }))
      .execute();
  } else {
    await db
      .insertInto('collectionGrants')
      .values({ ...base, collectionId: target.id })
      .onConflict((oc) => oc.columns(['organizationId', 'collectionId', 'principalKind', 'principalId']).doUpdateSet({ role }))
      .execute();
  }
}
