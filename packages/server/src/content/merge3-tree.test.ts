import { describe, expect, it } from 'vitest';
import { describeConflicts, MERGE_CASES, outlineOf, type Ids, type OutlinePage, type Step } from '../../test/support/merge-cases.js';
import { applyChanges, type ContentChange } from './apply-changes.js';
import { encodeList } from './chunked-list.js';
import { merge3, planMerge, type MergedContent } from './merge3-tree.js';
import { EMPTY_PAGE_TREE, emptyFlatTree, pathOf, type ContentState, type PageTree, type ParentId } from './model.js';
import { MAX_PAGE_DEPTH } from './page-placement.js';
import { HttpError } from '../errors.js';

const EMPTY: ContentState = { pages: EMPTY_PAGE_TREE, files: emptyFlatTree(), reusables: emptyFlatTree() };

/** Every body ever written, by hash (what the documents table would hold). */
type Documents = Map<string, string>;

function apply(base: ContentState, changes: ContentChange[], prefix: string, documents: Documents, ids: Ids): ContentState {
  let n = 0;
  const result = applyChanges(base, changes, { now: `2026-01-0${prefix.length}T00:00:00.000Z`, files: new Map(), newId: () => `${prefix}${++n}` });
  for (const { hash, markdown } of result.documents) documents.set(hash, markdown);
  Object.assign(ids, result.refs);
  return result.state;
}

function merge(base: ContentState, ours: ContentState, theirs: ContentState, documents: Documents): MergedContent {
  const plan = planMerge(base, ours, theirs);
  for (const hash of plan.documents) expect(documents.has(hash)).toBe(true);
  const merged = merge3(plan, new Map(plan.documents.map((hash) => [hash, documents.get(hash)!])));
  for (const { hash, markdown } of merged.documents) documents.set(hash, markdown);
  return merged;
}

function outline(tree: PageTree, documents: Documents, parent: ParentId = null): OutlinePage[] {
  return (tree.childrenOf.get(parent) ?? []).map((id) => {
    const entry = tree.pages.get(id)!;
    return { slug: entry.slug, title: entry.title, markdown: entry.documentHash ? documents.get(entry.documentHash)! : '', pages: outline(tree, documents, id) };
  });
}

/** Every children list hashes to what its parent (or the root) says: the merged tree is well formed. */
function expectConsistentHashes(tree: PageTree): void {
  for (const [parent, ids] of tree.childrenOf) {
    const expected = ids.length ? encodeList(ids.map((id) => tree.pages.get(id)!), null, () => true).hash : null;
    const actual = parent === null ? tree.rootHash : tree.pages.get(parent)!.childrenHash;
    expect(actual, `children hash of ${parent}`).toBe(expected);
    for (const id of ids) expect(tree.parentOf.get(id) ?? null).toBe(parent);
  }
  for (const entry of tree.pages.values()) if (!tree.childrenOf.get(entry.id)?.length) expect(entry.childrenHash).toBeNull();
}

describe('merge3 (the merge table)', () => {
  it.each(MERGE_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const documents: Documents = new Map();
    const ids: Ids = {};
    const run = (state: ContentState, step: Step, prefix: string) => apply(state, step(ids), prefix, documents, ids);
    const base = apply(EMPTY, c.base, 'b', documents, ids);
    let ours = run(base, c.ours, 'o');
    let theirs = run(base, c.theirs, 't');
    let mergeBase = base;
    if (c.thenAfterUpdate) {
      const updated = merge(base, ours, theirs, documents);
      expect(describeConflicts(updated.conflicts, ids)).toEqual(c.thenAfterUpdate.updateConflicts);
      mergeBase = ours;
      theirs = run(updated.state, c.thenAfterUpdate.theirs, 'tt');
      ours = run(ours, c.thenAfterUpdate.ours, 'oo');
    }
    const merged = merge(mergeBase, ours, theirs, documents);
    expect(outlineOf(outline(merged.state.pages, documents))).toEqual(c.outline);
    expect(describeConflicts(merged.conflicts, ids)).toEqual([...c.conflicts].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));
    expectConsistentHashes(merged.state.pages);
  });
});

