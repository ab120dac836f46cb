// Secrets generated once and stored in the database, so every instance shares them and restarts keep
// them. `content-workspace admin rotate-keys` replaces them (restart the instances afterwards).
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from './db/database.js';

const KINDS = {
  /** HMAC key of list cursors. */
  cursor: () => randomBytes(32).toString('base64'),
  /** HMAC key of signed file-download addresses. */
  fileSignature: () => randomBytes(32).toString('base64'),
  /** HMAC key (HS256) of JWTs the server issues. */
  jwt: () => randomBytes(32).toString('base64'),
} as const;

export type KeyKind = keyof typeof KINDS;
export type ServerKeys = Record<KeyKind, Buffer>;

/** Loads every key, creating the missing ones (safe when several instances start at once). */
export async function loadServerKeys(db: Executor): Promise<ServerKeys> {
  const kinds = Object.keys(KINDS) as KeyKind[];
  await db
    .insertInto('serverKeys')
    .values(kinds.map((kind) => ({ kind, material: KINDS[kind]() })))
    .onConflict((oc) => oc.column('kind').doNothing())
    .execute();
  const rows = await db.selectFrom('serverKeys').select(['kind', 'material']).where('kind', 'in', kinds).execute();
  const keys = Object.fromEntries(rows.map((row) => [row.kind, Buffer.from(row.material, 'base64')]));
  return keys as ServerKeys;
}

/** Replaces the given keys (all by default) with new random ones. */
export async function rotateServerKeys(db: Executor, kinds: KeyKind[] = Object.keys(KINDS) as KeyKind[]): Promise<KeyKind[]> {
  for (const kind of kinds) {
    await db
      .updateTable('serverKeys')
      .set({ material: KINDS[kind](), rotatedAt: sql<Date>`now()` })
      .where('kind', '=', kind)
      .execute();
  }
  return kinds;
}

export function isKeyKind(value: string): value is KeyKind {
  return value in KINDS;
}
