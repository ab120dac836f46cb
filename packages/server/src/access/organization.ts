// The caller's standing in an organization: loaded with the organization in one query, then checked.
import type { Caller } from '../auth/authenticate.js';
import type { Executor } from '../db/database.js';
import { findOrganizationWithMembership, type MembershipRow, type OrganizationRow, type Standing } from './standing.repository.js';
import { forbidden, notFound } from '../errors.js';
import { roleAtLeast, type Role } from './roles.js';
import { outsideScope } from '../auth/token-scope.js';

export type OrganizationAccess = {
  organization: OrganizationRow;
  membership: MembershipRow;
  /** The member's organization role; null for a guest. */
  role: Role | null;
  /** The same standing as a Standing, read in the same query: lists build their viewer from it (access/viewer.ts). */
  standing: Standing;
};

/**
 * The organization with the caller's membership (undefined when not a member); undefined when it does
 * not exist or lies outside the caller's token scope (auth/token-scope.ts).
 */
export async function findVisibleOrganization(
  db: Executor,
  caller: Caller,
  organizationId: string,
): Promise<{ organization: OrganizationRow; membership: MembershipRow | undefined; listingVersion: number } | undefined> {
  if (outsideScope(caller, organizationId)) return undefined;
  return findOrganizationWithMembership(db, organizationId, caller.user.id);
}

/** The organization, when the caller is a member (guests included); 404 otherwise. */
export async function requireOrganizationMember(db: Executor, caller: Caller, organizationId: string): Promise<OrganizationAccess> {
  const found = await findVisibleOrganization(db, caller, organizationId);
  if (!found?.membership) throw notFound('Organization');
  return memberAccess(found, found.membership);
}

/** The access of a member of an organization found by findVisibleOrganization. */
export function memberAccess(
  found: { organization: OrganizationRow; listingVersion: number },
  membership: MembershipRow,
): OrganizationAccess {
  const { organization, listingVersion } = found;
  return {
    organization,
    membership,
    role: membership.role,
    standing: { organizationId: organization.id, listingVersion, organizationSso: organization.sso, memberRole: membership.role, isMember: true, memberSso: membership.sso },
  };
}

/** 403 unless the member's organization role is at least `minimum`. */
export function requireOrganizationRole(access: OrganizationAccess, minimum: Role): void {
  if (!roleAtLeast(access.role, minimum)) throw forbidden(`This needs the organization role "${minimum}"`);
}

/**
 * The SSO rule, written once (docs/design/access-model.md, "Standings"): in an organization that enforces single sign-on, a member
 * who is neither an SSO member nor an admin is disabled — its content (spaces, collections, sites, …)
 * is closed to them. The item resolver applies it through the standing (access/viewer.ts), the
 * `sso-enforced` access rule and the permissions objects through `isEnabledMember`.
 */
export function ssoDisables(organizationSso: boolean, member: { role: Role | null; sso: boolean }): boolean {
  return organizationSso && !member.sso && member.role !== 'admin';
}

export function isMemberDisabled(organization: Pick<OrganizationRow, 'sso'>, membership: MembershipRow): boolean {
  return ssoDisables(organization.sso, membership);
}

export function isEnabledMember(access: Pick<OrganizationAccess, 'organization' | 'membership'>): boolean {
  return !isMemberDisabled(access.organization, access.membership);
}

/** What a disabled member is told. */
export const SSO_REQUIRED = 'This organization requires single sign-on: sign in through its SAML provider';
