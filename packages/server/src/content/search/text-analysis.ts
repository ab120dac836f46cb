// What PostgreSQL's English parser splits badly, made findable (docs/decisions.md, Search): code
// identifiers in camelCase or joined by dots become their parts ("getSpaceById" → "get space by id"),
// and runs of CJK characters, which the parser keeps as one long word, become overlapping bigrams
// ("全文検索" → "全文 文検 検索"), as Lucene's CJK analyzer does. The same functions prepare the
// indexed text and the query, so both sides agree. Pure.

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
// A word-like token, punctuation that joins identifiers included.
const TOKEN = /[\p{L}\p{N}_$.]+/gu;
// Boundaries inside an identifier: separators, lower→upper ("getSpace"), an acronym's end ("HTTPServer").
// Not letter↔digit: "sha256" or "utf8" are words of their own, and parts like "1" would make every
// such phrase read the posting lists of the most common tokens.
const PARTS = /[._$]+|(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

/** The bigrams of a CJK run (the run itself when it is one character). */
export function cjkBigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  return chars.slice(0, -1).map((char, i) => char + chars[i + 1]);
}

export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/** The parts of an identifier-like token, or undefined when the parser reads it well as it is. */
export function identifierParts(token: string): string[] | undefined {
  if (hasCjk(token)) return undefined;
  const parts = token.split(PARTS).filter((part) => part.length > 0);
  return parts.length > 1 ? parts.map((part) => part.toLowerCase()) : undefined;
}

/**
 * Extra text to index beside `text`, in the `cw_simple` configuration: identifier parts and CJK
 * bigrams, each group separated so that phrases only form inside one identifier or run.
 */
export function fallbackText(text: string): string {
  const pieces: string[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const parts = identifierParts(match[0]);
    if (parts) pieces.push(parts.join(' '));
  }
  for (const match of text.matchAll(CJK_RUN)) pieces.push(cjkBigrams(match[0]).join(' '));
  // A line break between groups: phrases in the query never span two groups (positions keep counting
  // across them, but no query phrase is built from two groups either).
  return pieces.join('\n');
}

/** The fallback phrase a query term adds (bigrams or identifier parts), or undefined when none. */
export function fallbackPhrase(term: string): string | undefined {
  const runs = [...term.matchAll(CJK_RUN)].map((match) => match[0]);
  if (runs.length > 0) return runs.flatMap(cjkBigrams).join(' ');
  const parts = [...term.matchAll(TOKEN)].flatMap((match) => identifierParts(match[0]) ?? []);
  return parts.length > 1 ? parts.join(' ') : undefined;
}
