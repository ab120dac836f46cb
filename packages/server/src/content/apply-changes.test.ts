import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { applyChanges, type BatchContext, type ContentChange } from './apply-changes.js';
import { CHUNK_THRESHOLD } from './chunked-list.js';
import { sha256Hex } from './hashing.js';
import { PageTreeEditor } from './editors.js';
import { EMPTY_PAGE_TREE, emptyFlatTree, pathOf, type ContentState, type PageEntry, type ParentId } from './model.js';
import { MAX_PAGE_DEPTH, MAX_PAGE_PATH_LENGTH } from './page-placement.js';

const EMPTY: ContentState = { pages: EMPTY_PAGE_TREE, files: emptyFlatTree(), reusables: emptyFlatTree() };

function context(now = '2026-01-01T00:00:00.000Z', prefix = 'id'): BatchContext {
  let n = 0;
  return { now, files: new Map(), newId: () => `${prefix}${++n}` };
}

function apply(base: ContentState, changes: ContentChange[], ctx = context()) {
  return applyChanges(base, changes, ctx);
}

function failure(run: () => unknown): { status: number; message: string; paths: string[] } {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, message: error.message, paths: (error.issues ?? []).map((i) => i.path) };
    throw error;
  }
  throw new Error('expected the batch to fail');
}

/** A chain of `depth` nested pages (a > b > c …), ids id1…idN. */
function chain(depth: number): ContentState {
  const changes: ContentChange[] = Array.from({ length: depth }, (_, i) => ({
    type: 'insert_page' as const,
    title: `Level ${i + 1}`,
    ref: `l${i + 1}`,
    ...(i > 0 ? { parent: { ref: `l${i}` } } : {}),
  }));
  return apply(EMPTY, changes).state;
}

