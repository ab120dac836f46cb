// The comments area: comments and replies of spaces and change requests, their reactions, and the
// cache of re-anchored targets.
import { defineArea } from '../area.js';
import { commentHandlers } from './comments.handlers.js';
import { commentRules } from './comments.rules.js';

// A duplicate starts a new discussion: comments stay with the original space (as change requests do).
const DISCUSSION = { transfer: 'moves', duplicate: { dropped: 'A duplicate starts a new discussion: comments stay with the original space' } } as const;

/**
 * A transferred space's comments follow it with their replies, reactions and anchors (the counters
 * travel with the space and request rows); everything cascades from `spaces` on a purge.
 */
export const commentsArea = defineArea({
  name: 'comments',
  handlers: commentHandlers,
  tables: {
    comments: DISCUSSION, commentReplies: DISCUSSION, commentReactions: DISCUSSION,
    commentReplyReactions: DISCUSSION, commentAnchors: DISCUSSION,
    commentListVersions: { transfer: 'moves', duplicate: { dropped: 'The copy has no comments: its lists start at version 0' } },
  },
  events: ['comment.created', 'comment.edited', 'comment.resolved', 'comment.reopened', 'comment.deleted', 'comment-reply.created', 'comment-reply.edited', 'comment-reply.deleted'],
  rules: commentRules,
});

// What other areas use of this one: the only names they may import (eslint.config.js, boundaries).
export type { ResolvedTarget } from './targets.js';
