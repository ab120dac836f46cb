// A space of many pages written in SQL (issue 28, "Search as you type": 100,000 pages), where the batch
// service (bench/lib/ten-thousand-pages.ts) would take hours. The rows are those a content batch
// writes, in the same shapes, so that the server reads, renders and searches them as if written
// through the API:
// - the text is drawn in the bench (a deterministic draw: sentences of documentation words from
//   bench/lib/vocabulary.ts, skewed towards the common ones), a lead paragraph then 2–5 `##` sections of
//   1–2 paragraphs per page, sent as arrays into a staging table; everything after is set-based SQL
//   (INSERT … SELECT): each page's Markdown (normalised: one final newline) into `documents` under its
//   sha256, as `insertDocuments` stores it;
// - the page tree is built by the server's own editor (content/editors.ts: chunked nodes, hashes) from
//   the pages' titles, slugs and document hashes, and stored with `insertNodes`; a revision on top of
//   the space's head, the head moved, and the materialised head written by `moveHeadIndex`;
// - the search rows (`search_sections`, `search_titles`, `search_words`, `search_index_heads`) with the
//   expressions of content/search/index.repository.ts `insertSections`, from the same generated
//   sections; bodies' parses (`document_parses`) are left to the first read, as for bodies stored
//   before parses were kept (content/parsed-bodies.ts).
// `checkSeededPages` reads a sample of pages back through the server's own parsing (documentSections →
// pageRows) and compares every stored search column, the tsvector included.
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { SpaceRow } from '../../packages/server/src/access/standing.repository.js';
import { insertNodes } from '../../packages/server/src/content/content-objects.repository.js';
import { PageTreeEditor } from '../../packages/server/src/content/editors.js';
import { moveHeadIndex } from '../../packages/server/src/content/head-index.js';
import { EMPTY_PAGE_TREE, emptyFlatTree, type ContentState, type PageEntry } from '../../packages/server/src/content/model.js';
import { insertRevision, swapSpaceHead } from '../../packages/server/src/content/revisions.repository.js';
import { pageRows } from '../../packages/server/src/content/search/search-index.js';
import { documentSections } from '../../packages/server/src/content/search/sections.js';
import { parseDocument } from '../../packages/server/src/content/links/document-tree.js';
import { freeSlug, slugify } from '../../packages/server/src/content/slugs.js';
import type { Database } from '../../packages/server/src/db/database.js';
import { newId } from '../../packages/server/src/ids.js';
import { DOC_WORDS, FUNCTION_WORDS } from './vocabulary.js';

export type SqlPage = { id: string; title: string; path: string; chapter: number };

/** A deterministic draw in [0, 1). */
function jsRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = [...new Set(DOC_WORDS)];
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A sentence of 6–15 words, a third of them function words, the others a skewed pick of documentation words. */
function sentence(random: () => number): string {
  const words = Array.from({ length: 6 + Math.floor(random() * 10) }, () =>
    random() < 0.33 ? FUNCTION_WORDS[Math.floor(random() * FUNCTION_WORDS.length)]! : WORDS[Math.floor(random() ** 2.2 * WORDS.length)]!,
  );
  return `${capitalised(words.join(' '))}.`;
}
const paragraph = (random: () => number) => Array.from({ length: 2 + Math.floor(random() * 4) }, () => sentence(random)).join(' ');

/** A page's sections: the lead paragraph, then 2–5 headings (anchors as github-slugger makes them) of 1–2 paragraphs. */
function pageText(random: () => number, heading: () => string): Array<{ heading: string | null; anchor: string | null; paragraphs: string[] }> {
  const seen = new Map<string, number>();
  const sections: Array<{ heading: string | null; anchor: string | null; paragraphs: string[] }> = [{ heading: null, anchor: null, paragraphs: [paragraph(random)] }];
  for (let s = 2 + Math.floor(random() * 4); s > 0; s--) {
    const text = heading();
    const base = text.toLowerCase().replace(/ /g, '-');
    const repeats = seen.get(base) ?? 0;
    seen.set(base, repeats + 1);
    sections.push({ heading: text, anchor: repeats === 0 ? base : `${base}-${repeats}`, paragraphs: Array.from({ length: 1 + Math.floor(random() * 2) }, () => paragraph(random)) });
  }
  return sections;
}

/**
 * Writes `chapters` top-level pages of `topics` children each into `space` (empty: its head has no
 * pages) and returns the pages with their site paths. Secondary search indexes are rebuilt after.
 */
