// Idempotency keys (http/idempotency.ts explains the rules): one row per API token and key, claimed by
// the request that runs, then holding its answer until the key is 24 hours old. Times are the
// database's (`now()`), so instances with different clocks agree on leases and expiry.
// Every keyed write runs the claim and the store: both are named prepared statements (db/database.ts),
// planned once per connection.
import { sql } from 'kysely';
import { PREPARED, type Executor } from '../db/database.js';
import { rawQuery, value } from '../db/raw-query.js';

/**
 * An answer as it is replayed: status, the headers kept (name and value pairs: a jsonb array, which the
 * camel-casing of rows leaves alone) and the body's bytes.
 */
export type StoredAnswer = { status: number; headers: Array<[string, string]>; body: Buffer | null };

/** What a claim found: the key is now this request's, or it belongs to an earlier request. */
export type ClaimResult =
  | { claimed: true }
  | { claimed: false; earlier: EarlierRequest }
  /** Another request claimed the key between this one's insert and its read: it is running. */
  | { claimed: false; earlier: undefined };

/** The request that holds a key: still running (`answer` undefined) or answered. */
export type EarlierRequest = { fingerprint: Buffer; operation: string; answer: StoredAnswer | undefined };

export type Claim = {
  tokenId: string;
  key: string;
  /** sha256 of the request (method, URL, body bytes). */
  fingerprint: Buffer;
  /** `METHOD /spec/path`, named when the key comes back with another request. */
  operation: string;
  /** Identifies this attempt: only it may store its answer, renew or release the key. */
  leaseId: string;
  leaseSeconds: number;
  keepSeconds: number;
};

// Both branches of the UNION answer every column: PostgreSQL then ties none to the table, so each is
// declared as the value it is (null in the claimed branch).
const claimKey = rawQuery({
  name: 'claimIdempotencyKey',
  columns: {
    claimed: value('bool'),
    fingerprint: value('bytea').orNull(),
    operation: value('text').orNull(),
    running: value('bool').orNull(),
    status: value('int2').orNull(),
    headers: value('jsonb').orNull().as<StoredAnswer['headers'] | null>(),
    body: value('bytea').orNull(),
  },
  statement: (claim: Claim) => sql`${PREPARED}
    WITH claimed AS (
      INSERT INTO idempotency_keys AS k (token_id, key, fingerprint, operation, lease_id, locked_until, expires_at)
      VALUES (${claim.tokenId}, ${claim.key}, ${claim.fingerprint}, ${claim.operation}, ${claim.leaseId},
        now() + make_interval(secs => ${claim.leaseSeconds}), now() + make_interval(secs => ${claim.keepSeconds}))
      ON CONFLICT (token_id, key) DO UPDATE SET
        fingerprint = excluded.fingerprint, operation = excluded.operation, lease_id = excluded.lease_id,
        locked_until = excluded.locked_until, status = NULL, headers = NULL, body = NULL,
        created_at = now(), expires_at = excluded.expires_at
      WHERE k.expires_at <= now()
        OR (k.lease_id IS NOT NULL AND k.locked_until <= now() AND k.fingerprint = excluded.fingerprint)
      RETURNING 1
    )
    SELECT true AS claimed, NULL::bytea AS fingerprint, NULL AS operation, NULL::boolean AS running,
      NULL::smallint AS status, NULL::jsonb AS headers, NULL::bytea AS body
    FROM claimed
    UNION ALL
    SELECT false, fingerprint, operation, lease_id IS NOT NULL, status, headers, body
    FROM idempotency_keys
    WHERE token_id = ${claim.tokenId} AND key = ${claim.key} AND NOT EXISTS (SELECT FROM claimed)`,
  shapes: [[{ tokenId: '', key: '', fingerprint: Buffer.alloc(0), operation: '', leaseId: '', leaseSeconds: 0, keepSeconds: 0 }]],
});

/**
 * Claims `key` for this request, in one statement: a new key, a key older than `keepSeconds` (not
 * purged yet), or the key of the same request whose lease ran out (its process died) become this
 * request's; otherwise the earlier request is read. The insert locks the row, so of two requests
 * racing for a key exactly one claims it; when the other's snapshot predates the winner's insert,
 * it reads nothing (`earlier` undefined), which means running.
 */
export async function claimIdempotencyKey(db: Executor, claim: Claim): Promise<ClaimResult> {
  const [row] = await claimKey.rows(db, claim);
  if (!row) return { claimed: false, earlier: undefined };
  if (row.claimed) return { claimed: true };
  return {
    claimed: false,
    earlier: {
      fingerprint: row.fingerprint!,
      operation: row.operation!,
      answer: row.running ? undefined : { status: row.status!, headers: row.headers ?? [], body: row.body },
    },
  };
}

type Held = { tokenId: string; key: string; leaseId: string };

/** Stores the answer of the attempt holding the key; it is replayed from now on. */
export async function storeIdempotentAnswer(db: Executor, held: Held, answer: StoredAnswer): Promise<void> {
  await sql`${PREPARED}
    UPDATE idempotency_keys
    SET lease_id = NULL, locked_until = NULL, status = ${answer.status}, headers = ${JSON.stringify(answer.headers)}::jsonb, body = ${answer.body}
    WHERE token_id = ${held.tokenId} AND key = ${held.key} AND lease_id = ${held.leaseId}`.execute(db);
}

/** Gives the key up (the request failed): a retry runs it again. */
export async function releaseIdempotencyKey(db: Executor, held: Held): Promise<void> {
  await sql`${PREPARED}
    DELETE FROM idempotency_keys WHERE token_id = ${held.tokenId} AND key = ${held.key} AND lease_id = ${held.leaseId}`.execute(db);
}

/** Extends the lease of a request still running. */
export async function renewIdempotencyLease(db: Executor, held: Held, leaseSeconds: number): Promise<void> {
  await sql`
    UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => ${leaseSeconds})
    WHERE token_id = ${held.tokenId} AND key = ${held.key} AND lease_id = ${held.leaseId}`.execute(db);
}

/** Deletes up to `batch` keys past their expiry; answers how many went. */
export async function deleteExpiredIdempotencyKeys(db: Executor, batch: number): Promise<number> {
  const result = await sql`
    DELETE FROM idempotency_keys WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM idempotency_keys WHERE expires_at <= now() LIMIT ${batch}
    ))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
