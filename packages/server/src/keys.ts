// Secrets generated once and stored in the database, so every instance shares them and restarts keep
// them. `content-workspace admin rotate-keys` replaces them (restart the instances afterwards).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from './db/database.js';

const KINDS = {
  /** HMAC key of list cursors. */
  cursor: () => randomBytes(32).toString('base64'),
  /** HMAC key of signed file-download addresses. */
  fileSignature: () => randomBytes(32).toString('base64'),
  /** HMAC key of the signed addresses of OpenAPI spec versions' bundled documents. */
  openapiSignature: () => randomBytes(32).toString('base64'),
  /** HMAC key (HS256) of JWTs the server issues. */
  jwt: () => randomBytes(32).toString('base64'),
  /**
   * The SAML service provider's RSA key pair (2048 bits), which signs AuthnRequests: its PKCS#8 PEM
   * (holding both halves), so the loaded key is the PEM's bytes.
   */
  samlServiceProvider: () =>
    Buffer.from(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' })).toString('base64'),
  /** AES-256-GCM key sealing the webhooks' signing secrets in their rows (areas/webhooks/webhook-secrets.ts). */
  webhookSecrets: () => randomBytes(32).toString('base64'),
} as const;

/**
 * Keys that protect stored data rather than sign something short-lived: replacing one would make what
 * it sealed unreadable, so `rotate-keys` leaves them (webhook secrets are rotated per webhook instead).
 */
const KEPT_ON_ROTATION: ReadonlySet<KeyKind> = new Set(['webhookSecrets']);

export type KeyKind = keyof typeof KINDS;
export type ServerKeys = Record<KeyKind, Buffer>;

/**
 * Loads every key, creating the missing ones (safe when several instances start at once: the first
 * insert wins and every instance reads it back). Only missing kinds are generated, since an RSA key
 * pair takes a noticeable time to make.
 */
export async function loadServerKeys(db: Executor): Promise<ServerKeys> {
  const kinds = Object.keys(KINDS) as KeyKind[];
  const read = () => db.selectFrom('serverKeys').select(['kind', 'material']).where('kind', 'in', kinds).execute();
  let rows = await read();
  const missing = kinds.filter((kind) => !rows.some((row) => row.kind === kind));
  if (missing.length) {
    await db
      .insertInto('serverKeys')
      .values(missing.map((kind) => ({ kind, material: KINDS[kind]() })))
      .onConflict((oc) => oc.column('kind').doNothing())
      .execute();
    rows = await read();
  }
  const keys = Object.fromEntries(rows.map((row) => [row.kind, Buffer.from(row.material, 'base64')]));
  return keys as ServerKeys;
}

/** A new key of this kind, as stored (base64). */
export function newKeyMaterial(kind: KeyKind): string {
  return KINDS[kind]();
}

/** Replaces the given keys (all that can be, by default) with new random ones. */
export async function rotateServerKeys(db: Executor, kinds: KeyKind[] = rotatableKinds()): Promise<KeyKind[]> {
  for (const kind of kinds) {
    await db
      .updateTable('serverKeys')
      .set({ material: KINDS[kind](), rotatedAt: sql<Date>`now()` })
      .where('kind', '=', kind)
      .execute();
  }
  return kinds;
}

function rotatableKinds(): KeyKind[] {
  return (Object.keys(KINDS) as KeyKind[]).filter((kind) => !KEPT_ON_ROTATION.has(kind));
}

/** A kind `rotate-keys` may replace. */
export function isKeyKind(value: string): value is KeyKind {
  return value in KINDS && !KEPT_ON_ROTATION.has(value as KeyKind);
}
