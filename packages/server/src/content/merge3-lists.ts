// The flat lists of a merge (files, reusable contents): per id and field; the change request wins
// modify/delete and conflicting fields.
import { diffFlatTrees } from './diff.js';
import { FlatTreeEditor } from './editors.js';
import type { NewNode } from './chunked-list.js';
import type { FileEntry, FlatTree, ReusableEntry } from './model.js';
import { same, type Outcome } from './merge3-outcome.js';

/** Per-id merge of a flat list (files, reusable contents): the change request wins modify/delete. */
function mergeFlat<E extends { id: string }>(
  B: FlatTree<E>,
  O: FlatTree<E>,
  T: FlatTree<E>,
  conflict: (id: string, field: string | undefined, base: unknown, ours: unknown, theirs: unknown) => void,
  mergeBoth: (b: E | undefined, o: E, t: E) => E,
): { tree: FlatTree<E>; nodes: NewNode[] } {
  const ours = new Set(diffFlatTrees(B, O).map((diff) => diff.id));
  const editor = new FlatTreeEditor(O);
  for (const { id } of diffFlatTrees(B, T)) {
    const b = B.items.get(id);
    const o = O.items.get(id);
    const t = T.items.get(id);
    let merged: E | undefined;
    if (!ours.has(id)) merged = t;
    else if (!o) {
      merged = t;
      if (t) conflict(id, undefined, b ?? null, null, t);
    } else if (!t) {
      conflict(id, undefined, b ?? null, o, null);
    } else merged = mergeBoth(b, o, t);
    if (!merged) editor.delete(id);
    else if (merged !== o) editor.set(merged);
  }
  return editor.commit();
}

export function mergeFiles(B: FlatTree<FileEntry>, O: FlatTree<FileEntry>, T: FlatTree<FileEntry>, out: Outcome) {
  const conflict = (fileId: string, field: string | undefined, base: unknown, ours: unknown, theirs: unknown) =>
    out.record({ kind: 'file', fileId, ...(field ? { field } : {}), base, ours, theirs, resolution: 'theirs' });
  // The bytes and what describes them (type, size, dimensions) change together: one field, `content`.
  const content = (file: FileEntry | undefined) => (file ? { blobHash: file.blobHash, contentType: file.contentType, size: file.size, dimensions: file.dimensions } : undefined);
  return mergeFlat(B, O, T, conflict, (b, o, t) => {
    const pick = <V>(field: string, bv: V | undefined, ov: V, tv: V): V => {
      if (same(ov, bv)) return tv;
      if (same(tv, bv) || same(ov, tv)) return ov;
      conflict(o.id, field, bv ?? null, ov, tv);
      return tv;
    };
    const name = pick('name', b?.name, o.name, t.name);
    const { dimensions, ...bytes } = pick('content', content(b), content(o), content(t))!;
    return { id: o.id, name, ...bytes, ...(dimensions ? { dimensions } : {}) };
  });
}

export function mergeReusables(B: FlatTree<ReusableEntry>, O: FlatTree<ReusableEntry>, T: FlatTree<ReusableEntry>, out: Outcome) {
  const conflict = (reusableContentId: string, field: string | undefined, base: unknown, ours: unknown, theirs: unknown) =>
    out.record({ kind: 'reusable', reusableContentId, ...(field ? { field } : {}), base, ours, theirs, resolution: 'theirs' });
  return mergeFlat(B, O, T, conflict, (b, o, t) => {
    let title = t.title;
    if (same(t.title, b?.title) || o.title === t.title) title = o.title;
    else if (!same(o.title, b?.title)) conflict(o.id, 'title', b?.title ?? null, o.title, t.title);
    const documentHash = out.body(b?.documentHash ?? null, o.documentHash, t.documentHash, (hunk) => conflict(o.id, 'markdown', hunk.base, hunk.ours, hunk.theirs));
    return title === o.title && documentHash === o.documentHash ? o : { id: o.id, title, documentHash };
  });
}
