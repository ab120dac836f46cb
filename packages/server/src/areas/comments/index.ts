// The comments area: comments and replies of spaces and change requests, their reactions, and the
// cache of re-anchored targets.
import { sql } from 'kysely';
import type { TransferStep } from '../area.js';
import { defineArea } from '../area.js';
import { commentHandlers } from './comments.handlers.js';
import { commentRules } from './comments.rules.js';

/**
 * A transferred space's comments follow it with their replies, reactions and anchors (after the
 * change requests and revisions they reference; the counters travel with the space and request rows).
 */
const copyComments: TransferStep = async (trx, s) => {
  if (s.spaceIds.length === 0) return;
  const inMovedSpaces = sql`c.organization_id = ${s.from} AND c.space_id = ANY(${s.spaceIds}::text[])`;
  await sql`
    INSERT INTO comments (organization_id, id, space_id, change_request_id, revision_id, page_id, page_title, page_path,
      target_document_hash, node_id, node_preview, anchor_quote, anchor_prefix, anchor_suffix, body_markdown, body_document, status,
      resolved_at, resolved_by, posted_by, posted_at, edited_at, replies_count)
    SELECT ${s.to}, id, space_id, change_request_id, revision_id, page_id, page_title, page_path,
      target_document_hash, node_id, node_preview, anchor_quote, anchor_prefix, anchor_suffix, body_markdown, body_document, status,
      resolved_at, resolved_by, posted_by, posted_at, edited_at, replies_count
    FROM comments c WHERE ${inMovedSpaces}`.execute(trx);
  await sql`
    INSERT INTO comment_replies (organization_id, id, comment_id, body_markdown, body_document, posted_by, posted_at, edited_at)
    SELECT ${s.to}, r.id, r.comment_id, r.body_markdown, r.body_document, r.posted_by, r.posted_at, r.edited_at
    FROM comment_replies r JOIN comments c ON c.organization_id = r.organization_id AND c.id = r.comment_id
    WHERE ${inMovedSpaces}`.execute(trx);
  await sql`
    INSERT INTO comment_reactions (organization_id, comment_id, emoji, user_id, reacted_at)
    SELECT ${s.to}, x.comment_id, x.emoji, x.user_id, x.reacted_at
    FROM comment_reactions x JOIN comments c ON c.organization_id = x.organization_id AND c.id = x.comment_id
    WHERE ${inMovedSpaces}`.execute(trx);
  await sql`
    INSERT INTO comment_reply_reactions (organization_id, reply_id, emoji, user_id, reacted_at)
    SELECT ${s.to}, x.reply_id, x.emoji, x.user_id, x.reacted_at
    FROM comment_reply_reactions x
    JOIN comment_replies r ON r.organization_id = x.organization_id AND r.id = x.reply_id
    JOIN comments c ON c.organization_id = r.organization_id AND c.id = r.comment_id
    WHERE ${inMovedSpaces}`.execute(trx);
  await sql`
    INSERT INTO comment_list_versions (organization_id, space_id, context_key, version)
    SELECT ${s.to}, space_id, context_key, version FROM comment_list_versions
    WHERE organization_id = ${s.from} AND space_id = ANY(${s.spaceIds}::text[])`.execute(trx);
  await sql`
    INSERT INTO comment_anchors (organization_id, comment_id, document_hash, node_id, node_preview)
    SELECT ${s.to}, a.comment_id, a.document_hash, a.node_id, a.node_preview
    FROM comment_anchors a JOIN comments c ON c.organization_id = a.organization_id AND c.id = a.comment_id
    WHERE ${inMovedSpaces}`.execute(trx);
};

export const commentsArea = defineArea({
  name: 'comments',
  handlers: commentHandlers,
  tables: ['comments', 'comment_replies', 'comment_reactions', 'comment_reply_reactions', 'comment_anchors', 'comment_list_versions'],
  transfer: [copyComments],
  // Everything cascades from `spaces` (and from `change_requests`).
  purge: 'none',
  // A duplicate starts a new discussion: comments stay with the original space (as change requests do).
  duplicate: 'none',
  rules: commentRules,
});
