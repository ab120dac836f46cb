// Link invites. `redundant` (another invite of the organization gives the same role) is computed with
// each row, so a page needs one query.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { Role } from '../../db/schema.js';
import { newId } from '../../ids.js';

/** Invite ids are their secret: longer than ordinary ids (~190 bits). */
export const INVITE_ID_LENGTH = 32;

export type InviteRow = { organizationId: string; id: string; role: Role | null; createdAt: Date; redundant: boolean };

export function invitesQuery(db: Executor, organizationId: string) {
  return db
    .selectFrom('linkInvites as i')
    .where('i.organizationId', '=', organizationId)
    .select([
      'i.organizationId',
      'i.id',
      'i.role',
      'i.createdAt',
      sql<boolean>`EXISTS (
        SELECT 1 FROM link_invites other
        WHERE other.organization_id = i.organization_id AND other.id <> i.id AND other.role IS NOT DISTINCT FROM i.role
      )`.as('redundant'),
    ]);
}

export async function findInvite(db: Executor, organizationId: string, inviteId: string): Promise<InviteRow | undefined> {
  return invitesQuery(db, organizationId).where('i.id', '=', inviteId).executeTakeFirst();
}

export async function insertInvite(db: Executor, values: { organizationId: string; role: Role | null; createdBy: string }): Promise<string> {
  const id = newId(INVITE_ID_LENGTH);
  await db.insertInto('linkInvites').values({ ...values, id }).execute();
  return id;
}

export async function updateInviteRole(db: Executor, organizationId: string, inviteId: string, role: Role): Promise<boolean> {
  const result = await db
    .updateTable('linkInvites')
    .set({ role })
    .where('organizationId', '=', organizationId)
    .where('id', '=', inviteId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteInvite(db: Executor, organizationId: string, inviteId: string): Promise<boolean> {
  const result = await db.deleteFrom('linkInvites').where('organizationId', '=', organizationId).where('id', '=', inviteId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
