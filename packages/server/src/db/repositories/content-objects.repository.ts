// Content-addressed objects (design/content-model.md §5.2): insert-only, `ON CONFLICT DO NOTHING`,
// keyed by (organization_id, hash). Inserts go in hash order so concurrent writers take row locks in
// the same order and never deadlock on shared objects.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { sql } from 'kysely';
import type { Executor } from '../database.js';

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
  for (const part of inChunks([...hashes].sort(), 5000)) {
    await sql`
      INSERT INTO ${sql.table(TABLE_NAMES[table])} (organization_id, hash, data)
      SELECT ${to}, hash, data FROM ${sql.table(TABLE_NAMES[table])}
      WHERE organization_id = ${from} AND hash = ANY(${part.map(hex)}::bytea[])
      ORDER BY hash
      ON CONFLICT DO NOTHING`.execute(db);
  }
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

/** Bodies by hex hash. */
export async function loadDocuments(db: Executor, organizationId: string, hashes: string[]): Promise<Map<string, string>> {
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
