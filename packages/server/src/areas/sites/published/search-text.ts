// How a search result reads in the site's search dialog and results page: the index's section text
// made readable (content/search/snippet.ts cuts it around the first match, but the text is the section's plain
// text, code blocks included: a JSON example shows as `{"a": "b\n"}` with its escapes) and the places
// where the visitor's words occur, as ranges the dialog marks (it builds the <mark>s itself, with
// text nodes: no HTML travels in the answer). Pure.

/** Escapes as code writes them (`\n`, `\t`, `\"`, `\\`, `\u00e9`): read as the character they stand for. */
const ESCAPE = /\\(?:u([0-9a-fA-F]{4})|([ntr])|(["'\\/]))/g;
/**
 * `text` with the punctuation of its data (inside `{…}` and `[…]`: braces, brackets, quotes, colons and
 * commas) made spaces. A snippet may begin or end inside such a span (it is cut around a match): an
 * unopened closing bracket closes a span from the start, an unclosed opening one runs to the end.
 */
function withoutDataPunctuation(text: string): string {
  const chars = text.split('');
  let depth = 0;
  let start = -1;
  const blank = (from: number, to: number) => {
    for (let i = from; i <= to; i++) if ('{}[]",:'.includes(chars[i]!)) chars[i] = ' ';
  };
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (char === '{' || char === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if (char === '}' || char === ']') {
      if (depth === 0) blank(0, i);
      else if (--depth === 0) blank(start, i);
    }
  }
  if (depth > 0) blank(start, chars.length - 1);
  return chars.join('');
}

/** `text` with code escapes read, the punctuation of data made spaces, and runs of space made one. */
export function readableSnippet(text: string): string {
  const unescaped = text
    .replace(ESCAPE, (_, hex: string | undefined, letter: string | undefined, char: string | undefined) => (hex ? String.fromCharCode(parseInt(hex, 16)) : letter ? ' ' : char!))
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ');
  return withoutDataPunctuation(unescaped)
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;:!?…])/g, '$1')
    .trim();
}

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The words of a query to look for: those not excluded (`-word`), folded, at most 16. */
export function queryWords(query: string): string[] {
  const words = new Set<string>();
  for (const match of query.matchAll(/(^|[\s(])?(-)?([\p{L}\p{N}]+)/gu)) {
    if (match[2] && match[1] !== undefined) continue;
    const word = fold(match[3]!);
    if (word === 'or' || word === 'and') continue;
    words.add(word);
    if (words.size === 16) break;
  }
  return [...words];
}

export type Marks = Array<[number, number]>;

/**
 * Where `words` occur in `text`, as [start, end) ranges in UTF-16 units: a word of the text that
 * begins with a query word (so "install" marks "installing", as the search's stemming finds it), or
 * with all but its last letter for longer words ("happy" marks "happiness"); CJK words wherever they
 * occur. Bounded by the text (a snippet, or a title) and the 16 words.
 */
export function markTerms(text: string, words: readonly string[]): Marks {
  if (words.length === 0 || text === '') return [];
  const marks: Marks = [];
  const cjk = words.filter((word) => CJK.test(word));
  const latin = words.filter((word) => !CJK.test(word)).map((word) => (word.length > 4 ? word.slice(0, -1) : word));
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = fold(match[0]);
    const start = match.index;
    if (latin.some((prefix) => word.startsWith(prefix))) {
      marks.push([start, start + match[0].length]);
      continue;
    }
    for (const term of cjk) {
      for (let at = match[0].indexOf(term); at >= 0; at = match[0].indexOf(term, at + term.length)) marks.push([start + at, start + at + term.length]);
    }
  }
  return marks.sort((a, b) => a[0] - b[0]).filter((mark, i, all) => i === 0 || mark[0] >= all[i - 1]![1]);
}
