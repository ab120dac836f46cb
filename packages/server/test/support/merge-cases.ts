// The merge table (issue 6): each case is a base batch, the primary's batch (ours) and the change
// request's batch (theirs), and the exact outcome — the merged page tree with every body, the
// conflicts recorded, the result. The unit tests run it through merge3 directly
// (src/content/merge3-tree.test.ts), the integration tests through the API
// (test/integration/change-request-merge.test.ts). Pages are named by their `ref`; later batches get
// the ids the earlier ones made.
import type { components } from '@content-workspace/contract';

export type Change = components['schemas']['ContentChange'];
/** Ids by ref, of every page inserted so far. */
export type Ids = Record<string, string>;
export type Step = (ids: Ids) => Change[];

export type ExpectedConflict = { kind: string; page?: string | null; field?: string };

export type MergeCase = {
  name: string;
  base: Change[];
  ours: Step;
  theirs: Step;
  /** Update the change request first (expected conflicts of the update), then apply these and merge. */
  thenAfterUpdate?: { ours: Step; theirs: Step; updateConflicts: ExpectedConflict[] };
  /** The merged tree, one line per page: indentation, slug, (title), and the body when there is one. */
  outline: string[];
  conflicts: ExpectedConflict[];
};

const page = (ref: string, title: string, extra: Partial<Extract<Change, { type: 'insert_page' }>> = {}): Change => ({
  type: 'insert_page',
  title,
  ref,
  ...extra,
});

const nothing: Step = () => [];

/** Two pages with bodies, the first with two children. */
const BASE: Change[] = [
  page('intro', 'Intro', { markdown: 'Alpha\n\nBeta\n\nGamma' }),
  page('details', 'Details', { parent: { ref: 'intro' }, markdown: 'Details body' }),
  page('other', 'Other', { parent: { ref: 'intro' } }),
  page('guide', 'Guide', { markdown: 'Guide body' }),
];

