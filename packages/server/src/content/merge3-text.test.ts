import { describe, expect, it } from 'vitest';
import { MAX_MERGE_LINES, mergeText } from './merge3-text.js';

// The behaviour the design measured for node-diff3 3.2.1 before building, line by line (docs/design/content-model.md, "Merge and update").
describe('mergeText', () => {
  const base = 'Title\n\nFirst paragraph.\n\nSecond paragraph.\n';

  it.each([
    ['edits in different paragraphs merge cleanly', 'Title\n\nFirst, primary.\n\nSecond paragraph.\n', 'Title\n\nFirst paragraph.\n\nSecond, request.\n', 'Title\n\nFirst, primary.\n\nSecond, request.\n', 0],
    ['the same edit on both sides is not a conflict', 'Title\n\nSame.\n\nSecond paragraph.\n', 'Title\n\nSame.\n\nSecond paragraph.\n', 'Title\n\nSame.\n\nSecond paragraph.\n', 0],
    ['one line edited differently is a conflict resolved to the request', 'Title\n\nPrimary.\n\nSecond paragraph.\n', 'Title\n\nRequest.\n\nSecond paragraph.\n', 'Title\n\nRequest.\n\nSecond paragraph.\n', 1],
    ['deleting a paragraph the other side edits conflicts', 'Title\n\nSecond paragraph.\n', 'Title\n\nFirst, request.\n\nSecond paragraph.\n', 'Title\n\nFirst, request.\n\nSecond paragraph.\n', 1],
    ['insertions by both sides at one place conflict', `${base}Primary tail.\n`, `${base}Request tail.\n`, `${base}Request tail.\n`, 1],
  ])('%s', (_name, ours, theirs, text, hunks) => {
    const merged = mergeText(base, ours, theirs);
    expect(merged.text).toBe(text);
    expect(merged.hunks).toHaveLength(hunks);
  });

  it('edits on adjacent lines (no blank line between) conflict as one hunk', () => {
    expect(mergeText('a\nb\nc\n', 'A\nb\nc\n', 'a\nB\nc\n')).toEqual({ text: 'a\nB\nc\n', hunks: [{ base: 'a\nb', ours: 'A\nb', theirs: 'a\nB' }] });
  });

  it('records each hunk’s base, primary and request lines', () => {
    expect(mergeText('a\nb\nc\n', 'a\nB1\nc\n', 'a\nB2\nc\n')).toEqual({ text: 'a\nB2\nc\n', hunks: [{ base: 'b', ours: 'B1', theirs: 'B2' }] });
  });

  it('merges word-separated text by lines, never word by word', () => {
    expect(mergeText('one two three\n', 'one TWO three\n', 'one two THREE\n')).toEqual({ text: 'one two THREE\n', hunks: [{ base: 'one two three', ours: 'one TWO three', theirs: 'one two THREE' }] });
  });

  it('takes the request whole above the size guard, as one hunk', () => {
    const big = (tail: string) => `${'line\n'.repeat(MAX_MERGE_LINES)}${tail}\n`;
    const merged = mergeText(big('base'), big('primary'), big('request'));
    expect(merged.text).toBe(big('request'));
    expect(merged.hunks).toEqual([{ base: big('base'), ours: big('primary'), theirs: big('request') }]);
  });
});
