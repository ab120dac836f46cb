import type { Executor } from '../db/database.js';
import { newId } from '../ids.js';

const USER_COLUMNS = ['users.id', 'users.email', 'users.displayName', 'users.photoUrl', 'users.createdAt'] as const;

export type UserRow = { id: string; email: string; displayName: string; photoUrl: string | null; createdAt: Date };

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export async function insertUser(db: Executor, values: { email: string; displayName: string; photoUrl?: string | null }): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({ id: newId(), email: values.email, displayName: values.displayName, photoUrl: values.photoUrl ?? null })
    .returning(USER_COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * The user with this e-mail (case-insensitive), created when there is none. A concurrent creation of
 * the same address waits for the other transaction and then reads its user.
 */
export async function ensureUserByEmail(
  db: Executor,
  values: { email: string; displayName: string; createdByOrganizationId?: string | null },
): Promise<UserRow> {
  await db
    .insertInto('users')
    .values({
      id: newId(),
      email: values.email,
      displayName: values.displayName,
      photoUrl: null,
      createdByOrganizationId: values.createdByOrganizationId ?? null,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return (await findUserByEmail(db, values.email))!;
}

/** The organization whose identity provider created the user's account; null when it was made otherwise. */
export async function findAccountOrigin(db: Executor, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('createdByOrganizationId').where('id', '=', userId).executeTakeFirst();
  return row?.createdByOrganizationId ?? null;
}

/**
 * The user, when they are the caller or share an organization with the caller (only
 * `onlyOrganizationId` counts when set).
 */
export async function findUserVisibleTo(db: Executor, callerId: string, userId: string, onlyOrganizationId: string | null): Promise<UserRow | undefined> {
  if (callerId === userId) return findUserById(db, userId);
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('users.id', '=', userId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('organizationMembers as theirs')
          .innerJoin('organizationMembers as mine', 'mine.organizationId', 'theirs.organizationId')
          .select(eb.lit(1).as('one'))
          .whereRef('theirs.userId', '=', 'users.id')
          .where('mine.userId', '=', callerId)
          .$if(onlyOrganizationId !== null, (qb) => qb.where('mine.organizationId', '=', onlyOrganizationId!)),
      ),
    )
    .executeTakeFirst();
}

/** Whether the database has any user yet (an empty embedded database gets the demo user). */
export async function hasAnyUser(db: Executor): Promise<boolean> {
  return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}
