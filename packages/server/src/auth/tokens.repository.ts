import { sql } from 'kysely';
import { PREPARED, type Executor } from '../db/database.js';
import { newId } from '../ids.js';
import type { UserRow } from './users.repository.js';

const TOKEN_COLUMNS = ['id', 'userId', 'label', 'createdAt', 'lastUsedAt', 'expiresAt', 'organizationId'] as const;

export type TokenRow = {
  id: string;
  userId: string;
  label: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  /** The organization the token is limited to (issued through its SSO); null: unscoped. */
  organizationId: string | null;
};

/** What authentication needs of a token. */
export type TokenCredential = Pick<TokenRow, 'id' | 'lastUsedAt' | 'expiresAt' | 'organizationId'>;

/** The token with this hash and its user, in one query (the hot path of every request). */
export async function findTokenWithUser(
  db: Executor,
  tokenHash: Buffer,
): Promise<{ token: TokenCredential; user: UserRow } | undefined> {
  const row = await db
    .selectFrom('apiTokens as t')
    .innerJoin('users as u', 'u.id', 't.userId')
    .select([
      't.id as tokenId',
      't.lastUsedAt',
      't.expiresAt',
      't.organizationId',
      'u.id as userId',
      'u.email',
      'u.displayName',
      'u.photoUrl',
      'u.createdAt as userCreatedAt',
    ])
    .where('t.tokenHash', '=', tokenHash)
    .modifyEnd(PREPARED)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    token: { id: row.tokenId, lastUsedAt: row.lastUsedAt, expiresAt: row.expiresAt, organizationId: row.organizationId },
    user: { id: row.userId, email: row.email, displayName: row.displayName, photoUrl: row.photoUrl, createdAt: row.userCreatedAt },
  };
}

export async function insertToken(
  db: Executor,
  values: { userId: string; label: string; tokenHash: Buffer; expiresAt?: Date | null; organizationId?: string | null },
): Promise<TokenRow> {
  return db
    .insertInto('apiTokens')
    .values({
      id: newId(),
      userId: values.userId,
      label: values.label,
      tokenHash: values.tokenHash,
      expiresAt: values.expiresAt ?? null,
      organizationId: values.organizationId ?? null,
    })
    .returning(TOKEN_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Marks the token used, unless it was marked in the last `minutes`: a write at most every few minutes. */
export async function touchToken(db: Executor, id: string, minutes: number): Promise<void> {
  await db
    .updateTable('apiTokens')
    .set({ lastUsedAt: sql<Date>`now()` })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', sql<Date>`now() - make_interval(mins => ${minutes})`)]),
    )
    .execute();
}

export function tokensOfUserQuery(db: Executor, userId: string) {
  return db.selectFrom('apiTokens').select(TOKEN_COLUMNS).where('userId', '=', userId);
}

/** Deletes the user's token; returns its hash, or undefined when there was none. */
export async function deleteTokenOfUser(db: Executor, userId: string, id: string): Promise<Buffer | undefined> {
  const row = await db.deleteFrom('apiTokens').where('userId', '=', userId).where('id', '=', id).returning('tokenHash').executeTakeFirst();
  return row?.tokenHash;
}
