// Writes a new revision on top of a head pointer (docs/design/content-model.md, "Writing a revision"): read the head, build
// the new content on it, store the new objects and the revision row, then move the head by
// compare-and-swap, all in one transaction. A swap that finds the head moved means another writer got
// there first: the whole attempt is redone on the new head, a bounded number of times, then 409.
// The head pointer is an input: the space's primary head (space-head.ts) or a change request's
// (change-request-head.ts).
import type { Transaction } from 'kysely';
import { inTransaction, type Executor } from '../db/database.js';
import { existingBlobHashes, insertDocuments, insertFileBlobs, lockContentObjects } from './content-objects.repository.js';
import { storeParsedBodies, type BodyParsing } from './parsed-bodies.js';
import { insertRevision } from './revisions.repository.js';
import type { DB, RevisionType } from '../db/schema.js';
import { conflict } from '../errors.js';
import { newId } from '../ids.js';
import type { BlobStore } from './blob-store.js';
import type { Caches } from '../caches.js';
import type { PreparedFile } from './apply-changes.js';
import { rootsOf, type ContentRoots, type ContentState } from './model.js';
import { loadContentState, rememberContentState, storeNodes, type NewNodes } from './tree-store.js';

export type Trx = Transaction<DB>;

/** What writing content uses beside the database: the server's tree cache and blob store (context.ts). */
export type ContentWriter = { db: Executor; caches: Pick<Caches, 'trees'>; blobs: BlobStore };

export type HeadRead = { revisionId: string; roots: ContentRoots };

/** The head revisions a move went from and to. */
export type HeadRevisions = { from: string; to: string };

/** Where a line of revisions has its head. */
export interface HeadPointer<Moved> {
  readonly organizationId: string;
  readonly spaceId: string;
  /** The change request whose line this is; null for the space's primary line. */
  readonly changeRequestId: string | null;
  /** The current head; throws an HttpError when the line may not be written (absent, locked, …). */
  read(trx: Trx): Promise<HeadRead>;
  /** Moves the head from `from` to `to`: the updated owner row, or undefined when the head was not `from`. */
  swap(trx: Trx, from: string, to: string): Promise<Moved | undefined>;
  /** Runs after a successful swap, in the same transaction (head materialisation, search index, events). */
  afterMove?(trx: Trx, before: ContentState, after: ContentState, parsing: BodyParsing, revisions: HeadRevisions): Promise<void>;
}

/** New content with the objects it needs stored. */
export type RevisionDraft = {
  state: ContentState;
  nodes: NewNodes;
  documents: Array<{ hash: string; markdown: string }>;
  blobs: PreparedFile[];
};

export type WrittenRevision<Moved, Draft> = { revisionId: string; moved: Moved; draft: Draft };

export type WriteOptions = {
  type: RevisionType;
  createdBy: string | null;
  /** Reads the new bodies (or takes what the request's markdown gate read of them). */
  parsing: BodyParsing;
  /** Throws (rolling the write back) when it must not be committed after all: its client left, its time ran out. */
  beforeCommit?: () => void;
};

/** Attempts of one write at most; with the back-off below, racing writers wait up to ~2.5 s in all before a 409. */
export const MAX_WRITE_ATTEMPTS = 8;
/** The first back-off's ceiling, doubled at each lost race (at most BACKOFF_CAP_MS). */
const BACKOFF_BASE_MS = 20;
const BACKOFF_CAP_MS = 600;

/** A compare-and-swap found the head moved: the attempt is redone on the new head. */
export class HeadMovedError extends Error {}

function retryable(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return error instanceof HeadMovedError || code === '40001' || code === '40P01';
}

async function storeBlobs(trx: Trx, store: BlobStore, organizationId: string, blobs: PreparedFile[]): Promise<void> {
  if (blobs.length === 0) return;
  const unique = [...new Map(blobs.map((blob) => [blob.sha256, blob])).values()];
  const existing = await existingBlobHashes(trx, organizationId, unique.map((blob) => blob.sha256));
  const missing = unique.filter((blob) => !existing.has(blob.sha256)).sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1));
  for (const blob of missing) await store.put(trx, organizationId, blob.sha256, blob.bytes);
  await insertFileBlobs(
    trx,
    organizationId,
    missing.map((blob) => ({ sha256: blob.sha256, size: blob.size, width: blob.dimensions?.width ?? null, height: blob.dimensions?.height ?? null, storage: store.name })),
  );
}

