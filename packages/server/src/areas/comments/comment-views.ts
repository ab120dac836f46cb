// A page of comments or replies as API objects, with everything they show loaded in a fixed number of
// queries: a comment's author, resolver and reactions come with its row, its target from targets.ts
// (cached by head revision); a reply's reactions come with its row, replies' authors in one query; in
// `format=document`, the trees stored with their bodies (one query; a body stored before trees were
// kept is read once in the parse pool and its tree stored).
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { readStoredCommentTree } from '../../content/parsed-bodies.js';
import { findBodyDocuments, findUsers, saveBodyDocument, type CommentContext, type CommentRow, type ReplyRow } from './comments.repository.js';
import { toApiComment, toApiReply, type ApiComment, type ApiCommentReply, type Viewer } from './comments.mapper.js';
import { resolveTargets, type TargetsApp } from './targets.js';

type ViewsApp = { db: Executor; parsing: AppContext['parsing'] };

/** The stored trees of the bodies, by id, when the viewer asked for documents. */
async function bodyDocuments(app: ViewsApp, ctx: CommentContext, kind: 'comment' | 'reply', ids: string[], viewer: Viewer): Promise<Map<string, unknown>> {
  const documents = new Map<string, unknown>();
  if (viewer.format !== 'document') return documents;
  for (const [id, { markdown, document }] of await findBodyDocuments(app.db, ctx.organizationId, kind, ids)) {
    if (document !== null) {
      documents.set(id, JSON.parse(document));
      continue;
    }
    const tree = await readStoredCommentTree(app.parsing, markdown);
    await saveBodyDocument(app.db, ctx.organizationId, kind, id, markdown, tree);
    documents.set(id, JSON.parse(tree));
  }
  return documents;
}

export async function commentViews(app: TargetsApp, ctx: CommentContext, rows: CommentRow[], viewer: Viewer): Promise<ApiComment[]> {
  const ids = rows.map((row) => row.id);
  const [targets, documents] = await Promise.all([resolveTargets(app, ctx, rows), bodyDocuments(app, ctx, 'comment', ids, viewer)]);
  return rows.map((row) => toApiComment(ctx, row, targets.get(row.id), viewer, documents.get(row.id)));
}

export async function replyViews(app: ViewsApp, ctx: CommentContext, rows: ReplyRow[], viewer: Viewer): Promise<ApiCommentReply[]> {
  const [users, documents] = await Promise.all([findUsers(app.db, rows.map((row) => row.postedBy)), bodyDocuments(app, ctx, 'reply', rows.map((row) => row.id), viewer)]);
  return rows.map((row) => toApiReply(ctx, row, users, viewer, documents.get(row.id)));
}
