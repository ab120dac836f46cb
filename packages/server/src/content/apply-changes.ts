// The batch engine: applies a content batch to a revision's content in memory and returns the new
// content with the objects to store. Pure (no I/O): files arrive already fetched and hashed, ids and
// the clock are injected. Changes apply in order, each checked against the state the earlier ones
// left; the first failing change fails the batch, so nothing of it is written.
import type { components } from '@content-workspace/contract';
import { conflict, invalidField } from '../errors.js';
import { FlatTreeEditor, PageTreeEditor } from './editors.js';
import { canonicalJson, documentHashOf, normalizeMarkdown } from './hashing.js';
import { isSelfOrAncestor, type ContentState, type FileEntry, type PageCover, type PageEntry, type ParentId, type ReusableEntry } from './model.js';
import { describeViolation, placementViolation } from './page-placement.js';
import { freeSlug, slugify } from './slugs.js';
import type { NewNodes } from './tree-store.js';

type Schemas = components['schemas'];
export type ContentChange = Schemas['ContentChange'];
type Reference = Schemas['ContentReference'];
type InsertPage = Schemas['InsertPageChange'];
type UpdatePage = Schemas['UpdatePageChange'];
type CoverInput = Schemas['PageCoverInput'];

/** A file of the batch, fetched or decoded and hashed before the transaction. */
export type PreparedFile = {
  bytes: Buffer;
  sha256: string;
  size: number;
  contentType: string;
  dimensions?: { width: number; height: number };
};

export type BatchContext = {
  /** The batch's timestamp (ISO 8601). */
  now: string;
  /** Prepared files by change index. */
  files: ReadonlyMap<number, PreparedFile>;
  newId: () => string;
  /**
   * Ids chosen in advance for pages and files inserted under a `ref` (internal batches only: the
   * content import, whose bodies link to pages and files of the same batch by id).
   */
  presetIds?: ReadonlyMap<string, string>;
};

export type BatchResult = {
  state: ContentState;
  nodes: NewNodes;
  documents: Array<{ hash: string; markdown: string }>;
  blobs: PreparedFile[];
  refs: Record<string, string>;
};

type RefKind = 'page' | 'file' | 'reusable content';

