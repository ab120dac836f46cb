// 3-way merge of markdown bodies (docs/design/content-model.md, "Merge and update"): line by line with node-diff3, every
// conflicting hunk resolved to the change request's lines. Conflict markers never reach content; the
// hunk's three versions are returned so the merge can record them.
import { diff3Merge } from 'node-diff3';

/** Above this many lines on any side, the whole body resolves to `theirs` as one conflict (size guard). */
export const MAX_MERGE_LINES = 20_000;

export type TextHunk = { base: string; ours: string; theirs: string };
export type TextMerge = { text: string; hunks: TextHunk[] };

const lines = (text: string) => text.replace(/\r\n?/g, '\n').split('\n');

/**
 * Merges `ours` (the primary) and `theirs` (the change request) from their common `base`. Always
 * called with arrays of lines: node-diff3 splits strings on whitespace, i.e. word by word, and false
 * conflicts (the same change on both sides) merge cleanly.
 */
export function mergeText(base: string, ours: string, theirs: string): TextMerge {
  if (ours === base || ours === theirs) return { text: theirs, hunks: [] };
  if (theirs === base) return { text: ours, hunks: [] };
  const [o, b, t] = [lines(ours), lines(base), lines(theirs)];
  if (Math.max(o.length, b.length, t.length) > MAX_MERGE_LINES) return { text: theirs, hunks: [{ base, ours, theirs }] };
  const merged: string[] = [];
  const hunks: TextHunk[] = [];
  for (const region of diff3Merge(o, b, t)) {
    if (region.ok) merged.push(...region.ok);
    else if (region.conflict) {
      hunks.push({ base: region.conflict.o.join('\n'), ours: region.conflict.a.join('\n'), theirs: region.conflict.b.join('\n') });
      merged.push(...region.conflict.b);
    }
  }
  return { text: merged.join('\n'), hunks };
}
