// What a comment's target is at the current head of its context: the page as it is now (or gone), and
// the block its quote is now in (areas/comments/anchoring.ts).
//
// Two caches, both keyed by immutable things, so neither can serve a stale answer:
// - in memory, per process (the server's `commentTargets` cache, caches.ts): the resolved target of
//   (organization, head revision, comment). A revision
//   never changes, and neither do the columns of a comment that say what it targets (page, block,
//   quote, the body's hash at posting), so a list read at an unchanged head costs no query here. A new
//   head (any edit, a merge) is a new key.
// - in the database (`comment_anchors`): the re-anchored block of (comment, page body hash), shared by
//   instances and kept across restarts, so an edit of another page, or a head move that keeps the
//   body, re-anchors nothing.
// On a miss a page of comments costs a fixed number of queries whatever its size, run together: the
// pages (the space's materialised head, or the change request's tree through the tree cache), the
// comments' anchors as posted and the cached anchors; only comments whose page body changed since
// their anchor was last computed cost more — the bodies, once each, and one write of the new anchors.
import { sql } from 'kysely';
import type { Caches } from '../../caches.js';
import { PREPARED, type Executor } from '../../db/database.js';
import { loadBodyParts, loadBodyPartsText } from '../../content/parsed-bodies.js';
import type { ParsePool } from '../../parsing/parse-pool.js';
import { findSpaceRevision } from '../../content/revisions.repository.js';
import { pathOf } from '../../content/model.js';
import { loadPageTree } from '../../content/tree-store.js';
import type { Anchor, Block } from './anchoring.js';
import { findAnchors, findCommentTargets, saveAnchors, type AnchorRow, type CommentContext, type CommentRow, type CommentTargetRow } from './comments.repository.js';

/** A page at the context's head. */
export type HeadPage = {
  id: string;
  type: string;
  title: string;
  emoji: string | null;
  icon: string | null;
  path: string;
  createdAt: string;
  updatedAt: string;
  /** Hex hash of its body; null for an empty body or a group. */
  documentHash: string | null;
};

/** The caches targets are read through: change requests' trees, and the resolved targets. */
export type TargetCaches = Pick<Caches, 'trees' | 'commentTargets' | 'revisions'>;

/** The pages `pageIds` at the context's head; absent ones are missing from the map. */
export async function pagesAtHead(db: Executor, caches: TargetCaches, ctx: CommentContext, pageIds: string[]): Promise<Map<string, HeadPage>> {
  return (await readPagesAtHead(db, caches, ctx, pageIds)).pages;
}

const toHeadPage = (row: {
  pageId: string;
  type: string;
  title: string;
  emoji: string | null;
  icon: string | null;
  path: string;
  createdAt: Date | string;
  updatedAt: Date | string;
  documentHash: Buffer | null;
}): HeadPage => ({
  id: row.pageId,
  type: row.type,
  title: row.title,
  emoji: row.emoji,
  icon: row.icon,
  path: row.path,
  createdAt: new Date(row.createdAt).toISOString(),
  updatedAt: new Date(row.updatedAt).toISOString(),
  documentHash: row.documentHash ? row.documentHash.toString('hex') : null,
});

/**
 * The pages `pageIds` at the context's head, and whether they are those of `ctx.headRevisionId`
 * itself: the space's materialised head may have moved on since the caller read the head (a
 * concurrent edit), and what was read then belongs to no key of the target cache.
 */
