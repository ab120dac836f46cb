import type { Role } from '../db/schema.js';

export type { Role };

/** Lowest to highest. */
export const ROLES: readonly Role[] = ['read', 'comment', 'edit', 'review', 'create', 'admin'];

const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

/** True when `role` is at least `minimum`; no role is never enough. */
export function roleAtLeast(role: Role | null | undefined, minimum: Role): boolean {
  return role != null && RANK[role] >= RANK[minimum];
}

/** The highest of the given roles, or null when there is none. */
export function highestRole(...roles: Array<Role | null | undefined>): Role | null {
  let best: Role | null = null;
  for (const role of roles) if (role != null && (best === null || RANK[role] > RANK[best])) best = role;
  return best;
}

export function roleRank(role: Role | null | undefined): number {
  return role == null ? 0 : RANK[role];
}
