// Teams and their members. A team row carries its exact counters and the caller's role in it (for
// `permissions.admin`), computed in the same query for a whole page.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { TeamMemberRole } from '../../db/schema.js';
import { newId } from '../../ids.js';
import { membersQuery, teamExtraColumns } from '../../access/principals.repository.js';
import { containsPattern } from '../../db/contains-pattern.js';

/** A team with its counters and the caller's role in it (null when they are not in it). */
export type TeamRow = Awaited<ReturnType<ReturnType<typeof teamsQuery>['executeTakeFirstOrThrow']>>;

/** Every team of the organization as `t`, with counters and `callerId`'s role in each. */
export function teamsQuery(db: Executor, organizationId: string, callerId: string) {
  return db
    .selectFrom('teams as t')
    .where('t.organizationId', '=', organizationId)
    .select(['t.id', 't.title', 't.createdAt', ...teamExtraColumns(callerId)]);
}

export type TeamFilters = { title?: string | undefined; owner?: string | undefined };

/** Teams filtered by title (contains) and by who can manage them (`owner`: admins manage every team). */
export function filteredTeamsQuery(db: Executor, organizationId: string, callerId: string, filters: TeamFilters) {
  let query = teamsQuery(db, organizationId, callerId);
  if (filters.title) query = query.where('t.title', 'ilike', containsPattern(filters.title));
  if (filters.owner) {
    query = query.where(
      sql<boolean>`EXISTS (
        SELECT 1 FROM organization_members om
        WHERE om.organization_id = t.organization_id AND om.user_id = ${filters.owner}
          AND (om.role = 'admin' OR EXISTS (
            SELECT 1 FROM team_members tm
            WHERE tm.organization_id = t.organization_id AND tm.team_id = t.id AND tm.user_id = ${filters.owner} AND tm.role = 'owner')))`,
    );
  }
  return query;
}

export async function findTeam(db: Executor, organizationId: string, teamId: string, callerId: string): Promise<TeamRow | undefined> {
  return teamsQuery(db, organizationId, callerId).where('t.id', '=', teamId).executeTakeFirst();
}

/** The team's members and their roles in it. */
export async function teamMemberRoles(db: Executor, organizationId: string, teamId: string): Promise<Map<string, TeamMemberRole>> {
  const rows = await db.selectFrom('teamMembers').where('organizationId', '=', organizationId).where('teamId', '=', teamId).select(['userId', 'role']).execute();
  return new Map(rows.map((row) => [row.userId, row.role]));
}

/** The teams `userId` belongs to, with their role in each (`memberTeamRole`). */
export function teamsOfMemberQuery(db: Executor, organizationId: string, userId: string, callerId: string, title?: string) {
  return teamsQuery(db, organizationId, callerId)
    .innerJoin('teamMembers as mt', (join) => join.onRef('mt.organizationId', '=', 't.organizationId').onRef('mt.teamId', '=', 't.id'))
    .where('mt.userId', '=', userId)
    .$if(title !== undefined, (qb) => qb.where('t.title', 'ilike', containsPattern(title!)))
    .select('mt.role as memberTeamRole');
}

/** The team's members (member columns plus `teamRole` and `addedAt`). */
export function teamMembersQuery(db: Executor, organizationId: string, teamId: string) {
  return membersQuery(db, organizationId)
    .innerJoin('teamMembers as tm', (join) => join.onRef('tm.organizationId', '=', 'm.organizationId').onRef('tm.userId', '=', 'm.userId'))
    .where('tm.teamId', '=', teamId)
    .select(['tm.role as teamRole', 'tm.addedAt']);
}

export async function insertTeam(db: Executor, organizationId: string, title: string): Promise<string> {
  const id = newId();
  await db.insertInto('teams').values({ organizationId, id, title }).execute();
  return id;
}

export async function updateTeamTitle(db: Executor, organizationId: string, teamId: string, title: string): Promise<boolean> {
  const result = await db
    .updateTable('teams')
    .set({ title, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', teamId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the team, its memberships (by cascade) and its grants (polymorphic: no cascade); run in a transaction. */
export async function deleteTeam(trx: Executor, organizationId: string, teamId: string): Promise<boolean> {
  for (const table of ['spaceGrants', 'collectionGrants'] as const) {
    await trx.deleteFrom(table).where('organizationId', '=', organizationId).where('principalKind', '=', 'team').where('principalId', '=', teamId).execute();
  }
  const result = await trx.deleteFrom('teams').where('organizationId', '=', organizationId).where('id', '=', teamId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Adds users to the team. With a role, it is set (new or existing members); without one, new members
 * join as `member` and existing ones keep their role.
 */
export async function upsertTeamMembers(
  db: Executor,
  organizationId: string,
  teamId: string,
  entries: Array<{ userId: string; role?: TeamMemberRole | undefined }>,
): Promise<void> {
  const keep = entries.filter((entry) => entry.role === undefined);
  const set = entries.filter((entry) => entry.role !== undefined);
  if (keep.length) {
    await db
      .insertInto('teamMembers')
      .values(keep.map((entry) => ({ organizationId, teamId, userId: entry.userId })))
      .onConflict((oc) => oc.columns(['organizationId', 'teamId', 'userId']).doNothing())
      .execute();
  }
  if (set.length) {
    await db
      .insertInto('teamMembers')
      .values(set.map((entry) => ({ organizationId, teamId, userId: entry.userId, role: entry.role! })))
      .onConflict((oc) => oc.columns(['organizationId', 'teamId', 'userId']).doUpdateSet((eb) => ({ role: eb.ref('excluded.role') })))
      .execute();
  }
}

/** Removes users from the team; answers how many were in it. */
export async function removeTeamMembers(db: Executor, organizationId: string, teamId: string, userIds: string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const result = await db
    .deleteFrom('teamMembers')
    .where('organizationId', '=', organizationId)
    .where('teamId', '=', teamId)
    .where('userId', 'in', userIds)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