export const MERGE_CASES: MergeCase[] = [
  {
    name: 'clean merge: edits to different paragraphs of one page and to different pages',
    base: BASE,
    ours: (id) => [
      { type: 'update_page', page: id.intro!, markdown: 'Alpha (primary)\n\nBeta\n\nGamma' },
      page('news', 'News'),
    ],
    theirs: (id) => [
      { type: 'update_page', page: id.intro!, markdown: 'Alpha\n\nBeta\n\nGamma (request)' },
      { type: 'update_page', page: id.guide!, title: 'Guide v2' },
    ],
    outline: [
      'intro (Intro) "Alpha (primary)\\n\\nBeta\\n\\nGamma (request)\\n"',
      '  details (Details) "Details body\\n"',
      '  other (Other)',
      'guide (Guide v2) "Guide body\\n"',
      'news (News)',
    ],
    conflicts: [],
  },
  {
    name: 'fast-forward: the primary did not move',
    base: BASE,
    ours: nothing,
    theirs: (id) => [
      page('faq', 'FAQ', { parent: id.guide!, markdown: 'Questions' }),
      { type: 'update_page', page: id.guide!, markdown: 'Guide body, revised' },
    ],
    outline: [
      'intro (Intro) "Alpha\\n\\nBeta\\n\\nGamma\\n"',
      '  details (Details) "Details body\\n"',
      '  other (Other)',
      'guide (Guide) "Guide body, revised\\n"',
      '  faq (FAQ) "Questions\\n"',
    ],
    conflicts: [],
  },
  {
    name: 'same-line conflict: the line and the title both resolve to the change request',
    base: BASE,
    ours: (id) => [{ type: 'update_page', page: id.intro!, title: 'Intro (primary)', markdown: 'Alpha\n\nBeta (primary)\n\nGamma' }],
    theirs: (id) => [{ type: 'update_page', page: id.intro!, title: 'Intro (request)', markdown: 'Alpha\n\nBeta (request)\n\nGamma' }],
    outline: [
      'intro (Intro (request)) "Alpha\\n\\nBeta (request)\\n\\nGamma\\n"',
      '  details (Details) "Details body\\n"',
      '  other (Other)',
      'guide (Guide) "Guide body\\n"',
    ],
    conflicts: [
      { kind: 'document_hunk', page: 'intro', field: 'markdown' },
      { kind: 'page_field', page: 'intro', field: 'title' },
    ],
  },
  {
    name: 'modify/delete: the primary edits a page the change request deletes',
    base: BASE,
    ours: (id) => [
      { type: 'update_page', page: id.intro!, markdown: 'Alpha, edited' },
      page('extra', 'Extra', { parent: id.intro! }),
    ],
    theirs: (id) => [{ type: 'delete_page', page: id.intro! }],
    outline: ['guide (Guide) "Guide body\\n"'],
    conflicts: [
      { kind: 'modify_delete', page: 'extra' },
      { kind: 'modify_delete', page: 'intro' },
    ],
  },
  {
    name: 'delete/modify: the primary deletes a page whose child the change request edits',
    base: BASE,
    ours: (id) => [{ type: 'delete_page', page: id.intro! }],
    theirs: (id) => [{ type: 'update_page', page: id.details!, markdown: 'Details, edited' }],
    outline: [
      'guide (Guide) "Guide body\\n"',
      'intro (Intro) "Alpha\\n\\nBeta\\n\\nGamma\\n"',
      '  details (Details) "Details, edited\\n"',
    ],
    conflicts: [
      { kind: 'modify_delete', page: 'details' },
      { kind: 'modify_delete', page: 'intro' },
    ],
  },
  {
    name: 'move into a deleted parent: the primary moves a page under one the change request deletes',
    base: BASE,
    ours: (id) => [{ type: 'update_page', page: id.guide!, parent: id.intro! }],
    theirs: (id) => [{ type: 'delete_page', page: id.intro! }],
    outline: ['guide (Guide) "Guide body\\n"'],
    conflicts: [{ kind: 'modify_delete', page: 'guide', field: 'parentId' }],
  },
  {
    name: 'move into a deleted parent: the change request moves a page under one the primary deletes',
    base: BASE,
    ours: (id) => [{ type: 'delete_page', page: id.intro! }],
    theirs: (id) => [{ type: 'update_page', page: id.guide!, parent: id.intro!, index: 0 }],
    outline: ['intro (Intro) "Alpha\\n\\nBeta\\n\\nGamma\\n"', '  guide (Guide) "Guide body\\n"'],
    conflicts: [{ kind: 'modify_delete', page: 'intro' }],
  },
  {
    name: 'move cycle: each side moves one page under the other; the primary’s move is undone',
    base: BASE,
    ours: (id) => [{ type: 'update_page', page: id.intro!, parent: id.guide! }],
    theirs: (id) => [{ type: 'update_page', page: id.guide!, parent: id.intro! }],
    outline: [
      'intro (Intro) "Alpha\\n\\nBeta\\n\\nGamma\\n"',
      '  details (Details) "Details body\\n"',
      '  other (Other)',
      '  guide (Guide) "Guide body\\n"',
    ],
    conflicts: [{ kind: 'move_cycle', page: 'intro', field: 'parentId' }],
  },
  {
    name: 'slug collision: both sides add a sibling with one slug; the change request’s gets a suffix',
    base: BASE,
    ours: () => [page('setupOurs', 'Setup (primary)', { slug: 'setup' })],
    theirs: () => [page('setupTheirs', 'Setup (request)', { slug: 'setup', markdown: 'Steps' })],
    outline: [
      'intro (Intro) "Alpha\\n\\nBeta\\n\\nGamma\\n"',
      '  details (Details) "Details body\\n"',
      '  other (Other)',
      'guide (Guide) "Guide body\\n"',
      'setup (Setup (primary))',
      'setup-2 (Setup (request)) "Steps\\n"',
    ],
    conflicts: [{ kind: 'slug_collision', page: 'setupTheirs', field: 'slug' }],
  },
  {
    name: 'reorder on both sides, in different places: both orders apply',
    base: [page('a', 'A'), page('b', 'B'), page('c', 'C'), page('d', 'D'), page('e', 'E'), page('f', 'F')],
    ours: (id) => [{ type: 'update_page', page: id.b!, index: 0 }],
    theirs: (id) => [{ type: 'update_page', page: id.f!, index: 4 }],
    outline: ['b (B)', 'a (A)', 'c (C)', 'd (D)', 'f (F)', 'e (E)'],
    conflicts: [],
  },
  {
    name: 'reorder on both sides, of the same pages: the change request’s order wins',
    base: [page('a', 'A'), page('b', 'B'), page('c', 'C'), page('d', 'D')],
    ours: (id) => [{ type: 'update_page', page: id.d!, index: 0 }],
    theirs: (id) => [{ type: 'update_page', page: id.a!, index: 3 }],
    outline: ['b (B)', 'c (C)', 'd (D)', 'a (A)'],
    conflicts: [{ kind: 'page_field', page: null, field: 'pages' }],
  },
  {
    name: 'update then merge: the update pulls the primary in, the merge only adds what came after',
    base: BASE,
    ours: (id) => [{ type: 'update_page', page: id.intro!, markdown: 'Alpha (primary)\n\nBeta\n\nGamma' }],
    theirs: (id) => [{ type: 'update_page', page: id.intro!, markdown: 'Alpha\n\nBeta\n\nGamma (request)' }],
    thenAfterUpdate: {
      updateConflicts: [],
      ours: (id) => [{ type: 'update_page', page: id.intro!, markdown: 'Alpha (primary)\n\nBeta (primary, later)\n\nGamma' }],
      theirs: (id) => [{ type: 'update_page', page: id.intro!, title: 'Intro (request)' }],
    },
    outline: [
      'intro (Intro (request)) "Alpha (primary)\\n\\nBeta (primary, later)\\n\\nGamma (request)\\n"',
      '  details (Details) "Details body\\n"',
      '  other (Other)',
      'guide (Guide) "Guide body\\n"',
    ],
    conflicts: [],
  },
];

/** A page tree as outline lines (see MergeCase.outline). */
export type OutlinePage = { slug: string; title: string; markdown: string; pages: OutlinePage[] };

export function outlineOf(pages: OutlinePage[], depth = 0): string[] {
  return pages.flatMap((p) => [
    `${'  '.repeat(depth)}${p.slug} (${p.title})${p.markdown ? ` ${JSON.stringify(p.markdown)}` : ''}`,
    ...outlineOf(p.pages, depth + 1),
  ]);
}

/** Conflicts as the table states them: kind, page ref (null: the top level) and field, sorted. */
export function describeConflicts(conflicts: Array<{ kind: string; pageId?: string | null; page?: string | null; field?: string | null }>, refs: Ids): ExpectedConflict[] {
  const refOf = new Map(Object.entries(refs).map(([ref, id]) => [id, ref]));
  return conflicts
    .map((c) => {
      const id = c.pageId !== undefined ? c.pageId : c.page;
      return {
        kind: c.kind,
        ...(id !== undefined ? { page: id === null ? null : (refOf.get(id) ?? id) } : {}),
        ...(c.field ? { field: c.field } : {}),
      };
    })
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}
