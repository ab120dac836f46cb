// Content-addressed objects (docs/design/content-model.md, "Trees and content objects"): insert-only, `ON CONFLICT DO NOTHING`,
// keyed by (organization_id, hash). Inserts go in hash order so concurrent writers take row locks in
// the same order and never deadlock on shared objects.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { sql } from 'kysely';
import type { Caches } from '../caches.js';
import { copyRows } from '../db/copy-rows.js';
import type { Executor } from '../db/database.js';
import { rawQuery, value } from '../db/raw-query.js';

export type NodeTable = 'treeNodes' | 'fileNodes' | 'reusableNodes';

const TABLE_NAMES: Record<NodeTable, string> = { treeNodes: 'tree_nodes', fileNodes: 'file_nodes', reusableNodes: 'reusable_nodes' };

/** Rows per INSERT: keeps statements far below PostgreSQL's 65,535 parameters. */
const ROWS_PER_STATEMENT = 1000;

const hex = (hash: string) => Buffer.from(hash, 'hex');

function inChunks<T>(items: T[], size = ROWS_PER_STATEMENT): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** A node's stored form: its JSON text, deflated (see the content-store migration). */
export const encodeNode = (json: string): Buffer => deflateRawSync(json);
export const decodeNode = (data: Buffer): unknown => JSON.parse(inflateRawSync(data).toString('utf8'));

