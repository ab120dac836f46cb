// Encoding of an ordered list of entries (a page's children, a revision's files) as content-addressed
// nodes. Up to CHUNK_THRESHOLD entries make one node (a JSON array). Longer lists are cut into chunks
// whose boundaries depend on the entries' ids only (content-defined), so inserting or editing one entry
// rewrites one chunk plus the small parent node `{"chunks": [hashes]}`, not the whole list
// (docs/design/content-model.md, "Trees and content objects").
import { canonicalJson, sha256Hex } from './hashing.js';

export const CHUNK_THRESHOLD = 512;
/** On average one id in BOUNDARY_MODULUS ends a chunk. */
const BOUNDARY_MODULUS = 128;
/** A chunk never exceeds this many entries, whatever its ids. */
const MAX_CHUNK = 1024;

/** A node to store: its hash and its JSON text. */
export type NewNode = { hash: string; json: string };

/** One chunk of a chunked list: its hash and the ids of its entries, in order. */
export type ListChunk = { hash: string; ids: readonly string[] };

export type EncodedList = {
  hash: string;
  /** The chunks when the list is chunked, else null. */
  chunks: readonly ListChunk[] | null;
  /** Nodes of this encoding that were (re)computed: store them (existing ones are skipped on insert). */
  nodes: NewNode[];
};

// FNV-1a: a cheap, stable hash of an id to place boundaries (not a security property).
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function splitIntoChunks<E extends { id: string }>(entries: readonly E[]): E[][] {
  const chunks: E[][] = [];
  let current: E[] = [];
  for (const entry of entries) {
    current.push(entry);
    if (fnv1a(entry.id) % BOUNDARY_MODULUS === 0 || current.length === MAX_CHUNK) {
      chunks.push(current);
      current = [];
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

function arrayNode<E>(entries: readonly E[]): NewNode {
  const json = `[${entries.map((entry) => canonicalJson(entry)).join(',')}]`;
  return { hash: sha256Hex(json), json };
}

/**
 * Encodes a non-empty list. `previous` are the chunks of the list this one was edited from, and
 * `changed(id)` tells whether an entry differs from its previous version: a chunk with the same ids and
 * no changed entry keeps its hash without being serialised again.
 */
export function encodeList<E extends { id: string }>(
  entries: readonly E[],
  previous: readonly ListChunk[] | null,
  changed: (id: string) => boolean,
): EncodedList {
  if (entries.length <= CHUNK_THRESHOLD) {
    const node = arrayNode(entries);
    return { hash: node.hash, chunks: null, nodes: [node] };
  }
  const byFirstId = new Map((previous ?? []).map((chunk) => [chunk.ids[0]!, chunk]));
  const nodes: NewNode[] = [];
  const chunks: ListChunk[] = splitIntoChunks(entries).map((part) => {
    const ids = part.map((entry) => entry.id);
    const old = byFirstId.get(ids[0]!);
    if (old && old.ids.length === ids.length && ids.every((id, i) => old.ids[i] === id && !changed(id))) return old;
    const node = arrayNode(part);
    nodes.push(node);
    return { hash: node.hash, ids };
  });
  const json = canonicalJson({ chunks: chunks.map((chunk) => chunk.hash) });
  const hash = sha256Hex(json);
  nodes.push({ hash, json });
  return { hash, chunks, nodes };
}

/** The chunk hashes of a stored list node, or null when the node holds its entries itself. */
export function chunkHashesOf(node: unknown): string[] | null {
  if (Array.isArray(node)) return null;
  const chunks = (node as { chunks?: unknown } | null)?.chunks;
  if (!Array.isArray(chunks)) throw new Error('Corrupt list node: neither entries nor chunks');
  return chunks as string[];
}
