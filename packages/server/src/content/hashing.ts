// Content addressing: canonical JSON (sorted keys, no undefined) hashed with sha256. Equal content
// gives equal hashes whatever the key order, so unchanged objects are found and shared by hash.
import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonical(item))).join(',')}]`;
  const keys = Object.keys(value as Record<string, unknown>)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`;
}

// Entries are immutable objects shared between tree versions: memoising their JSON makes re-hashing a
// node after one entry changed cost one serialisation, not one per sibling.
const memo = new WeakMap<object, string>();

/** Canonical JSON of a value; objects are memoised, so they must never be mutated afterwards. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return canonical(value);
  const known = memo.get(value);
  if (known !== undefined) return known;
  const text = Array.isArray(value) ? `[${value.map((item) => canonicalJson(item)).join(',')}]` : canonical(value);
  memo.set(value, text);
  return text;
}

/** LF line endings and exactly one final newline; an empty (or blank-lines-only) body stays empty. */
export function normalizeMarkdown(markdown: string): string {
  const lf = markdown.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  return lf === '' ? '' : `${lf}\n`;
}

/** The document hash of a normalised body; null for the empty body (no document is stored). */
export function documentHashOf(normalized: string): string | null {
  return normalized === '' ? null : sha256Hex(normalized);
}