async function readPagesAtHead(db: Executor, caches: TargetCaches, ctx: CommentContext, pageIds: string[]): Promise<{ pages: Map<string, HeadPage>; exact: boolean }> {
  const unique = [...new Set(pageIds)];
  const pages = new Map<string, HeadPage>();
  if (unique.length === 0) return { pages, exact: true };
  if (ctx.changeRequestId === null) {
    // The space's head is materialised: one indexed query, with the head it belongs to (one snapshot).
    const rows = await db
      .selectFrom('spaces as s')
      .leftJoin('spaceHeadPages as p', (join) =>
        join
          .onRef('p.organizationId', '=', 's.organizationId')
          .onRef('p.spaceId', '=', 's.id')
          .on('p.pageId', '=', sql<string>`ANY(${unique}::text[])`),
      )
      .modifyFront(PREPARED)
      .select(['s.headRevisionId', 'p.pageId', 'p.type', 'p.title', 'p.emoji', 'p.icon', 'p.path', 'p.createdAt', 'p.updatedAt', 'p.documentHash'])
      .where('s.organizationId', '=', ctx.organizationId)
      .where('s.id', '=', ctx.spaceId)
      .execute();
    for (const row of rows) if (row.pageId !== null) pages.set(row.pageId, toHeadPage(row as Parameters<typeof toHeadPage>[0]));
    return { pages, exact: rows[0]?.headRevisionId === ctx.headRevisionId };
  }
  // A change request's head is not materialised: its tree (immutable, by revision), cached by root hash.
  const revision = await findSpaceRevision(db, caches, ctx.organizationId, ctx.spaceId, ctx.headRevisionId);
  const tree = await loadPageTree(db, caches, ctx.organizationId, revision?.pagesRoot?.toString('hex') ?? null);
  for (const id of unique) {
    const entry = tree.pages.get(id);
    if (!entry) continue;
    pages.set(id, {
      id,
      type: entry.type,
      title: entry.title,
      emoji: entry.emoji ?? null,
      icon: entry.icon ?? null,
      path: pathOf(tree, id),
      createdAt: entry.createdAt,
      updatedAt: entry.updatedAt,
      documentHash: entry.type === 'group' ? null : entry.documentHash,
    });
  }
  return { pages, exact: revision !== undefined };
}

/** The blocks of a page's body, as stored with it (none for an empty body). */
export async function pageBlocks(db: Executor, pool: ParsePool, organizationId: string, page: HeadPage): Promise<Block[]> {
  if (page.documentHash === null) return [];
  return ((await loadBodyParts(db, pool, organizationId, [page.documentHash], 'blocks')).get(page.documentHash) as Block[] | undefined) ?? [];
}

/** Re-anchoring compares a quote with a whole body's text (approx-string-match): seconds for a large body. */
const REANCHOR_DEADLINE_MS = 10_000;

/** Where a comment's target stands at the head. */
export type ResolvedTarget = {
  page?: HeadPage;
  /** The page's title and path when the comment was posted, shown when it is gone. */
  formerPage?: { title: string; path: string };
  /** The block now holding the comment's quote (or the block as posted, when outdated). */
  node?: { id: string; preview: string };
  outdated: boolean;
};

const hex = (hash: Buffer | null) => (hash ? hash.toString('hex') : null);

const targetKey = (ctx: CommentContext, commentId: string) => `${ctx.organizationId}/${ctx.headRevisionId}/${commentId}`;

/** The targets of a page of comments at the context's head: from the cache, else resolved (and cached). */
/** What resolving targets uses: the database (or the caller's transaction), the parse pool, the caches. */
export type TargetsApp = { db: Executor; parsing: ParsePool; caches: TargetCaches };

export async function resolveTargets(app: TargetsApp, ctx: CommentContext, rows: CommentRow[]): Promise<Map<string, ResolvedTarget>> {
  const { caches } = app;
  const resolved = new Map<string, ResolvedTarget>();
  const missing: CommentRow[] = [];
  for (const row of rows) {
    if (row.pageId === null) continue;
    const hit = caches.commentTargets.get(targetKey(ctx, row.id));
    if (hit) resolved.set(row.id, hit);
    else missing.push(row);
  }
  if (missing.length === 0) return resolved;
  const { targets, exact } = await resolveAtHead(app, ctx, missing);
  for (const [id, target] of targets) {
    resolved.set(id, target);
    if (exact) caches.commentTargets.set(targetKey(ctx, id), target);
  }
  return resolved;
}

