// Idempotency keys (http/idempotency.ts): for 24 hours, per API token, the first answer to each write
// sent with an `Idempotency-Key`, so that a retry is answered without running again. A row is
// `running` (lease_id set, answer null) from the claim until the answer is stored; a process that dies
// meanwhile leaves a lease that runs out (locked_until), after which a retry may run the request. Logged
// (not UNLOGGED like rate_limits): a crash of PostgreSQL must not forget which writes were done.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE idempotency_keys (
      token_id text NOT NULL REFERENCES api_tokens (id) ON DELETE CASCADE,
      key text NOT NULL,
      -- sha256 of the method, the URL and the body's bytes: a request is compared, never kept.
      fingerprint bytea NOT NULL,
      -- METHOD /spec/path of the first request, named when the key comes back with another one.
      operation text NOT NULL,
      -- The attempt that holds the key while it runs (null once its answer is stored).
      lease_id text,
      locked_until timestamptz(3),
      status smallint,
      headers jsonb,
      body bytea,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      expires_at timestamptz(3) NOT NULL,
      PRIMARY KEY (token_id, key),
      CHECK ((lease_id IS NULL) = (status IS NOT NULL)),
      CHECK ((lease_id IS NULL) = (locked_until IS NULL))
    )`.execute(db);
  // The purge (keys over 24 hours) reads by expiry.
  await sql`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE idempotency_keys`.execute(db);
}
