// A section's `body` in results: plain text around the first match, built here from the stored text and
// the query's lexemes (cheap and bounded, unlike `ts_headline`, which re-parses the text). A stem is
// matched as the start of a word ("connect" in "connections"; "happi" finds "happy" by its first
// letters), a CJK bigram anywhere. Pure.

import { hasCjk } from './text-analysis.js';

export const SNIPPET_LENGTH = 300;
const BEFORE = 80;

export type Lexeme = { text: string; prefix: boolean };

/** The lexemes of a tsquery's text form (`'connect' & 'instal':*`). */
export function lexemesOf(querytree: string): Lexeme[] {
  return [...querytree.matchAll(/'((?:[^']|'')+)'(:\*)?/g)].map((match) => ({ text: match[1]!.replace(/''/g, "'"), prefix: match[2] !== undefined }));
}

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

function firstMatch(body: string, lexemes: Lexeme[]): number {
  let best = -1;
  const take = (at: number) => {
    if (at >= 0 && (best < 0 || at < best)) best = at;
  };
  const words = lexemes.filter((lexeme) => /^[\p{L}\p{N}]+$/u.test(lexeme.text) && !hasCjk(lexeme.text));
  for (const lexeme of lexemes) if (!words.includes(lexeme)) take(body.indexOf(lexeme.text));
  if (words.length === 0) return best;
  // A lexeme of letters and digits found anywhere lies inside one word, so the text is searched whole,
  // folded once, when folding keeps every character in place (the usual case: a word at a time is ~10×
  // slower over the sections of an organization's result page).
  const folded = fold(body);
  if (folded.length === body.length) {
    for (const { text } of words) {
      take(folded.indexOf(text));
      if (text.length > 4) take(folded.search(new RegExp(`(?<![\\p{L}\\p{N}])${text.slice(0, -1)}`, 'u')));
    }
    return best;
  }
  for (const match of body.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (best >= 0 && match.index >= best) break;
    const word = fold(match[0]);
    for (const { text } of words) {
      if (word.startsWith(text) || (text.length > 4 && word.startsWith(text.slice(0, -1)))) take(match.index);
      // Inside an identifier ("space" in "getSpaceById"): about where it is (folding may shift it a little).
      else if (word.includes(text)) take(match.index + word.indexOf(text));
    }
  }
  return best;
}

/** Up to SNIPPET_LENGTH characters of `body` around its first match (its start when none is found). */
export function snippet(body: string, lexemes: Lexeme[]): string {
  // Whitespace runs become one space; a lone space (most of them) is not replaced, which makes this
  // several times faster than replacing every run.
  const text = body.replace(/\s{2,}|[^\S ]/g, ' ').trim();
  if (text.length <= SNIPPET_LENGTH) return text;
  const at = firstMatch(text, lexemes);
  let start = 0;
  if (at > BEFORE) {
    // Start at a word, unless the text has no spaces there (CJK).
    const space = text.lastIndexOf(' ', at - BEFORE);
    start = space >= at - 2 * BEFORE ? space + 1 : at - BEFORE;
  }
  let end = Math.min(text.length, start + SNIPPET_LENGTH);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start + SNIPPET_LENGTH / 2) end = space;
  }
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