/**
 * Stores what new content needs: bodies (with what was read of them: content/parsed-bodies.ts), nodes
 * and file bytes (each insert skips what exists). The shared content-object lock keeps garbage
 * collection from sweeping a skipped object before the new revision that references it commits.
 */
export async function storeDraftObjects(
  trx: Trx,
  store: BlobStore,
  organizationId: string,
  draft: Pick<RevisionDraft, 'nodes' | 'documents'> & { blobs?: PreparedFile[] },
  parsing: BodyParsing,
): Promise<void> {
  await lockContentObjects(trx, organizationId, 'shared');
  await insertDocuments(trx, organizationId, draft.documents);
  await storeParsedBodies(trx, organizationId, draft.documents, parsing);
  await storeNodes(trx, organizationId, draft.nodes);
  await storeBlobs(trx, store, organizationId, draft.blobs ?? []);
}

/**
 * Runs `attempt` (one transaction) again when it lost a race (a head moved, a deadlock or a
 * serialisation failure), a bounded number of times with a short random back-off, then answers 409.
 */
export async function retryOnRace<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!retryable(error)) throw error;
      if (tries >= MAX_WRITE_ATTEMPTS) throw conflict('The content was changed by other writes at the same time; retry the request');
      // Back off exponentially, with full jitter, so racing writers spread out: an attempt takes tens of
      // milliseconds, and six writers on one head kept colliding within the 10–40 ms of a linear back-off
      // (test/integration/change-request-content.test.ts, "concurrent batches on one request all land").
      const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (tries - 1));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
    }
  }
}

async function attempt<Moved, Draft extends RevisionDraft>(
  writer: ContentWriter,
  pointer: HeadPointer<Moved>,
  build: (base: ContentState, now: Date) => Draft,
  options: WriteOptions,
): Promise<WrittenRevision<Moved, Draft>> {
  const { organizationId } = pointer;
  return inTransaction(writer.db, async (trx) => {
    const head = await pointer.read(trx);
    const base = await loadContentState(trx, writer.caches, organizationId, head.roots);
    const now = new Date();
    const draft = build(base, now);
    await storeDraftObjects(trx, writer.blobs, organizationId, draft, options.parsing);
    const roots = rootsOf(draft.state);
    const revisionId = newId();
    await insertRevision(trx, {
      organizationId,
      id: revisionId,
      spaceId: pointer.spaceId,
      type: options.type,
      parentIds: [head.revisionId],
      changeRequestId: pointer.changeRequestId,
      pagesRoot: roots.pages ? Buffer.from(roots.pages, 'hex') : null,
      filesRoot: roots.files ? Buffer.from(roots.files, 'hex') : null,
      reusableRoot: roots.reusables ? Buffer.from(roots.reusables, 'hex') : null,
      pageCount: draft.state.pages.pages.size,
      createdBy: options.createdBy,
      createdAt: now,
    });
    const moved = await pointer.swap(trx, head.revisionId, revisionId);
    if (moved === undefined) throw new HeadMovedError();
    await pointer.afterMove?.(trx, base, draft.state, options.parsing, { from: head.revisionId, to: revisionId });
    // Last, just before the commit: a write whose client has gone (or whose time is up) is not committed.
    options.beforeCommit?.();
    return { revisionId, moved, draft };
  });
}

/**
 * Writes one revision built by `build` from the head's content. `build` may run several times (once
 * per attempt), so it must be pure; it throws HttpErrors for invalid changes, which are never retried.
 */
export async function writeRevision<Moved, Draft extends RevisionDraft>(
  writer: ContentWriter,
  pointer: HeadPointer<Moved>,
  build: (base: ContentState, now: Date) => Draft,
  options: WriteOptions,
): Promise<WrittenRevision<Moved, Draft>> {
  const written = await retryOnRace(() => attempt(writer, pointer, build, options));
  rememberContentState(writer.caches, pointer.organizationId, written.draft.state);
  return written;
}
