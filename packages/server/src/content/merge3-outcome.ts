// What a merge collects besides the merged trees: the conflicts it resolved and the bodies it made.
import type { ConflictKind, ConflictResolution } from '../db/schema.js';
import { canonicalJson, documentHashOf, normalizeMarkdown } from './hashing.js';
import { mergeText } from './merge3-text.js';

export type MergeConflict = {
  kind: ConflictKind;
  /** The page concerned; null for the order of the top-level pages. */
  pageId?: string | null;
  fileId?: string;
  reusableContentId?: string;
  /** The field concerned (`title`, `parentId`, `markdown`, `pages` for a children order, …); absent for a whole object. */
  field?: string;
  base: unknown;
  ours: unknown;
  theirs: unknown;
  resolution: ConflictResolution;
};

/** Equal as stored: the same object, or the same canonical JSON (undefined counts as absent). */
export const same = (a: unknown, b: unknown) => a === b || canonicalJson(a ?? null) === canonicalJson(b ?? null);

/** Collects conflicts and the new bodies a merge makes. */
export class Outcome {
  readonly conflicts: MergeConflict[] = [];
  readonly documents = new Map<string, string>();

  constructor(private readonly loaded: ReadonlyMap<string, string>) {}

  record(conflict: MergeConflict): void {
    this.conflicts.push(conflict);
  }

  private text(hash: string | null): string {
    if (hash === null) return '';
    const text = this.loaded.get(hash);
    if (text === undefined) throw new Error(`Document ${hash} was not loaded for the merge`);
    return text;
  }

  /** Merges three body hashes; each conflicting hunk is recorded through `hunk`. */
  body(b: string | null, o: string | null, t: string | null, hunk: (h: { base: string; ours: string; theirs: string }) => void): string | null {
    if (o === b || o === t) return t;
    if (t === b) return o;
    const merged = mergeText(this.text(b), this.text(o), this.text(t));
    merged.hunks.forEach(hunk);
    const normalized = normalizeMarkdown(merged.text);
    const hash = documentHashOf(normalized);
    if (hash) this.documents.set(hash, normalized);
    return hash;
  }
}
