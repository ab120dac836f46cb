// Grants: a role for a user or a team on a space or collection. Principals are polymorphic (no foreign
// key), so whoever deletes a user's membership or a team deletes their grants too.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { PrincipalKind, Role } from '../../db/schema.js';
import { teamExtraColumns } from '../../access/principals.repository.js';

export type GrantTarget = { kind: 'space' | 'collection'; organizationId: string; id: string };
export type Principal = { kind: PrincipalKind; id: string };

/** Sets the role of a user or team on a space or collection (replacing any earlier grant). */
export async function upsertGrant(db: Executor, target: GrantTarget, principal: Principal, role: Role): Promise<void> {
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

/** Adds a grant; false when the principal already holds one on the item (nothing changed). */
export async function insertGrant(db: Executor, target: GrantTarget, principal: Principal, role: Role): Promise<boolean> {
  const base = { organizationId: target.organizationId, principalKind: principal.kind, principalId: principal.id, role };
  const result =
    target.kind === 'space'
      ? await db
          .insertInto('spaceGrants')
          .values({ ...base, spaceId: target.id })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
      : await db
          .insertInto('collectionGrants')
          .values({ ...base, collectionId: target.id })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

function grantTable(target: GrantTarget) {
  return target.kind === 'space'
    ? { table: sql.table('space_grants'), column: sql.ref('space_id') }
    : { table: sql.table('collection_grants'), column: sql.ref('collection_id') };
}

/** Changes an existing grant's role; false when there is none. */
export async function updateGrantRole(db: Executor, target: GrantTarget, principal: Principal, role: Role): Promise<boolean> {
  const { table, column } = grantTable(target);
  const result = await sql`
    UPDATE ${table} SET role = ${role}
    WHERE organization_id = ${target.organizationId} AND ${column} = ${target.id}
      AND principal_kind = ${principal.kind} AND principal_id = ${principal.id}`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

export async function deleteGrant(db: Executor, target: GrantTarget, principal: Principal): Promise<boolean> {
  const { table, column } = grantTable(target);
  const result = await sql`
    DELETE FROM ${table}
    WHERE organization_id = ${target.organizationId} AND ${column} = ${target.id}
      AND principal_kind = ${principal.kind} AND principal_id = ${principal.id}`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/**
 * True when the principal can hold a grant in the organization: a member (guests included) or a team
 * of it. Inside a transaction, the row stays locked (FOR SHARE) so a concurrent removal of the member
 * or team, which deletes their grants, waits for the grant being added.
 */
export async function lockPrincipal(trx: Executor, organizationId: string, principal: Principal): Promise<boolean> {
  const row =
    principal.kind === 'user'
      ? await trx
          .selectFrom('organizationMembers')
          .select('userId as id')
          .where('organizationId', '=', organizationId)
          .where('userId', '=', principal.id)
          .forShare()
          .executeTakeFirst()
      : await trx.selectFrom('teams').select('id').where('organizationId', '=', organizationId).where('id', '=', principal.id).forShare().executeTakeFirst();
  return row !== undefined;
}

/** The grants on one item (alias `g` in grantsOfItemQuery). */
function grantsOn(db: Executor, target: GrantTarget) {
  const columns = ['organizationId', 'principalKind', 'principalId', 'role', 'grantedAt'] as const;
  return target.kind === 'space'
    ? db.selectFrom('spaceGrants').select(columns).where('organizationId', '=', target.organizationId).where('spaceId', '=', target.id)
    : db.selectFrom('collectionGrants').select(columns).where('organizationId', '=', target.organizationId).where('collectionId', '=', target.id);
}

export type GrantViewRow = Awaited<ReturnType<ReturnType<typeof grantsOfItemQuery>['executeTakeFirstOrThrow']>>;

/**
 * The grants on one item as `g`, each with its user or its team (counters and the caller's role in it),
 * in one query.
 */
export function grantsOfItemQuery(db: Executor, target: GrantTarget, callerId: string) {
  const grants = grantsOn(db, target);
  return db
    .selectFrom(grants.as('g'))
    .leftJoin('users as u', (join) => join.on('g.principalKind', '=', 'user').onRef('u.id', '=', 'g.principalId'))
    .leftJoin('teams as t', (join) =>
      join.on('g.principalKind', '=', 'team').onRef('t.organizationId', '=', 'g.organizationId').onRef('t.id', '=', 'g.principalId'),
    )
    .select([
      'g.organizationId',
      'g.principalKind',
      'g.principalId',
      'g.role',
      'g.grantedAt',
      'u.email as userEmail',
      'u.displayName as userDisplayName',
      'u.photoUrl as userPhotoUrl',
      't.title as teamTitle',
      't.createdAt as teamCreatedAt',
      ...teamExtraColumns(callerId),
    ])
    // A grant whose principal is gone (a user deleted outright) names nobody: not listed.
    .where((eb) => eb.or([eb('u.id', 'is not', null), eb('t.id', 'is not', null)]));
}

export async function findGrant(db: Executor, target: GrantTarget, principal: Principal, callerId: string): Promise<GrantViewRow | undefined> {
  return grantsOfItemQuery(db, target, callerId)
    .where('g.principalKind', '=', principal.kind)
    .where('g.principalId', '=', principal.id)
    .executeTakeFirst();
}
