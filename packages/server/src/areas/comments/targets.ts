// What a comment's target is at the current head of its context: the page as it is now (or gone), and
// the block its quote is now in (areas/comments/anchoring.ts). A page of comments costs a fixed number
// of queries whatever its size, each by primary key: the pages (the space's materialised head, or the
// change request's tree through the tree cache) and the cached anchors; only comments whose page body
// changed since their anchor was last computed cost more — the bodies, once each, and one write of the
// new anchors.
import { sql } from 'kysely';
import { PREPARED, type Executor } from '../../db/database.js';
import { loadDocuments } from '../../content/content-objects.repository.js';
import { findSpaceRevision } from '../../content/revisions.repository.js';
import { pathOf } from '../../content/model.js';
import { loadPageTree } from '../../content/tree-store.js';
import { documentBlocks, previewOf, reanchor, type Block } from './anchoring.js';
import { findAnchors, saveAnchors, type AnchorRow, type CommentContext, type CommentRow } from './comments.repository.js';

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

/** The pages `pageIds` at the context's head; absent ones are missing from the map. */
export async function pagesAtHead(db: Executor, ctx: CommentContext, pageIds: string[]): Promise<Map<string, HeadPage>> {
  const unique = [...new Set(pageIds)];
  const found = new Map<string, HeadPage>();
  if (unique.length === 0) return found;
  if (ctx.changeRequestId === null) {
    // The space's head is materialised: one indexed query.
    const rows = await db
      .selectFrom('spaceHeadPages')
      .modifyFront(PREPARED)
      .select(['pageId', 'type', 'title', 'emoji', 'icon', 'path', 'createdAt', 'updatedAt', 'documentHash'])
      .where('organizationId', '=', ctx.organizationId)
      .where('spaceId', '=', ctx.spaceId)
      .where('pageId', '=', sql<string>`ANY(${unique}::text[])`)
      .execute();
    for (const row of rows) {
      found.set(row.pageId, {
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
    }
    return found;
  }
  // A change request's head is not materialised: its tree, cached by root hash.
  const revision = await findSpaceRevision(db, ctx.organizationId, ctx.spaceId, ctx.headRevisionId);
  const tree = await loadPageTree(db, ctx.organizationId, revision?.pagesRoot?.toString('hex') ?? null);
  for (const id of unique) {
    const entry = tree.pages.get(id);
    if (!entry) continue;
    found.set(id, {
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
  return found;
}

/** The blocks of a page's body (none for an empty body). */
export async function pageBlocks(db: Executor, organizationId: string, page: HeadPage): Promise<Block[]> {
  if (page.documentHash === null) return [];
  const markdown = (await loadDocuments(db, organizationId, [page.documentHash])).get(page.documentHash) ?? '';
  return documentBlocks(markdown);
}

/** Where a comment's target stands at the head. */
export type ResolvedTarget = {
  page?: HeadPage;
  /** The block now holding the comment's quote (or the block as posted, when outdated). */
  node?: { id: string; preview: string };
  outdated: boolean;
};

const hex = (hash: Buffer | null) => (hash ? hash.toString('hex') : null);

/** The targets of a page of comments at the context's head, re-anchoring (and caching) where bodies changed. */
export async function resolveTargets(db: Executor, ctx: CommentContext, rows: CommentRow[]): Promise<Map<string, ResolvedTarget>> {
  const onPages = rows.filter((row) => row.pageId !== null);
  const [pages, cached] = await Promise.all([
    pagesAtHead(db, ctx, onPages.map((row) => row.pageId!)),
    findAnchors(db, ctx.organizationId, onPages.flatMap((row) => (row.nodeId !== null ? [row.id] : []))),
  ]);
  const resolved = new Map<string, ResolvedTarget>();
  const stale: Array<{ row: CommentRow; page: HeadPage }> = [];
  for (const row of onPages) {
    const page = pages.get(row.pageId!);
    const posted = row.nodeId !== null ? { id: row.nodeId, preview: row.nodePreview ?? '' } : undefined;
    if (!page) {
      resolved.set(row.id, { ...(posted ? { node: posted } : {}), outdated: true });
      continue;
    }
    if (!posted || page.documentHash === hex(row.targetDocumentHash)) {
      // A page comment, or a body unchanged since posting: the block ids are the same.
      resolved.set(row.id, { page, ...(posted ? { node: posted } : {}), outdated: false });
      continue;
    }
    const anchor = cached.get(row.id);
    if (anchor && anchor.documentHash === page.documentHash) {
      resolved.set(row.id, anchorTarget(page, posted, anchor));
      continue;
    }
    stale.push({ row, page });
  }
  if (stale.length === 0) return resolved;

  // Re-anchor: each changed body loaded and split into blocks once.
  const hashes = [...new Set(stale.flatMap(({ page }) => (page.documentHash ? [page.documentHash] : [])))];
  const bodies = await loadDocuments(db, ctx.organizationId, hashes);
  const blocksOf = new Map(hashes.map((hash) => [hash, documentBlocks(bodies.get(hash) ?? '')]));
  const fresh: AnchorRow[] = [];
  for (const { row, page } of stale) {
    const found = reanchor(
      { nodeId: row.nodeId!, quote: row.anchorQuote ?? '', prefix: row.anchorPrefix ?? '', suffix: row.anchorSuffix ?? '' },
      page.documentHash ? blocksOf.get(page.documentHash)! : [],
    );
    const anchor: AnchorRow = { commentId: row.id, documentHash: page.documentHash ?? '', nodeId: found?.id ?? null, nodePreview: found ? previewOf(found.text) : null };
    resolved.set(row.id, anchorTarget(page, { id: row.nodeId!, preview: row.nodePreview ?? '' }, anchor));
    // An empty body has no hash to key the cache by: it is re-checked (without a query) on each read.
    if (page.documentHash) fresh.push(anchor);
  }
  await saveAnchors(db, ctx.organizationId, fresh);
  return resolved;
}

function anchorTarget(page: HeadPage, posted: { id: string; preview: string }, anchor: Pick<AnchorRow, 'nodeId' | 'nodePreview'>): ResolvedTarget {
  return anchor.nodeId === null ? { page, node: posted, outdated: true } : { page, node: { id: anchor.nodeId, preview: anchor.nodePreview ?? '' }, outdated: false };
}
