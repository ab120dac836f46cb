// Membership changes that need the last-admin rule, and joining an organization. Each runs in one
// transaction that first locks the organization's row, so concurrent demotions or removals of two
// admins cannot both pass the check.
import { inTransaction, type Executor } from '../../db/database.js';
import { countAdmins, deleteMember, insertMemberIfAbsent, lockOrganization, memberRole, updateMember } from './members.repository.js';
import type { Role } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';

const lastAdmin = () => conflict('The organization must keep at least one admin');

/** Sets a member's organization role (null: guest); 409 when it would demote the last admin. Returns the previous role. */
export async function changeMemberRole(db: Executor, organizationId: string, userId: string, role: Role | null): Promise<Role | null> {
  return inTransaction(db, async (trx) => {
    await lockOrganization(trx, organizationId);
    const current = await memberRole(trx, organizationId, userId);
    if (!current) throw notFound('Member');
    if (current.role === 'admin' && role !== 'admin' && (await countAdmins(trx, organizationId)) <= 1) throw lastAdmin();
    await updateMember(trx, organizationId, userId, { role });
    return current.role;
  });
}

/** Removes a member with their grants and team memberships; 409 for the last admin. */
export async function removeMember(db: Executor, organizationId: string, userId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await lockOrganization(trx, organizationId);
    const current = await memberRole(trx, organizationId, userId);
    if (!current) throw notFound('Member');
    if (current.role === 'admin' && (await countAdmins(trx, organizationId)) <= 1) throw lastAdmin();
    await deleteMember(trx, organizationId, userId);
  });
}

/** Makes the user a member with `role`; false when they already were one (their membership is unchanged). */
export async function joinOrganization(db: Executor, organizationId: string, userId: string, role: Role | null): Promise<boolean> {
  return insertMemberIfAbsent(db, { organizationId, userId, role });
}