/** The targets of comments (all on pages) at the context's head, re-anchoring (and caching) where bodies changed. */
async function resolveAtHead(app: TargetsApp, ctx: CommentContext, onPages: CommentRow[]): Promise<{ targets: Map<string, ResolvedTarget>; exact: boolean }> {
  const { db, caches } = app;
  const ids = onPages.map((row) => row.id);
  const [{ pages, exact }, posted, cached] = await Promise.all([
    readPagesAtHead(db, caches, ctx, onPages.map((row) => row.pageId!)),
    findCommentTargets(db, ctx.organizationId, ids),
    findAnchors(db, ctx.organizationId, ids),
  ]);
  const resolved = new Map<string, ResolvedTarget>();
  const stale: Array<{ row: CommentTargetRow; page: HeadPage }> = [];
  for (const { id } of onPages) {
    const row = posted.get(id);
    if (!row) continue; // deleted since the page was read
    const page = pages.get(row.pageId!);
    const node = row.nodeId !== null ? { id: row.nodeId, preview: row.nodePreview ?? '' } : undefined;
    if (!page) {
      resolved.set(id, { formerPage: { title: row.pageTitle ?? '', path: row.pagePath ?? '' }, ...(node ? { node } : {}), outdated: true });
      continue;
    }
    if (!node || page.documentHash === hex(row.targetDocumentHash)) {
      // A page comment, or a body unchanged since posting: the block ids are the same.
      resolved.set(id, { page, ...(node ? { node } : {}), outdated: false });
      continue;
    }
    const anchor = cached.get(id);
    if (anchor && anchor.documentHash === page.documentHash) {
      resolved.set(id, anchorTarget(page, node, anchor));
      continue;
    }
    stale.push({ row, page });
  }
  if (stale.length === 0) return { targets: resolved, exact };

  // Re-anchor in the parse pool: each changed body's stored blocks, with the anchors to find in it.
  const hashes = [...new Set(stale.flatMap(({ page }) => (page.documentHash ? [page.documentHash] : [])))];
  const blocksOf = await loadBodyPartsText(db, app.parsing, ctx.organizationId, hashes, 'blocks');
  const anchorOf = (row: CommentTargetRow): Anchor => ({ nodeId: row.nodeId!, quote: row.anchorQuote ?? '', prefix: row.anchorPrefix ?? '', suffix: row.anchorSuffix ?? '' });
  const found = new Map<string, { id: string; preview: string } | null>();
  for (const hash of [...hashes, null]) {
    const here = stale.filter(({ page }) => page.documentHash === hash);
    if (here.length === 0) continue;
    const blocks = (hash && blocksOf.get(hash)) || '[]';
    const results = await app.parsing.run('reanchor', { blocks, anchors: here.map(({ row }) => anchorOf(row)) }, { deadlineMs: REANCHOR_DEADLINE_MS });
    here.forEach(({ row }, index) => found.set(row.id, results[index]!));
  }
  const fresh: AnchorRow[] = [];
  for (const { row, page } of stale) {
    const block = found.get(row.id) ?? null;
    const anchor: AnchorRow = { commentId: row.id, documentHash: page.documentHash ?? '', nodeId: block?.id ?? null, nodePreview: block?.preview ?? null };
    resolved.set(row.id, anchorTarget(page, { id: row.nodeId!, preview: row.nodePreview ?? '' }, anchor));
    // An empty body has no hash to key the anchor table by: it is re-checked (without a query) on a miss.
    if (page.documentHash) fresh.push(anchor);
  }
  await saveAnchors(db, ctx.organizationId, fresh);
  return { targets: resolved, exact };
}

function anchorTarget(page: HeadPage, posted: { id: string; preview: string }, anchor: Pick<AnchorRow, 'nodeId' | 'nodePreview'>): ResolvedTarget {
  return anchor.nodeId === null ? { page, node: posted, outdated: true } : { page, node: { id: anchor.nodeId, preview: anchor.nodePreview ?? '' }, outdated: false };
}
