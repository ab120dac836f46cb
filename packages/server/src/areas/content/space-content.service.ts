// Direct edits of a space's content and reads of its revisions: the batch engine on the space's
// primary head, and revision content loaded through the tree cache.
import type { AppContext } from '../../context.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { loadDocuments } from '../../content/content-objects.repository.js';
import type { RevisionRow } from '../../content/revisions.repository.js';
import { newId } from '../../ids.js';
import { applyChanges, type ContentChange, type PreparedFile } from '../../content/apply-changes.js';
import { prepareFiles } from '../../content/file-inputs.js';
import { changeBodies, parseMarkdownBodies, type ParsedBodies } from '../../content/markdown-check.js';
import type { PageBody } from './content.mapper.js';
import { loadBodyParts } from '../../content/parsed-bodies.js';
import type { ContentRoots, ContentState, PageEntry } from '../../content/model.js';
import { writeRevision, type ContentWriter, type HeadPointer } from '../../content/revision-writer.js';
import { spaceHeadPointer } from '../../content/space-head.js';
import { requireRevision } from '../../content/space-revision.js';
import type { EventActor, NewEvent } from '../events/index.js';
import { recordingContentUpdates } from './content-events.js';
import { loadContentState, loadPageTree } from '../../content/tree-store.js';

export type AppliedChanges = { space: SpaceRow; revisionId: string; refs: Record<string, string> };

/** What a content write records with it: its actor, and further events of the same change. */
export type ContentEvents = { actor: EventActor; also?: (revisionId: string) => NewEvent[] };

/**
 * A batch built inside the server rather than received (the content import): its changes are made
 * from the head's content (so they can avoid its slugs), its files are prepared already, and it is not
 * held to the API's 50 changes. `build` may run more than once (once per write attempt): keep it pure.
 */
export type InternalBatch = (base: ContentState) => {
  changes: ContentChange[];
  files: ReadonlyMap<number, PreparedFile>;
  presetIds?: ReadonlyMap<string, string>;
};

/** What writing content uses: the database, the trees cache and the blob store (ContentWriter), and the parse pool. */
type ContentApp = ContentWriter & Pick<AppContext, 'parsing'>;

/**
 * How a batch is written: `parsed`, what the markdown gate read of its bodies (stored beside them, not
 * read again); `beforeCommit`, a last check in the write's transaction (an import's client still there).
 */
export type BatchOptions = { parsed?: ParsedBodies; beforeCommit?: () => void };

/** Writes a batch through the batch engine as one new `edits` revision on `pointer`'s head. */
export function writeBatch<Moved>(app: ContentApp, pointer: HeadPointer<Moved>, userId: string, batch: InternalBatch, options: BatchOptions = {}) {
  return writeRevision(
    app,
    pointer,
    (base, now) => {
      const { changes, files, presetIds } = batch(base);
      return applyChanges(base, changes, { now: now.toISOString(), files, newId: () => newId(), ...(presetIds ? { presetIds } : {}) });
    },
    { type: 'edits', createdBy: userId, parsing: { pool: app.parsing, known: options.parsed }, ...(options.beforeCommit ? { beforeCommit: options.beforeCommit } : {}) },
  );
}

/**
 * Applies a content batch to the space's head as one new `edits` revision (access checked by the
 * caller), recording `space.content-updated` in its transaction.
 */
export async function applySpaceChanges(
  app: ContentApp & Pick<AppContext, 'config' | 'urls'>,
  space: SpaceRow,
  userId: string,
  changes: ContentChange[],
  events: ContentEvents,
): Promise<AppliedChanges> {
  const parsed = await parseMarkdownBodies(app.parsing, changeBodies(changes));
  const files = await prepareFiles(changes, app.config);
  return applySpaceBatch(app, space, userId, () => ({ changes, files }), events, { parsed });
}

/** Applies an internal batch to the space's head (access checked by the caller), recording its events. */
export async function applySpaceBatch(
  app: ContentApp & Pick<AppContext, 'urls'>,
  space: SpaceRow,
  userId: string,
  batch: InternalBatch,
  events: ContentEvents,
  options: BatchOptions = {},
): Promise<AppliedChanges> {
  const pointer = spaceHeadPointer(space, recordingContentUpdates(space, { ...events, urls: app.urls, revisionType: 'edits' }));
  const written = await writeBatch(app, pointer, userId, batch, options);
  return { space: written.moved, revisionId: written.revisionId, refs: written.draft.refs };
}

export function revisionRoots(revision: RevisionRow): ContentRoots {
  return {
    pages: revision.pagesRoot?.toString('hex') ?? null,
    files: revision.filesRoot?.toString('hex') ?? null,
    reusables: revision.reusableRoot?.toString('hex') ?? null,
  };
}

/** What reading content uses: the database, and the server's caches (the trees). */
export type ContentReader = Pick<AppContext, 'db' | 'caches'>;

export type RevisionContent = { revision: RevisionRow; state: ContentState; reusableBodies: Map<string, string> };

/** Everything a Revision object shows: the trees, and the reusable contents' bodies. */
export async function loadRevisionContent(app: ContentReader, space: SpaceRow, revisionId: string): Promise<RevisionContent> {
  const revision = await requireRevision(app.db, app.caches, space, revisionId);
  const state = await loadContentState(app.db, app.caches, space.organizationId, revisionRoots(revision));
  const hashes = [...state.reusables.items.values()].flatMap((entry) => (entry.documentHash ? [entry.documentHash] : []));
  return { revision, state, reusableBodies: await loadDocuments(app.db, app.caches, space.organizationId, hashes) };
}

/** The trees of a revision of the space (no bodies). */
export async function loadRevisionState(app: ContentReader, space: SpaceRow, revisionId: string): Promise<ContentState> {
  const revision = await requireRevision(app.db, app.caches, space, revisionId);
  return loadContentState(app.db, app.caches, space.organizationId, revisionRoots(revision));
}

/** The page tree of the space's head revision. */
export async function loadHeadPages(app: ContentReader, space: SpaceRow) {
  const revision = await requireRevision(app.db, app.caches, space, space.headRevisionId);
  return loadPageTree(app.db, app.caches, space.organizationId, revisionRoots(revision).pages);
}

/** The tree of the empty body (no document is stored for it). */
const EMPTY_DOCUMENT = { type: 'root' as const, children: [] };

/** A page's own body in the requested format (the tree as stored when its body was written); none for groups. */
export async function readPageBody(app: ContentReader & Pick<AppContext, 'parsing'>, organizationId: string, entry: PageEntry, format: 'markdown' | 'document'): Promise<PageBody | undefined> {
  if (entry.type === 'group') return undefined;
  const hash = entry.documentHash;
  if (format === 'document') {
    const tree = hash ? (await loadBodyParts(app.db, app.parsing, organizationId, [hash], 'tree')).get(hash) : undefined;
    return { document: (tree ?? EMPTY_DOCUMENT) as Extract<PageBody, { document: unknown }>['document'] };
  }
  return { markdown: hash ? ((await loadDocuments(app.db, app.caches, organizationId, [hash])).get(hash) ?? '') : '' };
}