export async function seedPagesInSql(
  db: Database,
  organizationId: string,
  space: SpaceRow,
  userId: string,
  options: { chapters: number; topics: number; log?: (line: string) => void },
): Promise<{ space: SpaceRow; pages: SqlPage[]; seededInMs: number }> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const now = new Date().toISOString();
  // Pages: titles of documentation words, slugs as the batch engine derives them (unique among siblings).
  const random = jsRandom(28);
  const title = (min: number) =>
    capitalised(Array.from({ length: min + Math.floor(random() * 3) }, () => WORDS[Math.floor(random() ** 1.4 * WORDS.length)]!).join(' '));
  const pages: Array<SqlPage & { n: number; slug: string; parent: number | null; description: string }> = [];
  const topSlugs = new Set<string>();
  for (let c = 0; c < options.chapters; c++) {
    const chapterTitle = title(1);
    const slug = freeSlug(slugify(chapterTitle), topSlugs);
    topSlugs.add(slug);
    const chapter = { n: pages.length, id: newId(), title: chapterTitle, slug, path: slug, parent: null, chapter: c, description: `${title(3)} and more.` };
    pages.push(chapter);
    const taken = new Set<string>();
    for (let t = 0; t < options.topics; t++) {
      const topicTitle = title(2);
      const topicSlug = freeSlug(slugify(topicTitle), taken);
      taken.add(topicSlug);
      pages.push({ n: pages.length, id: newId(), title: topicTitle, slug: topicSlug, path: `${slug}/${topicSlug}`, parent: chapter.n, chapter: c, description: `How to ${title(2).toLowerCase()}.` });
    }
  }
  await sql`DROP TABLE IF EXISTS bench_pages, bench_sections, bench_documents`.execute(db);
  await sql`CREATE UNLOGGED TABLE bench_pages (n int PRIMARY KEY, id text NOT NULL, title text NOT NULL, description text NOT NULL, path text NOT NULL)`.execute(db);
  await sql`CREATE UNLOGGED TABLE bench_sections (n int NOT NULL, ordinal int NOT NULL, heading text, anchor text, paragraphs text[] NOT NULL)`.execute(db);
  // The text is drawn here and sent as arrays (INSERT … SELECT FROM unnest), 2,000 pages a statement:
  // drawn in SQL functions it took 16 s per 1,000 pages on the shared machine.
  for (let i = 0; i < pages.length; i += 2_000) {
    const part = pages.slice(i, i + 2_000);
    await sql`
      INSERT INTO bench_pages SELECT * FROM unnest(${part.map((p) => p.n)}::int[], ${part.map((p) => p.id)}::text[], ${part.map((p) => p.title)}::text[],
        ${part.map((p) => p.description)}::text[], ${part.map((p) => p.path)}::text[])`.execute(db);
    const sections = part.flatMap((p) => pageText(random, () => title(2)).map((section, ordinal) => ({ n: p.n, ordinal, ...section })));
    await sql`
      INSERT INTO bench_sections
      SELECT n, ordinal, heading, anchor, ARRAY(SELECT jsonb_array_elements_text(paragraphs))
      FROM unnest(${sections.map((s) => s.n)}::int[], ${sections.map((s) => s.ordinal)}::int[], ${sections.map((s) => s.heading)}::text[],
        ${sections.map((s) => s.anchor)}::text[], ${sections.map((s) => JSON.stringify(s.paragraphs))}::jsonb[]) AS t(n, ordinal, heading, anchor, paragraphs)`.execute(db);
  }
  log(`text generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await sql`
    CREATE UNLOGGED TABLE bench_documents AS
    SELECT n, markdown, sha256(convert_to(markdown, 'UTF8')) AS hash FROM (
      SELECT n, string_agg(CASE WHEN ordinal = 0 THEN '' ELSE '## ' || heading || E'\n\n' END || array_to_string(paragraphs, E'\n\n'), E'\n\n' ORDER BY ordinal) || E'\n' AS markdown
      FROM bench_sections GROUP BY n) d`.execute(db);
  await sql`
    INSERT INTO documents (organization_id, hash, markdown, byte_length)
    SELECT ${organizationId}, hash, markdown, octet_length(markdown) FROM bench_documents ORDER BY hash
    ON CONFLICT DO NOTHING`.execute(db);
  const { rows: hashes } = await sql<{ n: number; hash: string }>`SELECT n, encode(hash, 'hex') AS hash FROM bench_documents`.execute(db);
  const hashOf = new Map(hashes.map((row) => [row.n, row.hash]));
  log(`documents stored in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  // The tree, by the server's editor; the revision and the head move as the revision writer makes them.
  const editor = new PageTreeEditor(EMPTY_PAGE_TREE);
  const counts = new Map<number | null, number>();
  for (const page of pages) {
    const parentId = page.parent === null ? null : pages[page.parent]!.id;
    const index = counts.get(page.parent) ?? 0;
    counts.set(page.parent, index + 1);
    const entry: PageEntry = {
      id: page.id,
      type: 'document',
      title: page.title,
      slug: page.slug,
      emoji: '📄',
      description: page.description,
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
      layout: { cover: false, coverSize: 'full', tableOfContents: true, outline: false },
      createdAt: now,
      updatedAt: now,
      documentHash: hashOf.get(page.n)!,
      childrenHash: null,
    };
    editor.insert(parentId, index, entry);
  }
  const { tree, nodes } = editor.commit();
  await insertNodes(db, 'treeNodes', organizationId, nodes);
  const head = await sql<{ pagesRoot: Buffer | null; filesRoot: Buffer | null; reusableRoot: Buffer | null }>`
    SELECT pages_root, files_root, reusable_root FROM revisions WHERE organization_id = ${organizationId} AND id = ${space.headRevisionId}`.execute(db);
  if (head.rows[0]?.pagesRoot || head.rows[0]?.filesRoot || head.rows[0]?.reusableRoot) throw new Error('seedPagesInSql writes into an empty space only');
  const revisionId = newId();
  await insertRevision(db, {
    organizationId,
    id: revisionId,
    spaceId: space.id,
    type: 'edits',
    parentIds: [space.headRevisionId],
    changeRequestId: null,
    pagesRoot: Buffer.from(tree.rootHash!, 'hex'),
    filesRoot: null,
    reusableRoot: null,
    pageCount: tree.pages.size,
    createdBy: userId,
    createdAt: new Date(now),
  });
  const moved = await swapSpaceHead(db, organizationId, space.id, space.headRevisionId, revisionId);
  if (!moved) throw new Error('the space head moved while seeding');
  const empty: ContentState = { pages: EMPTY_PAGE_TREE, files: emptyFlatTree(), reusables: emptyFlatTree() };
  await moveHeadIndex(db, organizationId, space.id, empty, { ...empty, pages: tree });
  log(`tree (${nodes.length} nodes), revision and head rows in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  // The search rows, as insertSections writes them (secondary indexes dropped, then rebuilt once).
  const { rows: indexes } = await sql<{ indexname: string; indexdef: string }>`
    SELECT i.indexname, i.indexdef FROM pg_indexes i
    WHERE i.tablename IN ('search_sections', 'search_titles', 'search_words')
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`.execute(db);
  for (const index of indexes) await sql`DROP INDEX ${sql.id(index.indexname)}`.execute(db);
  await sql`
    WITH r AS (
      SELECT p.id AS page_id, s.ordinal, d.hash AS document_hash,
        CASE WHEN s.ordinal = 0 THEN p.id ELSE s.anchor END AS section_id,
        CASE WHEN s.ordinal = 0 THEN p.title ELSE s.heading END AS head,
        CASE WHEN s.ordinal = 0 THEN p.description ELSE '' END AS description,
        array_to_string(s.paragraphs, E'\n') AS text,
        p.title AS page_title, p.path AS page_path
      FROM bench_sections s JOIN bench_pages p USING (n) JOIN bench_documents d USING (n)
    )
    INSERT INTO search_sections (organization_id, space_id, page_id, ordinal, document_hash, section_id, section_title,
      page_title, page_path, hidden, no_index, body, tsv)
    SELECT ${organizationId}, ${space.id}, r.page_id, r.ordinal, r.document_hash, r.section_id, r.head, r.page_title, r.page_path, false, false,
      CASE WHEN r.description <> '' THEN r.description || E'\n' || r.text ELSE r.text END,
      setweight(to_tsvector('cw_english', r.head), CASE WHEN r.ordinal = 0 THEN 'A' ELSE 'B' END::"char")
        || setweight(to_tsvector('cw_english', r.description), 'C')
        || setweight(to_tsvector('cw_english', r.text), 'D')
        || setweight(to_tsvector('cw_simple', ''), CASE WHEN r.ordinal = 0 THEN 'A' ELSE 'B' END::"char")
        || setweight(to_tsvector('cw_simple', ''), 'D')
    FROM r ORDER BY r.page_id, r.ordinal`.execute(db);
  await sql`
    INSERT INTO search_titles (organization_id, space_id, page_id, hidden, no_index, title)
    SELECT organization_id, space_id, page_id, hidden, no_index, ts_filter(tsv, '{a}') FROM search_sections
    WHERE organization_id = ${organizationId} AND space_id = ${space.id} AND ordinal = 0`.execute(db);
  await sql`
    INSERT INTO search_words (organization_id, word)
    SELECT DISTINCT ${organizationId}, w
    FROM search_sections s, unnest(tsvector_to_array(to_tsvector('cw_simple', s.section_title || ' ' || s.body))) AS w
    WHERE s.organization_id = ${organizationId} AND s.space_id = ${space.id} AND w ~ '^[a-z]{3,40}$'
    ORDER BY 2
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO search_index_heads (organization_id, space_id, pages_root) VALUES (${organizationId}, ${space.id}, ${Buffer.from(tree.rootHash!, 'hex')})
    ON CONFLICT (organization_id, space_id) DO UPDATE SET pages_root = EXCLUDED.pages_root`.execute(db);
  for (const index of indexes) await sql.raw(index.indexdef).execute(db);
  log(`search rows in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await sql`DROP TABLE bench_pages, bench_sections, bench_documents`.execute(db);
  await sql`VACUUM ANALYZE`.execute(db);
  return { space: moved as SpaceRow, pages: pages.map(({ id, title, path, chapter }) => ({ id, title, path, chapter })), seededInMs: performance.now() - started };
}

/**
 * Reads `sample` pages back as the server would index them (their stored Markdown parsed by
 * content/search/sections.ts, rows by search-index.ts) and throws on any difference from the stored
 * search rows: section ids, titles, paths, bodies and the tsvector (built by insertSections' expression).
 */
export async function checkSeededPages(db: Database, organizationId: string, spaceId: string, sample: string[]): Promise<void> {
  const { rows: heads } = await sql<{ pageId: string; title: string; description: string | null; path: string; documentHash: Buffer | null; markdown: string }>`
    SELECT h.page_id, h.title, h.description, h.path, h.document_hash, d.markdown
    FROM space_head_pages h JOIN documents d ON d.organization_id = h.organization_id AND d.hash = h.document_hash
    WHERE h.organization_id = ${organizationId} AND h.space_id = ${spaceId} AND h.page_id = ANY(${sample}::text[])`.execute(db);
  if (heads.length !== sample.length) throw new Error(`seed check: ${heads.length} of ${sample.length} sampled pages have a head row and a body`);
  for (const head of heads) {
    const entry = { id: head.pageId, title: head.title, description: head.description ?? undefined, documentHash: head.documentHash!.toString('hex') };
    const expected = pageRows(entry, documentSections(parseDocument(head.markdown)), { path: head.path, hidden: false, noIndex: false });
    const { rows: differences } = await sql<{ ordinal: number }>`
      WITH r AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(expected)}::jsonb) AS r(ordinal int, "sectionId" text, "sectionTitle" text, "pageTitle" text,
          "pagePath" text, body text, head text, "headWeight" text, description text, text text, "headFallback" text, fallback text)
      )
      SELECT coalesce(r.ordinal, s.ordinal) AS ordinal FROM r
      FULL JOIN (SELECT * FROM search_sections WHERE organization_id = ${organizationId} AND space_id = ${spaceId} AND page_id = ${head.pageId}) s ON s.ordinal = r.ordinal
      WHERE s.ordinal IS NULL OR r.ordinal IS NULL OR s.section_id <> r."sectionId" OR s.section_title <> r."sectionTitle" OR s.page_title <> r."pageTitle"
        OR s.page_path <> r."pagePath" OR s.body <> r.body OR s.tsv <> (
          setweight(to_tsvector('cw_english', r.head), r."headWeight"::"char")
            || setweight(to_tsvector('cw_english', r.description), 'C')
            || setweight(to_tsvector('cw_english', r.text), 'D')
            || setweight(to_tsvector('cw_simple', r."headFallback"), r."headWeight"::"char")
            || setweight(to_tsvector('cw_simple', r.fallback), 'D'))`.execute(db);
    if (differences.length > 0) throw new Error(`seed check: page ${head.pageId} (${head.path}) differs from the server's indexing in sections ${differences.map((d) => d.ordinal).join(', ')}`);
  }
}
