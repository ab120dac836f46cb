// Organization members as the API shows them: the membership, the user, and the exact counters
// (teams; spaces held through a direct or team grant), all in one query for a whole page.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { Role } from '../../db/schema.js';
import { membersQuery, type MemberRow } from '../../access/principals.repository.js';
import { containsPattern } from '../../db/contains-pattern.js';

export type MemberFilters = { role?: Role | 'guest' | undefined; search?: string | undefined; seenOnly?: boolean };

export function filteredMembersQuery(db: Executor, organizationId: string, filters: MemberFilters) {
  let query = membersQuery(db, organizationId);
  if (filters.role === 'guest') query = query.where('m.role', 'is', null);
  else if (filters.role) query = query.where('m.role', '=', filters.role);
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    query = query.where((eb) => eb.or([eb('u.displayName', 'ilike', pattern), eb('u.email', 'ilike', pattern)]));
  }
  if (filters.seenOnly) query = query.where('m.lastSeenAt', 'is not', null);
  return query;
}

export async function findMember(db: Executor, organizationId: string, userId: string): Promise<MemberRow | undefined> {
  return membersQuery(db, organizationId).where('m.userId', '=', userId).executeTakeFirst();
}

/**
 * Members among the given user ids and e-mail addresses (case-insensitive), for checking the users a
 * request names: `byId` holds the ids that are members, `byEmail` maps lowercased e-mails to user ids.
 * Inside a transaction the membership rows stay locked (FOR SHARE) until it ends, so the members cannot
 * be removed meanwhile.
 */
export async function lockMembers(
  trx: Executor,
  organizationId: string,
  refs: { ids: string[]; emails: string[] },
): Promise<{ byId: Set<string>; byEmail: Map<string, string> }> {
  if (refs.ids.length === 0 && refs.emails.length === 0) return { byId: new Set(), byEmail: new Map() };
  const emails = refs.emails.map((email) => email.toLowerCase());
  const rows = await trx
    .selectFrom('organizationMembers as m')
    .innerJoin('users as u', 'u.id', 'm.userId')
    .select(['m.userId', sql<string>`lower(u.email)`.as('email')])
    .where('m.organizationId', '=', organizationId)
    .where((eb) =>
      eb.or([
        ...(refs.ids.length ? [eb('m.userId', 'in', refs.ids)] : []),
        ...(emails.length ? [eb(sql<string>`lower(u.email)`, 'in', emails)] : []),
      ]),
    )
    .forShare('m')
    .execute();
  const idSet = new Set(refs.ids);
  const emailSet = new Set(emails);
  return {
    byId: new Set(rows.filter((row) => idSet.has(row.userId)).map((row) => row.userId)),
    byEmail: new Map(rows.filter((row) => emailSet.has(row.email)).map((row) => [row.email, row.userId])),
  };
}

/** Adds the user as a member with `role` (and `sso`) unless they already are one; true when added. */
export async function insertMemberIfAbsent(
  db: Executor,
  values: { organizationId: string; userId: string; role: Role | null; sso?: boolean },
): Promise<boolean> {
  const result = await db
    .insertInto('organizationMembers')
    .values(values)
    .onConflict((oc) => oc.columns(['organizationId', 'userId']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Locks the organization's row for the rest of the transaction: membership changes that must see
 * every admin (the last-admin rule) take it first, so two of them never both pass the check.
 */
export async function lockOrganization(trx: Executor, organizationId: string): Promise<void> {
  await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute();
}

export async function countAdmins(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('organizationMembers')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organizationId', '=', organizationId)
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The member's role (undefined when not a member), read under the caller's lock. */
export async function memberRole(db: Executor, organizationId: string, userId: string): Promise<{ role: Role | null } | undefined> {
  return db
    .selectFrom('organizationMembers')
    .select('role')
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .executeTakeFirst();
}

/** The membership, locked (FOR UPDATE) until the caller's transaction ends; undefined for a non-member. */
export async function lockMembership(trx: Executor, organizationId: string, userId: string): Promise<{ role: Role | null; sso: boolean } | undefined> {
  return trx
    .selectFrom('organizationMembers')
    .select(['role', 'sso'])
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateMember(
  db: Executor,
  organizationId: string,
  userId: string,
  patch: { role?: Role | null; sso?: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable('organizationMembers')
    .set(patch)
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function touchLastSeen(db: Executor, organizationId: string, userId: string): Promise<void> {
  await db
    .updateTable('organizationMembers')
    .set({ lastSeenAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .execute();
}

/**
 * Removes the membership with the user's grants and team memberships in the organization. Grants are
 * polymorphic (no foreign key to the user), so they are deleted here explicitly; run in a transaction.
 */
export async function deleteMember(trx: Executor, organizationId: string, userId: string): Promise<boolean> {
  await trx.deleteFrom('spaceGrants').where('organizationId', '=', organizationId).where('principalKind', '=', 'user').where('principalId', '=', userId).execute();
  await trx
    .deleteFrom('collectionGrants')
    .where('organizationId', '=', organizationId)
    .where('principalKind', '=', 'user')
    .where('principalId', '=', userId)
    .execute();
  await trx.deleteFrom('teamMembers').where('organizationId', '=', organizationId).where('userId', '=', userId).execute();
  const result = await trx.deleteFrom('organizationMembers').where('organizationId', '=', organizationId).where('userId', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
