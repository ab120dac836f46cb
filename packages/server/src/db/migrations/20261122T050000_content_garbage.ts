// Garbage collection of content objects (docs/decisions.md, Content store): objects are shared by
// content address, so removing a space cannot remove them; a purge or a transfer out marks the
// organization instead, and the collection job sweeps what no remaining revision reaches.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE content_garbage_marks (
      organization_id text PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
      -- Millisecond precision: the job compares the mark it read (a JS Date) with the stored one.
      marked_at timestamptz(3) NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX content_garbage_marks_marked_at_idx ON content_garbage_marks (marked_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE content_garbage_marks`.execute(db);
}
