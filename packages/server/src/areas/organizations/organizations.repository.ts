import type { Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { OrganizationsTable, Role } from '../../db/schema.js';
import { newId } from '../../ids.js';
import { ORGANIZATION_COLUMNS, type OrganizationRow } from '../../access/standing.repository.js';

export { type MembershipRow, type OrganizationRow } from '../../access/standing.repository.js';

/** Organizations the user is a member of, with their role (for listing); only `onlyOrganizationId` when set. */
export function organizationsOfUserQuery(db: Executor, userId: string, onlyOrganizationId: string | null) {
  return db
    .selectFrom('organizations')
    .innerJoin('organizationMembers as m', 'm.organizationId', 'organizations.id')
    .select([...ORGANIZATION_COLUMNS, 'm.role as memberRole', 'm.sso as memberSso'])
    .where('m.userId', '=', userId)
    .$if(onlyOrganizationId !== null, (qb) => qb.where('organizations.id', '=', onlyOrganizationId!));
}

export async function insertOrganization(
  db: Executor,
  values: { title: string; useCase?: string | null; emailDomains?: string[]; hostname?: string | null; defaultRole?: Role | null },
): Promise<OrganizationRow> {
  return db
    .insertInto('organizations')
    .values({
      id: newId(),
      title: values.title,
      useCase: values.useCase ?? null,
      emailDomains: values.emailDomains ?? [],
      hostname: values.hostname ?? null,
      defaultRole: values.defaultRole === undefined ? 'read' : values.defaultRole,
    })
    .returning(ORGANIZATION_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function updateOrganization(
  db: Executor,
  id: string,
  patch: Updateable<OrganizationsTable>,
): Promise<OrganizationRow | undefined> {
  if (Object.keys(patch).length === 0) {
    return db.selectFrom('organizations').select(ORGANIZATION_COLUMNS).where('id', '=', id).executeTakeFirst();
  }
  return db.updateTable('organizations').set(patch).where('id', '=', id).returning(ORGANIZATION_COLUMNS).executeTakeFirst();
}

export async function isHostnameTaken(db: Executor, hostname: string, exceptOrganizationId?: string): Promise<boolean> {
  let query = db.selectFrom('organizations').select('id').where('hostname', '=', hostname);
  if (exceptOrganizationId) query = query.where('id', '<>', exceptOrganizationId);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * Organizations listing `domain` among their e-mail domains that the user may see: those they are a
 * member of, and, when `domain` is the user's own e-mail domain, those they may join by it; only
 * `onlyOrganizationId` when set.
 */
export async function findOrganizationsForEmailDomain(
  db: Executor,
  domain: string,
  userId: string,
  userDomain: string,
  onlyOrganizationId: string | null,
): Promise<Array<OrganizationRow & { memberRole: Role | null; memberSso: boolean | null; isMember: boolean }>> {
  const rows = await db
    .selectFrom('organizations')
    .leftJoin('organizationMembers as m', (join) => join.onRef('m.organizationId', '=', 'organizations.id').on('m.userId', '=', userId))
    .select([...ORGANIZATION_COLUMNS, 'm.role as memberRole', 'm.sso as memberSso', 'm.userId as memberUserId'])
    .where((eb) => eb(eb.val(domain), '=', eb.fn.any('organizations.emailDomains')))
    .$if(domain !== userDomain, (qb) => qb.where('m.userId', 'is not', null))
    .$if(onlyOrganizationId !== null, (qb) => qb.where('organizations.id', '=', onlyOrganizationId!))
    .orderBy('organizations.createdAt', 'desc')
    .orderBy('organizations.id', 'desc')
    .limit(1000)
    .execute();
  return rows.map(({ memberUserId, ...row }) => ({ ...row, isMember: memberUserId !== null }));
}

export async function insertMember(db: Executor, values: { organizationId: string; userId: string; role: Role | null }): Promise<void> {
  await db.insertInto('organizationMembers').values(values).execute();
}
