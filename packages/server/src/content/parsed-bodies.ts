// What was read of each stored body (content/body-parse.ts): its tree, search sections and blocks in
// `document_parses`, its links in `document_links`, written together with the body — by the revision
// writer, in its transaction, from what the markdown gate read (or, for bodies a request did not carry
// such as a merge's, read now in the parse pool). Reads take the stored parts; a body stored before
// parses were kept (or copied without them) is read in the pool the first time a part is needed, and
// stored. Nothing here parses on the event loop.
import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import { column, rawQuery, value } from '../db/raw-query.js';
import { ParseLimitError, type ParsePool } from '../parsing/parse-pool.js';
import type { ParsedBody } from './body-parse.js';
import { lockContentObjects, selectDocuments } from './content-objects.repository.js';
import { parseDeadlineMs, type ParsedBodies } from './markdown-check.js';

/** A stored body read again (no row yet) gets twice a request's gate: it was accepted once. */
const storedDeadlineMs = (markdown: string) => 2 * parseDeadlineMs(markdown.length);

export type BodyPart = 'tree' | 'sections' | 'blocks';

/** What a body's stored parse is needed for: the pool that reads bodies without one, and what a request's gate read already. */
export type BodyParsing = { pool: ParsePool; known?: ParsedBodies | undefined };

const hexes = (hashes: Iterable<string>) => [...new Set(hashes)].sort();
const bytea = (hashes: string[]) => hashes.map((hash) => Buffer.from(hash, 'hex'));

/**
 * A stored body read in the pool: as the gate reads it, or — when the gate would refuse it (too deep,
 * too slow: stored before the gate, or made by a merge) — as one code block (`readable` false).
 */
async function readStored(pool: ParsePool, markdown: string, normalize = true): Promise<{ parsed: ParsedBody; readable: boolean }> {
  try {
    const verdict = await pool.run('markdown', { markdown, normalize }, { deadlineMs: storedDeadlineMs(markdown) });
    if (verdict.ok) return { parsed: verdict.parsed, readable: true };
  } catch (error) {
    if (!(error instanceof ParseLimitError)) throw error;
  }
  return { parsed: await pool.run('markdown-unreadable', { markdown }, { deadlineMs: storedDeadlineMs(markdown) }), readable: false };
}

/** The tree (JSON text) of a stored comment written before trees were kept, read now in the pool. */
export async function readStoredCommentTree(pool: ParsePool, markdown: string): Promise<string> {
  return (await readStored(pool, markdown, false)).parsed.tree;
}

/** Hashes among the given ones whose parse or links row is missing. */
const unparsedQuery = rawQuery({
  name: 'unparsedDocuments',
  columns: { hash: value('bytea') },
  statement: (organizationId: string, hashes: Buffer[]) => sql`
    SELECT h.hash FROM unnest(${hashes}::bytea[]) AS h(hash)
    WHERE NOT EXISTS (SELECT 1 FROM document_parses p WHERE p.organization_id = ${organizationId} AND p.document_hash = h.hash)
       OR NOT EXISTS (SELECT 1 FROM document_links l WHERE l.organization_id = ${organizationId} AND l.document_hash = h.hash)`,
  shapes: [['', []]],
});

/** One stored part of the bodies' parses, as JSON text (the main thread never walks it). */
const bodyPartsQuery = rawQuery({
  name: 'documentParseParts',
  columns: { hash: column('documentParses', 'documentHash'), value: value('text') },
  statement: (organizationId: string, part: BodyPart, hashes: Buffer[]) => sql`
    SELECT document_hash AS hash, ${sql.ref(part)}::text AS value FROM document_parses
    WHERE organization_id = ${organizationId} AND document_hash = ANY(${hashes}::bytea[])`,
  shapes: [
    ['', 'tree', []],
    ['', 'sections', []],
    ['', 'blocks', []],
  ],
});

/** Hashes among `hashes` whose parse or links row is missing. */
async function unparsed(db: Executor, organizationId: string, hashes: string[]): Promise<string[]> {
  if (hashes.length === 0) return [];
  const rows = await unparsedQuery.rows(db, organizationId, bytea(hashes));
  return rows.map((row) => row.hash.toString('hex'));
}