/** Stores nodes given as JSON text (already canonical: the text is what was hashed). */
export async function insertNodes(db: Executor, table: NodeTable, organizationId: string, nodes: Array<{ hash: string; json: string }>): Promise<void> {
  const sorted = [...nodes].sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  for (const part of inChunks(sorted)) {
    await db
      .insertInto(table)
      .values(part.map((node) => ({ organizationId, hash: hex(node.hash), data: encodeNode(node.json) })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** The decoded JSON of each found node, by hex hash. */
export async function loadNodes(db: Executor, table: NodeTable, organizationId: string, hashes: string[]): Promise<Map<string, unknown>> {
  const found = new Map<string, unknown>();
  if (hashes.length === 0) return found;
  const rows = await db
    .selectFrom(table)
    .select(['hash', 'data'])
    .where('organizationId', '=', organizationId)
    .where('hash', '=', sql<Buffer>`ANY(${hashes.map(hex)}::bytea[])`)
    .execute();
  for (const row of rows) found.set(row.hash.toString('hex'), decodeNode(row.data));
  return found;
}

/** Copies the named nodes of one organization to another (transfer); existing ones are kept. */
export async function copyNodes(db: Executor, table: NodeTable, from: string, to: string, hashes: string[]): Promise<void> {
  for (const part of inChunks([...hashes].sort(), 5000)) await copyObjects(db, TABLE_NAMES[table], 'hash', from, to, part);
}

/** Copies one organization's objects (`key`: their hex hashes) to another, in hash order, keeping those it has. */
async function copyObjects(db: Executor, table: string, key: 'hash' | 'sha256' | 'document_hash', from: string, to: string, hashes: string[]): Promise<void> {
  if (hashes.length === 0) return;
  await copyRows(db, table, {
    set: { organization_id: to },
    where: sql<boolean>`src.organization_id = ${from} AND ${sql.ref(`src.${key}`)} = ANY(${hashes.map(hex)}::bytea[])`,
    skipExisting: true,
    orderBy: [key],
  });
}

export async function insertDocuments(db: Executor, organizationId: string, documents: Array<{ hash: string; markdown: string }>): Promise<void> {
  const sorted = [...documents].sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  for (const part of inChunks(sorted)) {
    await db
      .insertInto('documents')
      .values(part.map((doc) => ({ organizationId, hash: hex(doc.hash), markdown: doc.markdown, byteLength: Buffer.byteLength(doc.markdown) })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/**
 * Bodies by hex hash, read from the database: for a body read once (parsed to store its parse, or a
 * merge's three bodies), which the `documentBodies` cache would only fill with entries read once.
 */
export async function selectDocuments(db: Executor, organizationId: string, hashes: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const unique = [...new Set(hashes)];
  if (unique.length === 0) return found;
  const rows = await db
    .selectFrom('documents')
    .select(['hash', 'markdown'])
    .where('organizationId', '=', organizationId)
    .where('hash', '=', sql<Buffer>`ANY(${unique.map(hex)}::bytea[])`)
    .execute();
  for (const row of rows) found.set(row.hash.toString('hex'), row.markdown);
  return found;
}

/**
 * Bodies by hex hash for reading content, through the `documentBodies` cache (caches.ts), by
 * organization and hash: a body never changes under its hash, so a page read takes no query for a body
 * read before, and a cached body is never stale.
 */
export async function loadDocuments(db: Executor, caches: Pick<Caches, 'documentBodies'>, organizationId: string, hashes: string[]): Promise<Map<string, string>> {
  const cache = caches.documentBodies;
  const found = new Map<string, string>();
  const missing: string[] = [];
  for (const hash of new Set(hashes)) {
    const cached = cache.get(`${organizationId}:${hash}`);
    if (cached === undefined) missing.push(hash);
    else found.set(hash, cached);
  }
  for (const [hash, markdown] of await selectDocuments(db, organizationId, missing)) {
    found.set(hash, markdown);
    cache.set(`${organizationId}:${hash}`, markdown);
  }
  return found;
}

export type FileBlobMeta = { sha256: string; size: number; width: number | null; height: number | null; storage: string };

export async function insertFileBlobs(db: Executor, organizationId: string, blobs: FileBlobMeta[]): Promise<void> {
  const unique = [...new Map(blobs.map((blob) => [blob.sha256, blob])).values()].sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1));
  if (unique.length === 0) return;
  await db
    .insertInto('fileBlobs')
    .values(unique.map((blob) => ({ organizationId, sha256: hex(blob.sha256), size: blob.size, width: blob.width, height: blob.height, storage: blob.storage })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * The organization's content-object lock, held to the end of the transaction. Writers that store
 * objects (or rely on ones that exist: inserts skip them) hold it shared; garbage collection holds it
 * exclusive, so it never sweeps an object a writer is about to reference.
 */
export async function lockContentObjects(db: Executor, organizationId: string, mode: 'shared' | 'exclusive'): Promise<void> {
  await (mode === 'shared'
    ? sql`SELECT pg_advisory_xact_lock_shared(hashtext('cw:content-objects'), hashtext(${organizationId}))`
    : sql`SELECT pg_advisory_xact_lock(hashtext('cw:content-objects'), hashtext(${organizationId}))`
  ).execute(db);
}

/** One garbage collection per organization at a time (held to the end of the transaction). */
export async function lockGarbageCollector(db: Executor, organizationId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('cw:content-gc'), hashtext(${organizationId}))`.execute(db);
}

/** Notes that some of these organizations' objects may no longer be reachable (a purge, a transfer out). */
export async function markContentGarbage(db: Executor, organizationIds: string[]): Promise<void> {
  if (organizationIds.length === 0) return;
  await sql`
    INSERT INTO content_garbage_marks (organization_id)
    SELECT DISTINCT unnest(${organizationIds}::text[])
    ON CONFLICT (organization_id) DO UPDATE SET marked_at = now()`.execute(db);
}

/**
 * Organizations marked for garbage collection, oldest mark first, with the mark's time as PostgreSQL
 * text: a JavaScript Date keeps milliseconds only, and a mark compared against a truncated time would
 * never be cleared.
 */
export async function markedForGarbage(db: Executor, limit: number): Promise<Array<{ organizationId: string; markedAt: string }>> {
  return db
    .selectFrom('contentGarbageMarks')
    .select(['organizationId', sql<string>`marked_at::text`.as('markedAt')])
    .orderBy('contentGarbageMarks.markedAt')
    .limit(limit)
    .execute();
}

/** Removes the mark unless it was renewed after `markedAt` (more garbage arrived meanwhile). */
export async function clearGarbageMark(db: Executor, organizationId: string, markedAt: string): Promise<void> {
  await db
    .deleteFrom('contentGarbageMarks')
    .where('organizationId', '=', organizationId)
    .where(sql<boolean>`marked_at <= ${markedAt}::timestamptz`)
    .execute();
}

export type ObjectTable = NodeTable | 'documents' | 'fileBlobs';

const OBJECT_TABLES: Record<ObjectTable, { table: string; key: string }> = {
  treeNodes: { table: 'tree_nodes', key: 'hash' },
  fileNodes: { table: 'file_nodes', key: 'hash' },
  reusableNodes: { table: 'reusable_nodes', key: 'hash' },
  documents: { table: 'documents', key: 'hash' },
  fileBlobs: { table: 'file_blobs', key: 'sha256' },
};

/**
 * Deletes the organization's objects of `table` whose hash is not in `keep` (hex) and answers the
 * deleted hashes. `keep` travels through a temporary table, so it may hold millions of hashes.
 */
export async function deleteObjectsNotIn(db: Executor, table: ObjectTable, organizationId: string, keep: Set<string>): Promise<string[]> {
  await sql`CREATE TEMPORARY TABLE IF NOT EXISTS gc_keep (hash bytea PRIMARY KEY) ON COMMIT DROP`.execute(db);
  await sql`TRUNCATE gc_keep`.execute(db);
  for (const part of inChunks([...keep], 10_000)) {
    await sql`INSERT INTO gc_keep (hash) SELECT unnest(${part.map(hex)}::bytea[])`.execute(db);
  }
  await sql`ANALYZE gc_keep`.execute(db);
  const rows = await deleteUnkeptQuery.rows(db, table, organizationId);
  return rows.map((row) => row.hash);
}

/** Deletes the table's objects of the organization that `gc_keep` does not hold; their hex hashes. */
const deleteUnkeptQuery = rawQuery({
  name: 'deleteUnkeptObjects',
  columns: { hash: value('text') },
  statement: (table: ObjectTable, organizationId: string) => {
    const { table: name, key } = OBJECT_TABLES[table];
    return sql`
      DELETE FROM ${sql.table(name)} o
      WHERE o.organization_id = ${organizationId}
        AND NOT EXISTS (SELECT 1 FROM gc_keep k WHERE k.hash = o.${sql.ref(key)})
      RETURNING encode(o.${sql.ref(key)}, 'hex') AS hash`;
  },
  shapes: (Object.keys(OBJECT_TABLES) as ObjectTable[]).map((table): [ObjectTable, string] => [table, '']),
  // gc_keep is this transaction's temporary table.
  setup: sql`CREATE TEMPORARY TABLE IF NOT EXISTS gc_keep (hash bytea PRIMARY KEY) ON COMMIT DROP`,
});

const bytes = (hashes: string[]) => hashes.map((hash) => Buffer.from(hash, 'hex'));

/** Copies document bodies (hex hashes) from one organization to another, keeping those it has. */
export async function copyDocuments(trx: Executor, from: string, to: string, hashes: string[]): Promise<void> {
  await copyObjects(trx, 'documents', 'hash', from, to, hashes);
  // What was read of them goes along, so the copies are never parsed again (content/parsed-bodies.ts).
  await copyObjects(trx, 'document_parses', 'document_hash', from, to, hashes);
}

/** Copies file blob records (hex sha256) from one organization to another; the bytes are the blob store's. */
export async function copyFileBlobRecords(trx: Executor, from: string, to: string, hashes: string[]): Promise<void> {
  await copyObjects(trx, 'file_blobs', 'sha256', from, to, hashes);
}

/** Which of the blobs (hex sha256) the organization has records of. */
export async function existingBlobHashes(db: Executor, organizationId: string, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db.selectFrom('fileBlobs').select('sha256').where('organizationId', '=', organizationId).where('sha256', 'in', bytes(hashes)).execute();
  return new Set(rows.map((row) => row.sha256.toString('hex')));
}

/** The distinct roots (hex) of one tree column over an organization's revisions, or some of its spaces'. */
export async function revisionTreeRoots(db: Executor, scope: { organizationId: string; spaceIds?: string[] }, column: TreeColumn): Promise<string[]> {
  const rows = await treeRootsQuery.rows(db, scope, column);
  return rows.map((row) => row.hash);
}

type TreeColumn = 'pages_root' | 'files_root' | 'reusable_root';

const treeRootsQuery = rawQuery({
  name: 'revisionTreeRoots',
  columns: { hash: value('text').neverNull('the column IS NOT NULL') },
  statement: (scope: { organizationId: string; spaceIds?: string[] }, column: TreeColumn) => sql`
    SELECT DISTINCT encode(${sql.ref(column)}, 'hex') AS hash FROM revisions
    WHERE organization_id = ${scope.organizationId} AND ${sql.ref(column)} IS NOT NULL
      ${scope.spaceIds ? sql`AND space_id = ANY(${scope.spaceIds}::text[])` : sql``}`,
  shapes: [
    [{ organizationId: '' }, 'pages_root'],
    [{ organizationId: '', spaceIds: [] }, 'files_root'],
    [{ organizationId: '' }, 'reusable_root'],
  ],
});