/** Path of the first string holding a NUL character (PostgreSQL text and jsonb cannot store one). */
function nulPath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = nulPath(item, `${path}/${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

const orUndefined = <T>(value: T | null | undefined): T | undefined => (value === null || value === '' ? undefined : value);

class Batch {
  readonly pages: PageTreeEditor;
  readonly files: FlatTreeEditor<FileEntry>;
  readonly reusables: FlatTreeEditor<ReusableEntry>;
  private readonly refs = new Map<string, { kind: RefKind; id: string }>();
  private readonly documents = new Map<string, string>();
  private readonly blobs: PreparedFile[] = [];

  constructor(base: ContentState, private readonly ctx: BatchContext) {
    this.pages = new PageTreeEditor(base.pages);
    this.files = new FlatTreeEditor(base.files);
    this.reusables = new FlatTreeEditor(base.reusables);
  }

  apply(change: ContentChange, path: string, index: number): void {
    const nul = nulPath(change, path);
    if (nul) throw invalidField(nul, 'must not contain NUL characters');
    switch (change.type) {
      case 'insert_page':
        return this.insertPage(change, path);
      case 'update_page':
        return this.updatePage(change, path);
      case 'delete_page':
        return this.pages.remove(this.page(change.page, `${path}/page`));
      case 'insert_file':
        return this.insertFile(change, path, index);
      case 'delete_file':
        return this.deleteFile(this.file(change.file, `${path}/file`), path);
      case 'upsert_reusable_content': {
        const id = change.reusableContent === undefined ? this.ctx.newId() : this.reusable(change.reusableContent, `${path}/reusableContent`);
        this.reusables.set({ id, title: change.title, documentHash: this.document(change.markdown) });
        if (change.ref !== undefined) this.register(change.ref, 'reusable content', id, `${path}/ref`);
        return;
      }
      case 'delete_reusable_content':
        return this.reusables.delete(this.reusable(change.reusableContent, `${path}/reusableContent`));
    }
  }

  result(): BatchResult {
    const pages = this.pages.commit();
    const files = this.files.commit();
    const reusables = this.reusables.commit();
    return {
      state: { pages: pages.tree, files: files.tree, reusables: reusables.tree },
      nodes: { pages: pages.nodes, files: files.nodes, reusables: reusables.nodes },
      documents: [...this.documents].map(([hash, markdown]) => ({ hash, markdown })),
      blobs: this.blobs,
      refs: Object.fromEntries([...this.refs].map(([label, ref]) => [label, ref.id])),
    };
  }

  /** The id of a new page or file: chosen in advance for its ref, else a fresh one. */
  private idFor(ref: string | undefined): string {
    return (ref !== undefined ? this.ctx.presetIds?.get(ref) : undefined) ?? this.ctx.newId();
  }

  private register(label: string, kind: RefKind, id: string, path: string): void {
    if (this.refs.has(label)) throw invalidField(path, `"${label}" is already the ref of an earlier change`);
    this.refs.set(label, { kind, id });
  }

  private resolve(reference: Reference, kind: RefKind, path: string): string {
    if (typeof reference === 'string') return reference;
    const known = this.refs.get(reference.ref);
    if (!known || known.kind !== kind) throw invalidField(path, `no earlier change of the batch inserted a ${kind} with ref "${reference.ref}"`);
    return known.id;
  }

  private page(reference: Reference, path: string): string {
    const id = this.resolve(reference, 'page', path);
    if (!this.pages.get(id)) throw invalidField(path, `no page "${id}" in the content`);
    return id;
  }

  private file(reference: Reference, path: string): string {
    const id = this.resolve(reference, 'file', path);
    if (!this.files.get(id)) throw invalidField(path, `no file "${id}" in the content`);
    return id;
  }

  private reusable(reference: Reference, path: string): string {
    const id = this.resolve(reference, 'reusable content', path);
    if (!this.reusables.get(id)) throw invalidField(path, `no reusable content "${id}" in the content`);
    return id;
  }

  /** Removes a file no page uses as its cover (a dangling cover would name nothing). */
  private deleteFile(id: string, path: string): void {
    for (const page of this.pages.view().pages.values()) {
      if (page.cover?.ref.file === id) throw conflict(`${path}/file: "${id}" is the cover of page "${page.id}"; change or remove that cover first`);
    }
    this.files.delete(id);
  }

  private document(markdown: string): string | null {
    const normalized = normalizeMarkdown(markdown);
    const hash = documentHashOf(normalized);
    if (hash) this.documents.set(hash, normalized);
    return hash;
  }

  private cover(input: CoverInput, path: string): PageCover {
    const file = this.file(input.ref.file, `${path}/ref/file`);
    return { ref: { kind: 'file', file }, ...(input.yPos !== undefined ? { yPos: input.yPos } : {}) };
  }

  /** Slugs of `parent`'s children other than `except`. */
  private siblingSlugs(parent: ParentId, except?: string): Set<string> {
    const slugs = new Set<string>();
    for (const id of this.pages.children(parent)) if (id !== except) slugs.add(this.pages.get(id)!.slug);
    return slugs;
  }

  private checkIndex(index: number, count: number, path: string): void {
    if (index > count) throw invalidField(path, `must be at most ${count}, the number of pages it goes among`);
  }

  private insertPage(change: InsertPage, path: string): void {
    const parent = change.parent == null ? null : this.page(change.parent, `${path}/parent`);
    const count = this.pages.children(parent).length;
    const index = change.index ?? count;
    this.checkIndex(index, count, `${path}/index`);
    const type = change.pageType ?? 'document';
    if (type === 'group' && change.markdown !== undefined) throw invalidField(`${path}/markdown`, 'a group has no body');
    const taken = this.siblingSlugs(parent);
    if (change.slug !== undefined && taken.has(change.slug)) throw conflict(`${path}/slug: "${change.slug}" is already the slug of a sibling page`);
    const entry: PageEntry = {
      id: this.idFor(change.ref),
      type,
      title: change.title,
      slug: change.slug ?? freeSlug(slugify(change.title), taken),
      emoji: orUndefined(change.emoji),
      icon: orUndefined(change.icon),
      description: orUndefined(change.description),
      hidden: change.hidden ?? false,
      noIndex: change.noIndex ?? false,
      noRobotsIndex: change.noRobotsIndex ?? false,
      layout: change.layout,
      cover: change.cover ? this.cover(change.cover, `${path}/cover`) : undefined,
      createdAt: this.ctx.now,
      updatedAt: this.ctx.now,
      documentHash: change.markdown === undefined ? null : this.document(change.markdown),
      childrenHash: null,
    };
    this.pages.insert(parent, index, entry);
    this.checkPlacement(entry.id, `${path}/parent`, 'the new page');
    if (change.ref !== undefined) this.register(change.ref, 'page', entry.id, `${path}/ref`);
  }

  private updatePage(change: UpdatePage, path: string): void {
    const id = this.page(change.page, `${path}/page`);
    const entry = this.pages.get(id)!;
    const next: PageEntry = { ...entry };
    if (change.title !== undefined) next.title = change.title;
    if (change.emoji !== undefined) next.emoji = orUndefined(change.emoji);
    if (change.icon !== undefined) next.icon = orUndefined(change.icon);
    if (change.description !== undefined) next.description = orUndefined(change.description);
    if (change.hidden !== undefined) next.hidden = change.hidden;
    if (change.noIndex !== undefined) next.noIndex = change.noIndex;
    if (change.noRobotsIndex !== undefined) next.noRobotsIndex = change.noRobotsIndex;
    if (change.layout !== undefined) next.layout = change.layout ?? undefined;
    if (change.cover !== undefined) next.cover = change.cover === null ? undefined : this.cover(change.cover, `${path}/cover`);
    if (change.pageType !== undefined) next.type = change.pageType;
    if (next.type === 'group') {
      if (change.markdown !== undefined) throw invalidField(`${path}/markdown`, 'a group has no body');
      next.documentHash = null;
    } else if (change.markdown !== undefined) {
      next.documentHash = this.document(change.markdown);
    }

    const from = this.pages.parent(id);
    const moving = change.parent !== undefined || change.index !== undefined;
    const parent = change.parent === undefined ? from : change.parent === null ? null : this.page(change.parent, `${path}/parent`);
    if (parent !== null && isSelfOrAncestor(this.pages.view(), id, parent)) {
      throw invalidField(`${path}/parent`, 'a page cannot move under itself or one of its descendants');
    }
    const siblings = this.pages.children(parent).filter((sibling) => sibling !== id);
    const index = change.index ?? (parent === from ? this.pages.children(from).indexOf(id) : siblings.length);
    if (moving) this.checkIndex(index, siblings.length, `${path}/index`);
    if (change.slug !== undefined) next.slug = change.slug;
    if ((next.slug !== entry.slug || parent !== from) && this.siblingSlugs(parent, id).has(next.slug)) {
      throw conflict(`${path}/${change.slug !== undefined ? 'slug' : 'parent'}: "${next.slug}" is already the slug of a sibling page`);
    }

    const moves = parent !== from || index !== this.pages.children(from).indexOf(id);
    const { updatedAt: _old, ...oldFields } = entry;
    const { updatedAt: _new, ...newFields } = next;
    const edited = canonicalJson(oldFields) !== canonicalJson(newFields);
    if (!edited && !moves) return;
    this.pages.update({ ...next, updatedAt: this.ctx.now });
    if (moves) this.pages.move(id, parent, index);
    if (parent !== from || next.slug !== entry.slug) this.checkPlacement(id, `${path}/${parent !== from ? 'parent' : 'slug'}`);
  }

  /** The page just placed (inserted, moved or renamed) and its subtree fit the tree's limits. */
  private checkPlacement(id: string, path: string, name?: string): void {
    const violation = placementViolation(this.pages.view(), id);
    if (violation) throw invalidField(path, describeViolation(violation, name));
  }

  private insertFile(change: Schemas['InsertFileChange'], path: string, index: number): void {
    const prepared = this.ctx.files.get(index);
    if (!prepared) throw new Error(`File of change ${index} was not prepared`);
    const entry: FileEntry = {
      id: this.idFor(change.ref),
      name: change.name,
      contentType: prepared.contentType,
      size: prepared.size,
      ...(prepared.dimensions ? { dimensions: prepared.dimensions } : {}),
      blobHash: prepared.sha256,
    };
    this.files.set(entry);
    this.blobs.push(prepared);
    if (change.ref !== undefined) this.register(change.ref, 'file', entry.id, `${path}/ref`);
  }
}

/**
 * Applies `changes` to `base`. Throws 400 (invalid change, a page placed beyond the tree's limits of
 * page-placement.ts) or 409 (slug taken) naming the change.
 */
export function applyChanges(base: ContentState, changes: ContentChange[], ctx: BatchContext): BatchResult {
  const batch = new Batch(base, ctx);
  changes.forEach((change, index) => batch.apply(change, `/body/changes/${index}`, index));
  return batch.result();
}