/**
 * Stores one body's parse and links, as JSON text the worker made (the event loop never walks it).
 * Only while the body is stored: garbage collection may have removed it since it was read.
 */
async function insertParse(db: Executor, organizationId: string, parsed: ParsedBody & { hash: string }, readable: boolean): Promise<void> {
  await sql`
    WITH document AS (
      SELECT hash FROM documents WHERE organization_id = ${organizationId} AND hash = ${Buffer.from(parsed.hash, 'hex')}
    ), parse AS (
      INSERT INTO document_parses (organization_id, document_hash, tree, sections, blocks, readable)
      SELECT ${organizationId}, hash, ${parsed.tree}::jsonb, ${parsed.sections}::jsonb, ${parsed.blocks}::jsonb, ${readable} FROM document
      ON CONFLICT DO NOTHING
    ), links AS (SELECT ${parsed.links}::jsonb AS value)
    INSERT INTO document_links (organization_id, document_hash, anchors, links)
    SELECT ${organizationId}, document.hash, ARRAY(SELECT jsonb_array_elements_text(links.value -> 'anchors')), links.value -> 'links'
    FROM document, links
    ON CONFLICT DO NOTHING`.execute(db);
}

/**
 * Stores what was read of bodies just stored (in the writer's transaction, which holds the
 * content-object lock): what the request's gate read, else read now in the pool. Bodies that have
 * their rows already are not read again.
 */
export async function storeParsedBodies(trx: Executor, organizationId: string, documents: Array<{ hash: string; markdown: string }>, parsing: BodyParsing): Promise<void> {
  if (documents.length === 0) return;
  const bodies = new Map(documents.map((doc) => [doc.hash, doc.markdown]));
  for (const hash of await unparsed(trx, organizationId, hexes(bodies.keys()))) {
    const known = parsing.known?.get(hash);
    const { parsed, readable } = known ? { parsed: known, readable: true } : await readStored(parsing.pool, bodies.get(hash)!);
    await insertParse(trx, organizationId, { ...parsed, hash }, readable);
  }
}

/**
 * Reads in the pool, and stores, the bodies among `hashes` that have no stored parse: outside any
 * transaction while parsing, then each stored under the content-object lock.
 */
export async function parseUnparsedBodies(db: Executor, pool: ParsePool, organizationId: string, hashes: Iterable<string>): Promise<void> {
  const missing = await unparsed(db, organizationId, hexes(hashes));
  if (missing.length === 0) return;
  const bodies = await selectDocuments(db, organizationId, missing);
  for (const [hash, markdown] of bodies) {
    const { parsed, readable } = await readStored(pool, markdown);
    await inTransaction(db, async (trx) => {
      await lockContentObjects(trx, organizationId, 'shared');
      await insertParse(trx, organizationId, { ...parsed, hash }, readable);
    });
  }
}

/**
 * Reads the stored `part` of bodies by hash, reading bodies without one first. The part comes as JSON
 * text and is parsed here, not by the driver: the database plugin would camel-case the keys of every
 * node of a tree (db/database.ts), the largest part of reading one.
 */
export async function loadBodyParts(db: Executor, pool: ParsePool, organizationId: string, hashes: Iterable<string>, part: BodyPart): Promise<Map<string, unknown>> {
  const texts = await loadBodyPartsText(db, pool, organizationId, hashes, part);
  return new Map([...texts].map(([hash, text]) => [hash, JSON.parse(text) as unknown]));
}

/** As `loadBodyParts`, the part as its JSON text: for a worker to read (PDF layout, re-anchoring). */
export async function loadBodyPartsText(db: Executor, pool: ParsePool, organizationId: string, hashes: Iterable<string>, part: BodyPart): Promise<Map<string, string>> {
  const wanted = hexes(hashes);
  const found = new Map<string, string>();
  if (wanted.length === 0) return found;
  const select = async (some: string[]) => {
    for (const row of await bodyPartsQuery.rows(db, organizationId, part, bytea(some))) found.set(row.hash.toString('hex'), row.value);
  };
  await select(wanted);
  const missing = wanted.filter((hash) => !found.has(hash));
  if (missing.length > 0) {
    await parseUnparsedBodies(db, pool, organizationId, missing);
    await select(missing);
  }
  return found;
}