describe('merge3', () => {
  const documents: Documents = new Map();
  const ids: Ids = {};
  const base = apply(EMPTY, [{ type: 'insert_page', title: 'A', ref: 'a', markdown: 'one\ntwo\nthree' }], 'b', documents, ids);

  it('takes a side as it is when the other did not change (no new nodes)', () => {
    const theirs = apply(base, [{ type: 'update_page', page: ids.a!, title: 'A2' }], 't', documents, ids);
    const forward = merge(base, base, theirs, documents);
    expect(forward.state.pages).toBe(theirs.pages);
    expect(forward.nodes.pages).toEqual([]);
    const backward = merge(base, theirs, base, documents);
    expect(backward.state.pages).toBe(theirs.pages);
  });

  it('writes over the primary’s tree: a page neither side touched keeps its entry object', () => {
    const wide = apply(base, Array.from({ length: 5 }, (_, i): ContentChange => ({ type: 'insert_page', title: `P${i}`, ref: `p${i}` })), 'w', documents, ids);
    const ours = apply(wide, [{ type: 'update_page', page: ids.p0!, title: 'P0 (primary)' }], 'o', documents, ids);
    const theirs = apply(wide, [{ type: 'update_page', page: ids.p4!, title: 'P4 (request)' }], 't', documents, ids);
    const merged = merge(wide, ours, theirs, documents);
    expect(merged.state.pages.pages.get(ids.p2!)).toBe(ours.pages.pages.get(ids.p2!));
    expect(merged.state.pages.pages.get(ids.p0!)!.title).toBe('P0 (primary)');
    expect(merged.state.pages.pages.get(ids.p4!)!.title).toBe('P4 (request)');
    expect(merged.conflicts).toEqual([]);
  });

  it('stores only lists neither side has: a list only the request changed is the request’s node', () => {
    const tree = apply(base, [
      { type: 'insert_page', title: 'B', ref: 'pb' },
      { type: 'insert_page', title: 'A1', parent: ids.a!, ref: 'a1' },
      { type: 'insert_page', title: 'B1', parent: { ref: 'pb' }, ref: 'b1' },
    ], 'n', documents, ids);
    const ours = apply(tree, [{ type: 'update_page', page: ids.b1!, title: 'B1 (primary)' }], 'o', documents, ids);
    const theirs = apply(tree, [{ type: 'update_page', page: ids.a1!, title: 'A1 (request)' }], 't', documents, ids);
    const merged = merge(tree, ours, theirs, documents);
    expect(merged.state.pages.pages.get(ids.a!)!.childrenHash).toBe(theirs.pages.pages.get(ids.a!)!.childrenHash);
    expect(merged.state.pages.pages.get(ids.pb!)!.childrenHash).toBe(ours.pages.pages.get(ids.pb!)!.childrenHash);
    expect(merged.nodes.pages.map((node) => node.hash)).toEqual([merged.state.pages.rootHash]);
    expectConsistentHashes(merged.state.pages);
  });

  it('records a document hunk with its three versions', () => {
    const ours = apply(base, [{ type: 'update_page', page: ids.a!, markdown: 'one\nTWO (primary)\nthree' }], 'o', documents, ids);
    const theirs = apply(base, [{ type: 'update_page', page: ids.a!, markdown: 'one\nTWO (request)\nthree' }], 't', documents, ids);
    const merged = merge(base, ours, theirs, documents);
    expect(merged.conflicts).toEqual([
      { kind: 'document_hunk', pageId: ids.a, field: 'markdown', base: 'two', ours: 'TWO (primary)', theirs: 'TWO (request)', resolution: 'theirs' },
    ]);
    expect(merged.documents.map((d) => d.markdown)).toEqual(['one\nTWO (request)\nthree\n']);
  });

  it('merges reusable contents per field and files per id', () => {
    const withShared = apply(base, [{ type: 'upsert_reusable_content', title: 'Shared', markdown: 'x\ny\nz', ref: 'r' }], 'r', documents, ids);
    const ours = apply(withShared, [{ type: 'upsert_reusable_content', reusableContent: ids.r!, title: 'Shared (primary)', markdown: 'X\ny\nz' }], 'o', documents, ids);
    const theirs = apply(withShared, [{ type: 'upsert_reusable_content', reusableContent: ids.r!, title: 'Shared (request)', markdown: 'x\ny\nZ' }], 't', documents, ids);
    const merged = merge(withShared, ours, theirs, documents);
    const entry = merged.state.reusables.items.get(ids.r!)!;
    expect(entry.title).toBe('Shared (request)');
    expect(documents.get(entry.documentHash!)).toBe('X\ny\nZ\n');
    expect(merged.conflicts).toEqual([{ kind: 'reusable', reusableContentId: ids.r, field: 'title', base: 'Shared', ours: 'Shared (primary)', theirs: 'Shared (request)', resolution: 'theirs' }]);

    const deleted = apply(withShared, [{ type: 'delete_reusable_content', reusableContent: ids.r! }], 'd', documents, ids);
    const modifyDelete = merge(withShared, ours, deleted, documents);
    expect(modifyDelete.state.reusables.items.has(ids.r!)).toBe(false);
    expect(modifyDelete.conflicts.map((c) => [c.kind, c.reusableContentId, c.field])).toEqual([['reusable', ids.r, undefined]]);
  });

  it('refuses (409) two moves that together nest pages deeper than the limit, and merges them when they fit', () => {
    const chainOf = (name: string, length: number): ContentChange[] =>
      Array.from({ length }, (_, i) => ({ type: 'insert_page', title: `${name}${i + 1}`, ref: `${name}${i + 1}`, ...(i > 0 ? { parent: { ref: `${name}${i}` } } : {}) }));
    // Three chains at the top level: a1…a30, b1…b20, c1…c20.
    const tree = apply(EMPTY, [...chainOf('a', 30), ...chainOf('b', 20)], 'n', documents, ids);
    const three = apply(tree, chainOf('c', 20), 'm', documents, ids);
    // The primary puts b under a30 (b20 at depth 50), the request c under b20 (c20 at depth 40): together c20 is at 70.
    const ours = apply(three, [{ type: 'update_page', page: ids.b1!, parent: ids.a30! }], 'o', documents, ids);
    const theirs = apply(three, [{ type: 'update_page', page: ids.c1!, parent: ids.b20! }], 't', documents, ids);
    let refused: unknown;
    try {
      merge(three, ours, theirs, documents);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 409, message: expect.stringContaining(`would be ${MAX_PAGE_DEPTH + 1} levels deep`) });
    // The other way round (an update of the request) is refused too.
    expect(() => merge(three, theirs, ours, documents)).toThrow(HttpError);
    // Under b5 instead, c20 ends at depth 30 + 5 + 20 = 55.
    const fitting = apply(three, [{ type: 'update_page', page: ids.c1!, parent: ids.b5! }], 't', documents, ids);
    const merged = merge(three, ours, fitting, documents);
    expect(pathOf(merged.state.pages, ids.c20!).split('/')).toHaveLength(55);
    expectConsistentHashes(merged.state.pages);
  });
});
