// Events and webhooks (docs/decisions.md, Events and webhooks). `events` is the transactional outbox and
// the audit log: one row per change, written in the change's transaction; `undispatched` marks the rows
// the dispatcher has still to turn into deliveries (set only when the organization had a webhook when
// the event was written, so organizations without one never pay for dispatching). Deliveries are the
// durable queue of what to send to each webhook, with their attempts as the delivery log.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE events (
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      id text NOT NULL,
      type text NOT NULL,
      -- The space the event is about, for the list's filter and webhooks' space lists. No foreign key:
      -- the audit log outlives a purged space, and stays with its organization after a transfer.
      space_id text,
      actor jsonb NOT NULL,
      data jsonb NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      -- Insertion order: the events of one change share their transaction's time, and list in the
      -- order they were recorded (the list sorts by time, then by this).
      seq bigint GENERATED ALWAYS AS IDENTITY,
      undispatched boolean NOT NULL DEFAULT false,
      PRIMARY KEY (organization_id, id)
    )`.execute(db);
  // The list, newest first, and its filters (a type, a space); time bounds ride on each. Retention
  // prunes per organization through the first.
  await sql`CREATE INDEX events_list_idx ON events (organization_id, created_at DESC, seq DESC)`.execute(db);
  await sql`CREATE INDEX events_type_idx ON events (organization_id, type, created_at DESC, seq DESC)`.execute(db);
  await sql`CREATE INDEX events_space_idx ON events (organization_id, space_id, created_at DESC, seq DESC) WHERE space_id IS NOT NULL`.execute(db);
  // The outbox: small, since the dispatcher clears the flag within moments of the commit.
  await sql`CREATE INDEX events_undispatched_idx ON events (created_at) WHERE undispatched`.execute(db);

  await sql`
    CREATE TABLE webhooks (
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      id text NOT NULL,
      url text NOT NULL,
      description text NOT NULL DEFAULT '',
      enabled boolean NOT NULL DEFAULT true,
      disabled_reason text,
      event_types text[],
      space_ids text[],
      -- Signing secrets sealed with AES-256-GCM (areas/webhooks/webhook-secrets.ts).
      secret bytea NOT NULL,
      previous_secret bytea,
      previous_secret_expires_at timestamptz(3),
      failing_since timestamptz(3),
      created_by text REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id)
    )`.execute(db);
  await sql`CREATE INDEX webhooks_list_idx ON webhooks (organization_id, created_at DESC, id DESC)`.execute(db);

  await sql`
    CREATE TABLE webhook_deliveries (
      organization_id text NOT NULL,
      id text NOT NULL,
      webhook_id text NOT NULL,
      event_id text NOT NULL,
      -- pending (due at next_attempt_at), sending (claimed until next_attempt_at), succeeded, failed.
      state text NOT NULL DEFAULT 'pending',
      attempts integer NOT NULL DEFAULT 0,
      -- Attempts since the delivery was (re)queued: the position in the retry schedule.
      schedule_step integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz(3),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      -- Each event is delivered once per webhook.
      UNIQUE (organization_id, webhook_id, event_id),
      FOREIGN KEY (organization_id, webhook_id) REFERENCES webhooks (organization_id, id) ON DELETE CASCADE,
      FOREIGN KEY (organization_id, event_id) REFERENCES events (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_list_idx ON webhook_deliveries (organization_id, webhook_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_state_idx ON webhook_deliveries (organization_id, webhook_id, state, created_at DESC, id DESC)`.execute(db);
  // For the cascade from a pruned event.
  await sql`CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (organization_id, event_id)`.execute(db);
  // The queue every instance claims from (across organizations, like the job queue's own tables).
  await sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state IN ('pending', 'sending')`.execute(db);

  await sql`
    CREATE TABLE webhook_delivery_attempts (
      organization_id text NOT NULL,
      delivery_id text NOT NULL,
      attempt integer NOT NULL,
      started_at timestamptz(3) NOT NULL,
      duration_ms integer NOT NULL,
      status_code integer,
      error text,
      response text,
      PRIMARY KEY (organization_id, delivery_id, attempt),
      FOREIGN KEY (organization_id, delivery_id) REFERENCES webhook_deliveries (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE webhook_delivery_attempts`.execute(db);
  await sql`DROP TABLE webhook_deliveries`.execute(db);
  await sql`DROP TABLE webhooks`.execute(db);
  await sql`DROP TABLE events`.execute(db);
}
