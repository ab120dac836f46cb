// Grants on spaces and collections through the API: the principal is checked against the item's
// organization, and the check and the write share one transaction (see lockPrincipal).
import { inTransaction, type Executor } from '../../db/database.js';
import {
  deleteGrant,
  findGrant,
  insertGrant,
  lockPrincipal,
  updateGrantRole,
  type GrantTarget,
  type GrantViewRow,
  type Principal,
} from './grants.repository.js';
import type { Role } from '../../db/schema.js';
import { conflict, invalidField, notFound } from '../../errors.js';

/** Adds a grant (201); 400 naming the field for a principal outside the organization, 409 when it already holds one. */
export async function addGrant(db: Executor, target: GrantTarget, principal: Principal, role: Role, callerId: string): Promise<GrantViewRow> {
  await inTransaction(db, async (trx) => {
    if (!(await lockPrincipal(trx, target.organizationId, principal))) {
      throw principal.kind === 'user'
        ? invalidField('/body/user', 'is not a member of this organization')
        : invalidField('/body/team', 'is not a team of this organization');
    }
    if (!(await insertGrant(trx, target, principal, role))) {
      throw conflict(`This ${principal.kind} already holds a grant on this ${target.kind}: change it with PATCH`);
    }
  });
  return (await findGrant(db, target, principal, callerId))!;
}

export async function changeGrant(db: Executor, target: GrantTarget, principal: Principal, role: Role, callerId: string): Promise<GrantViewRow> {
  if (!(await updateGrantRole(db, target, principal, role))) throw notFound('Grant');
  return (await findGrant(db, target, principal, callerId))!;
}

export async function revokeGrant(db: Executor, target: GrantTarget, principal: Principal): Promise<void> {
  if (!(await deleteGrant(db, target, principal))) throw notFound('Grant');
}
