// Comments and replies (issue 14; docs/design/content-model.md, "Comments' anchoring"): two families in one table — a
// space's comments (`change_request_id` null) and a change request's — their replies, the reactions on
// each, and the cache of re-anchored targets.
//
// Every key leads with organization_id (Citus colocation). Everything cascades from `spaces` (and a
// change request's comments from `change_requests`), so the purge and a transfer's removal of the
// originals take comments, replies, reactions and anchors with the space.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE comments (
      organization_id text NOT NULL,
      id text NOT NULL,
      space_id text NOT NULL,
      -- null: a comment of the space; else one of this change request.
      change_request_id text,
      -- The family as a non-null key ('' for the space's own comments): an equality the list indexes
      -- can serve their order under (IS NULL cannot).
      context_key text NOT NULL GENERATED ALWAYS AS (coalesce(change_request_id, '')) STORED,
      -- The context's head when the comment was posted (the space's, or the change request's).
      revision_id text NOT NULL,
      page_id text,
      -- The page as it was when the comment was posted: shown once the page is gone.
      page_title text,
      page_path text,
      -- The page's body when the comment was posted (null: no page, or an empty body).
      target_document_hash bytea,
      -- The block commented on (its id is derived from the body), its text shortened, and the quote
      -- with a little context that re-anchors it on later bodies.
      node_id text,
      node_preview text,
      anchor_quote text,
      anchor_prefix text,
      anchor_suffix text,
      body_markdown text NOT NULL,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
      resolved_at timestamptz(3),
      resolved_by text REFERENCES users (id),
      posted_by text NOT NULL REFERENCES users (id),
      posted_at timestamptz(3) NOT NULL DEFAULT now(),
      edited_at timestamptz(3),
      replies_count integer NOT NULL DEFAULT 0 CHECK (replies_count >= 0),
      PRIMARY KEY (organization_id, id),
      CHECK ((status = 'resolved') = (resolved_at IS NOT NULL)),
      CHECK (node_id IS NULL OR page_id IS NOT NULL),
      FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE,
      FOREIGN KEY (organization_id, change_request_id) REFERENCES change_requests (organization_id, id) ON DELETE CASCADE,
      FOREIGN KEY (organization_id, revision_id) REFERENCES revisions (organization_id, id)
    )`.execute(db);
  // The list of one family, newest or oldest first (keyset on posted_at, id), and one index per filter.
  await sql`CREATE INDEX comments_list_idx ON comments (organization_id, space_id, context_key, posted_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX comments_status_idx ON comments (organization_id, space_id, context_key, status, posted_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX comments_page_idx ON comments (organization_id, space_id, context_key, page_id, posted_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX comments_author_idx ON comments (organization_id, space_id, context_key, posted_by, posted_at DESC, id DESC)`.execute(db);

  await sql`
    CREATE TABLE comment_replies (
      organization_id text NOT NULL,
      id text NOT NULL,
      comment_id text NOT NULL,
      body_markdown text NOT NULL,
      posted_by text NOT NULL REFERENCES users (id),
      posted_at timestamptz(3) NOT NULL DEFAULT now(),
      edited_at timestamptz(3),
      PRIMARY KEY (organization_id, id),
      FOREIGN KEY (organization_id, comment_id) REFERENCES comments (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  // A comment's replies, oldest first.
  await sql`CREATE INDEX comment_replies_list_idx ON comment_replies (organization_id, comment_id, posted_at, id)`.execute(db);

  // One row per user and emoji on a comment (or a reply): adding twice keeps the first.
  for (const [table, column, parent] of [
    ['comment_reactions', 'comment_id', 'comments'],
    ['comment_reply_reactions', 'reply_id', 'comment_replies'],
  ] as const) {
    await sql`
      CREATE TABLE ${sql.table(table)} (
        organization_id text NOT NULL,
        ${sql.ref(column)} text NOT NULL,
        emoji text NOT NULL,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        reacted_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, ${sql.ref(column)}, emoji, user_id),
        FOREIGN KEY (organization_id, ${sql.ref(column)}) REFERENCES ${sql.table(parent)} (organization_id, id) ON DELETE CASCADE
      )`.execute(db);
  }

  // A version per list (a space's own comments, or one change request's) that moves with every write
  // changing which comments a filter matches (post, resolve, reopen, delete): list counts are cached
  // against it, so the first page costs the same whatever the total. Numbers come from one sequence,
  // so a version never repeats (not even after a transfer).
  await sql`CREATE SEQUENCE comment_list_version_seq`.execute(db);
  await sql`
    CREATE TABLE comment_list_versions (
      organization_id text NOT NULL,
      space_id text NOT NULL,
      context_key text NOT NULL,
      version bigint NOT NULL,
      PRIMARY KEY (organization_id, space_id, context_key),
      FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE
    )`.execute(db);

  // Where a comment's block is in its page's current body: computed once per body (document hash)
  // the page takes at the context's head, on first read (see areas/comments/anchoring.ts).
  await sql`
    CREATE TABLE comment_anchors (
      organization_id text NOT NULL,
      comment_id text NOT NULL,
      document_hash bytea NOT NULL,
      -- null: the quoted text is no longer in that body.
      node_id text,
      node_preview text,
      PRIMARY KEY (organization_id, comment_id),
      FOREIGN KEY (organization_id, comment_id) REFERENCES comments (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE comment_list_versions`.execute(db);
  await sql`DROP SEQUENCE comment_list_version_seq`.execute(db);
  for (const table of ['comment_anchors', 'comment_reply_reactions', 'comment_reactions', 'comment_replies', 'comments']) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}
