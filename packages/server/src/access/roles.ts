import type { Role } from '../db/schema.js';

export type { Role };

/**
 * The roles, lowest to highest: the one place their order is written. A role's rank is its place here
 * (1 to 6; no role ranks 0). The database ranks them too (`cw_role_rank`, in the spaces_and_access
 * migration, which imports no app code): test/structure/roles.test.ts ties it to this list.
 */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const satisfies readonly Role[];

const RANK = Object.fromEntries(ROLES.map((role, i) => [role, i + 1])) as Record<Role, number>;

/** True when `role` is at least `minimum`; no role is never enough. */
export function roleAtLeast(role: Role | null | undefined, minimum: Role): boolean {
  return role != null && RANK[role] >= RANK[minimum];
}

export function roleRank(role: Role | null | undefined): number {
  return role == null ? 0 : RANK[role];
}

/** The role of rank `rank` (as the SQL rank expressions compute it), or null for 0. */
export function rankToRole(rank: number): Role | null {
  return ROLES[rank - 1] ?? null;
}