describe('applyChanges', () => {
  it('inserts pages with refs, derives slugs and paths, and maps refs to ids', () => {
    const result = apply(EMPTY, [
      { type: 'insert_page', title: 'Getting Started!', ref: 'gs' },
      { type: 'insert_page', title: 'Installation', parent: { ref: 'gs' }, ref: 'install', markdown: 'Run\r\nit\n\n\n' },
      { type: 'insert_page', title: 'Café Crème', parent: { ref: 'gs' }, index: 0 },
    ]);
    const tree = result.state.pages;
    expect(result.refs).toEqual({ gs: 'id1', install: 'id2' });
    expect(tree.childrenOf.get(null)).toEqual(['id1']);
    expect(tree.childrenOf.get('id1')).toEqual(['id3', 'id2']);
    expect(pathOf(tree, 'id2')).toBe('getting-started/installation');
    expect(pathOf(tree, 'id3')).toBe('getting-started/cafe-creme');
    expect(result.documents).toEqual([{ hash: sha256Hex('Run\nit\n'), markdown: 'Run\nit\n' }]);
    expect(tree.pages.get('id2')).toMatchObject({ documentHash: sha256Hex('Run\nit\n'), createdAt: '2026-01-01T00:00:00.000Z', hidden: false });
  });

  it('suffixes a derived slug a sibling has, but refuses an explicit one (409)', () => {
    const base = apply(EMPTY, [{ type: 'insert_page', title: 'Intro' }]).state;
    const derived = apply(base, [{ type: 'insert_page', title: 'Intro' }, { type: 'insert_page', title: 'Intro' }], context(undefined, 'new'));
    expect([...derived.state.pages.pages.values()].map((page) => page.slug)).toEqual(['intro', 'intro-2', 'intro-3']);
    const taken = failure(() => apply(base, [{ type: 'insert_page', title: 'Other', slug: 'intro' }]));
    expect(taken).toMatchObject({ status: 409, message: expect.stringContaining('/body/changes/0/slug') });
  });

  it('moves a page with its subtree, and refuses a move under its own descendant (400)', () => {
    const base = chain(3);
    const moved = apply(base, [{ type: 'update_page', page: 'id3', parent: null, index: 0 }], context('2026-02-01T00:00:00.000Z'));
    expect(moved.state.pages.childrenOf.get(null)).toEqual(['id3', 'id1']);
    expect(moved.state.pages.childrenOf.has('id2')).toBe(false);
    expect(moved.state.pages.pages.get('id3')?.updatedAt).toBe('2026-02-01T00:00:00.000Z');
    expect(failure(() => apply(base, [{ type: 'update_page', page: 'id1', parent: 'id3' }]))).toMatchObject({ status: 400, paths: ['/body/changes/0/parent'] });
    expect(failure(() => apply(base, [{ type: 'update_page', page: 'id1', parent: 'id1' }]))).toMatchObject({ status: 400 });
  });

  it('reorders among siblings with index alone, counted without the page', () => {
    const base = apply(EMPTY, [
      { type: 'insert_page', title: 'A' },
      { type: 'insert_page', title: 'B' },
      { type: 'insert_page', title: 'C' },
    ]).state;
    const result = apply(base, [{ type: 'update_page', page: 'id1', index: 2 }]);
    expect(result.state.pages.childrenOf.get(null)).toEqual(['id2', 'id3', 'id1']);
    expect(failure(() => apply(base, [{ type: 'update_page', page: 'id1', index: 3 }]))).toMatchObject({ status: 400, paths: ['/body/changes/0/index'] });
  });

  it('refuses unknown pages, unknown refs, refs of another kind and a reused ref (400)', () => {
    const base = chain(1);
    expect(failure(() => apply(base, [{ type: 'delete_page', page: 'missing' }]))).toMatchObject({ status: 400, paths: ['/body/changes/0/page'] });
    expect(failure(() => apply(base, [{ type: 'update_page', page: { ref: 'nope' }, title: 'x' }]))).toMatchObject({ paths: ['/body/changes/0/page'] });
    expect(
      failure(() =>
        apply(base, [
          { type: 'upsert_reusable_content', title: 'R', markdown: 'x', ref: 'r' },
          { type: 'delete_page', page: { ref: 'r' } },
        ]),
      ),
    ).toMatchObject({ paths: ['/body/changes/1/page'] });
    expect(
      failure(() =>
        apply(base, [
          { type: 'insert_page', title: 'A', ref: 'same' },
          { type: 'insert_page', title: 'B', ref: 'same' },
        ]),
      ),
    ).toMatchObject({ paths: ['/body/changes/1/ref'] });
    // A page deleted earlier in the batch is gone for later changes.
    expect(failure(() => apply(base, [{ type: 'delete_page', page: 'id1' }, { type: 'update_page', page: 'id1', title: 'x' }]))).toMatchObject({
      paths: ['/body/changes/1/page'],
    });
  });

  it('deletes a page with its subtree', () => {
    const result = apply(chain(3), [{ type: 'delete_page', page: 'id2' }]);
    expect([...result.state.pages.pages.keys()]).toEqual(['id1']);
    expect(result.state.pages.pages.get('id1')?.childrenHash).toBeNull();
  });

  it('keeps groups without a body', () => {
    const base = apply(EMPTY, [{ type: 'insert_page', title: 'Doc', markdown: 'body' }]).state;
    expect(failure(() => apply(EMPTY, [{ type: 'insert_page', title: 'G', pageType: 'group', markdown: 'x' }]))).toMatchObject({
      paths: ['/body/changes/0/markdown'],
    });
    const grouped = apply(base, [{ type: 'update_page', page: 'id1', pageType: 'group' }]);
    expect(grouped.state.pages.pages.get('id1')).toMatchObject({ type: 'group', documentHash: null });
  });

  it('refuses NUL characters, which PostgreSQL cannot store', () => {
    expect(failure(() => apply(EMPTY, [{ type: 'insert_page', title: 'a\u0000b' }]))).toMatchObject({ paths: ['/body/changes/0/title'] });
  });

  it('writes one node per level on the path of a one-page edit, and shares every other node', () => {
    const depth = 6;
    const base = chain(depth);
    const result = apply(base, [{ type: 'update_page', page: `id${depth}`, title: 'Renamed' }]);
    expect(result.nodes.pages).toHaveLength(depth);
    for (let i = 1; i < depth; i++) expect(result.state.pages.pages.get(`id${i}`)?.childrenHash).not.toBe(base.pages.pages.get(`id${i}`)?.childrenHash);
    const unchanged = apply(base, [{ type: 'update_page', page: 'id1', title: 'Level 1' }]);
    expect(unchanged.nodes.pages).toHaveLength(0);
    expect(unchanged.state.pages.rootHash).toBe(base.pages.rootHash);
  });

  it('chunks long sibling lists so an edit rewrites one chunk and the chunk list', () => {
    const count = CHUNK_THRESHOLD * 4;
    const pages: ContentChange[] = Array.from({ length: count }, (_, i) => ({ type: 'insert_page', title: `Page ${i}` }));
    let state = EMPTY;
    for (let i = 0; i < count; i += 50) state = apply(state, pages.slice(i, i + 50), { ...context(), newId: idsFrom(i) }).state;
    const chunks = state.pages.chunksOf.get(null)!;
    expect(chunks.length).toBeGreaterThan(4);
    const edit = apply(state, [{ type: 'update_page', page: 'p1000', title: 'Edited' }]);
    expect(edit.nodes.pages).toHaveLength(2);
    const insert = apply(state, [{ type: 'insert_page', title: 'New', index: 700 }], { ...context(), newId: () => 'fresh' });
    expect(insert.nodes.pages.length).toBeLessThanOrEqual(3);
    expect(insert.state.pages.childrenOf.get(null)?.[700]).toBe('fresh');
  });

  it('gives equal content equal hashes whatever the edit history', () => {
    const base = apply(EMPTY, [{ type: 'insert_page', title: 'A' }]).state;
    const there = apply(base, [{ type: 'update_page', page: 'id1', title: 'B' }], context('2026-03-01T00:00:00.000Z')).state;
    const back = apply(there, [{ type: 'update_page', page: 'id1', title: 'A' }], context('2026-01-01T00:00:00.000Z')).state;
    expect(back.pages.rootHash).toBe(base.pages.rootHash);
  });

  it('adds files and upserts and deletes reusable contents', () => {
    const files = new Map([[0, { bytes: Buffer.from('x'), sha256: sha256Hex('x'), size: 1, contentType: 'text/plain' }]]);
    const result = apply(
      EMPTY,
      [
        { type: 'insert_file', name: 'x.txt', base64: 'eA==', ref: 'f' },
        { type: 'insert_page', title: 'With cover', cover: { ref: { kind: 'file', file: { ref: 'f' } }, yPos: 10 } },
        { type: 'upsert_reusable_content', title: 'R', markdown: 'one', ref: 'r' },
        { type: 'upsert_reusable_content', reusableContent: { ref: 'r' }, title: 'R2', markdown: 'two' },
      ],
      { ...context(), files },
    );
    expect([...result.state.files.items.values()]).toEqual([{ id: 'id1', name: 'x.txt', contentType: 'text/plain', size: 1, blobHash: sha256Hex('x') }]);
    expect(result.state.pages.pages.get('id2')?.cover).toEqual({ ref: { kind: 'file', file: 'id1' }, yPos: 10 });
    expect([...result.state.reusables.items.values()]).toEqual([{ id: 'id3', title: 'R2', documentHash: sha256Hex('two\n') }]);
    expect(result.blobs).toHaveLength(1);
    const deleted = apply(result.state, [{ type: 'delete_reusable_content', reusableContent: 'id3' }]);
    expect(deleted.state.reusables.rootHash).toBeNull();
    expect(failure(() => apply(EMPTY, [{ type: 'insert_page', title: 'x', cover: { ref: { kind: 'file', file: 'nope' } } }]))).toMatchObject({
      paths: ['/body/changes/0/cover/ref/file'],
    });
  });

  it('deletes files, but not one a page still uses as its cover (409)', () => {
    const files = new Map([
      [0, { bytes: Buffer.from('x'), sha256: sha256Hex('x'), size: 1, contentType: 'text/plain' }],
      [1, { bytes: Buffer.from('y'), sha256: sha256Hex('y'), size: 1, contentType: 'text/plain' }],
    ]);
    const base = apply(
      EMPTY,
      [
        { type: 'insert_file', name: 'x.txt', base64: 'eA==', ref: 'x' },
        { type: 'insert_file', name: 'y.txt', base64: 'eQ==', ref: 'y' },
        { type: 'insert_page', title: 'With cover', cover: { ref: { kind: 'file', file: { ref: 'y' } } } },
      ],
      { ...context(), files },
    ).state;

    const deleted = apply(base, [{ type: 'delete_file', file: 'id1' }]);
    expect([...deleted.state.files.items.keys()]).toEqual(['id2']);
    const inUse = failure(() => apply(base, [{ type: 'delete_file', file: 'id2' }]));
    expect(inUse).toMatchObject({ status: 409, message: expect.stringContaining('/body/changes/0/file: "id2" is the cover of page "id3"') });
    // Changing the cover first, in the same batch, frees the file.
    const freed = apply(base, [
      { type: 'update_page', page: 'id3', cover: null },
      { type: 'delete_file', file: 'id2' },
    ]);
    expect([...freed.state.files.items.keys()]).toEqual(['id1']);
    expect(failure(() => apply(base, [{ type: 'delete_file', file: 'nope' }]))).toMatchObject({ status: 400, paths: ['/body/changes/0/file'] });
    expect(failure(() => apply(deleted.state, [{ type: 'delete_file', file: 'id1' }]))).toMatchObject({ status: 400, paths: ['/body/changes/0/file'] });
    // A file inserted earlier in the batch can be named by its ref, like any other.
    const insertedThenDeleted = apply(base, [{ type: 'insert_file', name: 'z.txt', base64: 'eA==', ref: 'z' }, { type: 'delete_file', file: { ref: 'z' } }], {
      ...context(undefined, 'new'),
      files: new Map([[0, files.get(0)!]]),
    });
    expect(insertedThenDeleted.state.files.rootHash).toBe(base.files.rootHash);
  });
});

