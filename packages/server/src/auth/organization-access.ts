// The caller's standing in an organization: loaded with the organization in one query, then checked.
import type { Caller } from './authenticate.js';
import type { Executor } from '../db/database.js';
import { findOrganizationWithMembership, type MembershipRow, type OrganizationRow } from '../db/repositories/organizations.repository.js';
import { forbidden, notFound } from '../http/errors.js';
import { roleAtLeast, type Role } from './roles.js';

export type OrganizationAccess = {
  organization: OrganizationRow;
  membership: MembershipRow;
  /** The member's organization role; null for a guest. */
  role: Role | null;
};

/** The organization, when the caller is a member (guests included); 404 otherwise. */
export async function requireOrganizationMember(db: Executor, caller: Caller, organizationId: string): Promise<OrganizationAccess> {
  const found = await findOrganizationWithMembership(db, organizationId, caller.user.id);
  if (!found?.membership) throw notFound('Organization');
  return { organization: found.organization, membership: found.membership, role: found.membership.role };
}

/** 403 unless the member's organization role is at least `minimum`. */
export function requireOrganizationRole(access: OrganizationAccess, minimum: Role): void {
  if (!roleAtLeast(access.role, minimum)) throw forbidden(`This needs the organization role "${minimum}"`);
}

/** 403 for guests. */
export function requireNonGuest(access: OrganizationAccess): void {
  if (access.role === null) throw forbidden('Guests may not do this');
}
