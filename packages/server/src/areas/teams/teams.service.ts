// Team writes that touch several rows: creating a team with its first members, deleting one with its
// grants, and the bulk change of a team's members. One transaction each.
import type { components } from '@content-workspace/contract';
import { inTransaction, type Executor } from '../../db/database.js';
import { lockMembers } from '../members/index.js';
import { deleteTeam, insertTeam, removeTeamMembers, upsertTeamMembers } from './teams.repository.js';
import type { TeamMemberRole } from '../../db/schema.js';
import { invalidField, notFound } from '../../errors.js';

type UpdateTeamMembersRequest = components['schemas']['UpdateTeamMembersRequest'];

const notAMember = (path: string) => invalidField(path, 'is not a member of this organization');

/** Creates the team with `memberIds` (organization members, else 400 naming the entry) as `member`; answers its id. */
export async function createTeam(db: Executor, organizationId: string, title: string, memberIds: string[]): Promise<string> {
  return inTransaction(db, async (trx) => {
    const { byId } = await lockMembers(trx, organizationId, { ids: memberIds, emails: [] });
    memberIds.forEach((id, i) => {
      if (!byId.has(id)) throw notAMember(`/body/members/${i}`);
    });
    const teamId = await insertTeam(trx, organizationId, title);
    await upsertTeamMembers(trx, organizationId, teamId, memberIds.map((userId) => ({ userId })));
    return teamId;
  });
}

export async function deleteTeamWithGrants(db: Executor, organizationId: string, teamId: string): Promise<void> {
  const deleted = await inTransaction(db, (trx) => deleteTeam(trx, organizationId, teamId));
  if (!deleted) throw notFound('Team');
}

/** A user named by id, or by e-mail when it contains `@` (user ids never do). */
const isEmail = (reference: string) => reference.includes('@');

/**
 * Applies `add`, `memberships` and `remove` at once. Every user named must be a member of the
 * organization (400 naming the first entry that is not); `remove` wins over `add` and `memberships`;
 * `memberships` sets roles (adding users not yet in the team); `add` adds as `member`, keeping the
 * role of users already in the team.
 */
export async function updateTeamMembers(db: Executor, organizationId: string, teamId: string, body: UpdateTeamMembersRequest): Promise<void> {
  const add = body.add ?? [];
  const remove = body.remove ?? [];
  const memberships = Object.entries(body.memberships ?? {});
  const references = [...add, ...remove, ...memberships.map(([id]) => id)];
  await inTransaction(db, async (trx) => {
    const found = await lockMembers(trx, organizationId, {
      ids: references.filter((ref) => !isEmail(ref)),
      emails: references.filter(isEmail),
    });
    const resolve = (reference: string, path: string): string => {
      const userId = isEmail(reference) ? found.byEmail.get(reference.toLowerCase()) : found.byId.has(reference) ? reference : undefined;
      if (!userId) throw notAMember(path);
      return userId;
    };
    const removed = new Set(remove.map((ref, i) => resolve(ref, `/body/remove/${i}`)));
    const roles = new Map<string, TeamMemberRole | undefined>();
    add.forEach((ref, i) => {
      const userId = resolve(ref, `/body/add/${i}`);
      if (!roles.has(userId)) roles.set(userId, undefined);
    });
    for (const [userId, membership] of memberships) roles.set(resolve(userId, `/body/memberships/${userId}`), membership.role);
    const upserts = [...roles].filter(([userId]) => !removed.has(userId)).map(([userId, role]) => ({ userId, role }));
    await upsertTeamMembers(trx, organizationId, teamId, upserts);
    await removeTeamMembers(trx, organizationId, teamId, [...removed]);
  });
}