/** Pages inserted under `parent` one below the other (ids `${prefix}1`…), with the given slugs. */
function nested(parent: ParentId, prefix: string, slugs: string[]): ContentChange[] {
  return slugs.map((slug, i) => ({
    type: 'insert_page' as const,
    title: slug,
    slug,
    ref: `${prefix}${i + 1}`,
    ...(i > 0 ? { parent: { ref: `${prefix}${i}` } } : parent === null ? {} : { parent }),
  }));
}

/** A chain of `depth` pages (ids deep1…) stored with the tree editor alone, as before the limits existed. */
function storedChain(depth: number): ContentState {
  const editor = new PageTreeEditor(EMPTY_PAGE_TREE);
  for (let i = 1; i <= depth; i++) {
    const entry: PageEntry = {
      id: `deep${i}`, type: 'document', title: `Level ${i}`, slug: `p${i}`, hidden: false, noIndex: false, noRobotsIndex: false,
      createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', documentHash: null, childrenHash: null,
    };
    editor.insert(i === 1 ? null : `deep${i - 1}`, 0, entry);
  }
  return { ...EMPTY, pages: editor.commit().tree };
}

describe('page placement limits', () => {
  it(`accepts pages ${MAX_PAGE_DEPTH} levels deep and refuses one level deeper (400 naming the change)`, () => {
    const atLimit = chain(MAX_PAGE_DEPTH);
    expect(pathOf(atLimit.pages, `id${MAX_PAGE_DEPTH}`).split('/')).toHaveLength(MAX_PAGE_DEPTH);
    expect(failure(() => apply(atLimit, [{ type: 'insert_page', title: 'Too deep', parent: `id${MAX_PAGE_DEPTH}` }], context(undefined, 'new')))).toEqual({
      status: 400,
      message: expect.any(String),
      paths: ['/body/changes/0/parent'],
    });
    // Within one batch, through refs: the second change is the one refused.
    const refused = failure(() =>
      apply(chain(MAX_PAGE_DEPTH - 1), [
        { type: 'insert_page', title: 'Last', parent: `id${MAX_PAGE_DEPTH - 1}`, ref: 'last' },
        { type: 'insert_page', title: 'Too deep', parent: { ref: 'last' } },
      ], context(undefined, 'new')),
    );
    expect(refused.paths).toEqual(['/body/changes/1/parent']);
  });

  it('counts the height of a moved subtree', () => {
    // id1 > … > id40, and a second chain sub1 > … > sub25 at the top level.
    const base = apply(chain(40), nested(null, 'sub', Array.from({ length: 25 }, (_, i) => `s${i}`)), context(undefined, 'sub')).state;
    const refused = failure(() => apply(base, [{ type: 'update_page', page: 'sub1', parent: 'id40' }]));
    expect(refused).toMatchObject({ status: 400, paths: ['/body/changes/0/parent'] });
    expect(refused.message).toContain(`65 levels deep; pages nest at most ${MAX_PAGE_DEPTH} levels`);
    const moved = apply(base, [{ type: 'update_page', page: 'sub1', parent: 'id39' }]).state;
    expect(pathOf(moved.pages, 'sub25').split('/')).toHaveLength(MAX_PAGE_DEPTH);
    // A move that only reorders, or an edit, at the limit is no placement.
    expect(() => apply(moved, [{ type: 'update_page', page: 'sub25', title: 'Renamed' }])).not.toThrow();
  });

  it(`refuses a path longer than ${MAX_PAGE_PATH_LENGTH} characters, from an insert, a move or a slug`, () => {
    // 20 levels of 100-character slugs: a path of 20 × 101 − 1 = 2,019 characters.
    const slugs = Array.from({ length: 20 }, (_, i) => String(i).padStart(3, '0').padEnd(100, 'x'));
    const base = apply(EMPTY, nested(null, 'n', slugs)).state;
    const room = MAX_PAGE_PATH_LENGTH - 2019 - 1;
    const fits = apply(base, [{ type: 'insert_page', title: 'Leaf', slug: 'y'.repeat(room), parent: 'id20' }], context(undefined, 'leaf')).state;
    expect(pathOf(fits.pages, 'leaf1')).toHaveLength(MAX_PAGE_PATH_LENGTH);
    const tooLong = failure(() => apply(base, [{ type: 'insert_page', title: 'Leaf', slug: 'y'.repeat(room + 1), parent: 'id20' }], context(undefined, 'leaf')));
    expect(tooLong).toMatchObject({ status: 400, paths: ['/body/changes/0/parent'] });
    expect(tooLong.message).toContain(`${MAX_PAGE_PATH_LENGTH + 1} characters`);
    // Renaming an ancestor lengthens every path below it.
    expect(failure(() => apply(fits, [{ type: 'update_page', page: 'id1', slug: `${slugs[0]!.slice(0, 99)}zz` }]))).toMatchObject({ status: 400, paths: ['/body/changes/0/slug'] });
    // Moving id20 one level down (under a short-slugged sibling) lengthens its leaf's path by 2.
    const sibling = apply(fits, [{ type: 'insert_page', title: 'W', slug: 'w', parent: 'id19' }], context(undefined, 'w')).state;
    expect(failure(() => apply(sibling, [{ type: 'update_page', page: 'id20', parent: 'w1' }]))).toMatchObject({ status: 400, paths: ['/body/changes/0/parent'] });
  });

  it('keeps pages stored deeper than the limit editable, places nothing below the limit, and lets them move up', () => {
    const deep = storedChain(MAX_PAGE_DEPTH + 10);
    const last = `deep${MAX_PAGE_DEPTH + 10}`;
    expect(() => apply(deep, [{ type: 'update_page', page: last, title: 'Still editable' }])).not.toThrow();
    expect(failure(() => apply(deep, [{ type: 'insert_page', title: 'Below', parent: last }]))).toMatchObject({ status: 400, paths: ['/body/changes/0/parent'] });
    // deep11's subtree is MAX_PAGE_DEPTH levels high: at the top level it fits again.
    const lifted = apply(deep, [{ type: 'update_page', page: 'deep11', parent: null }]).state;
    expect(pathOf(lifted.pages, last).split('/')).toHaveLength(MAX_PAGE_DEPTH);
    expect(failure(() => apply(deep, [{ type: 'update_page', page: 'deep10', parent: null }]))).toMatchObject({ status: 400 });
  });
});

function idsFrom(start: number): () => string {
  let n = start;
  return () => `p${n++}`;
}
