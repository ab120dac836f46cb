// The search box's syntax, as PostgreSQL's `websearch_to_tsquery` reads it: words must all match,
// `"quoted phrases"` match in order, `-word` excludes, `or` between two terms makes alternatives (it
// binds tighter than the implicit AND). Parsed here rather than by PostgreSQL so that each word can be
// widened (type-ahead prefix, typo neighbours, identifier parts, CJK bigrams) before it becomes a
// tsquery. Pure.

export type Term = {
  text: string;
  phrase: boolean;
  negated: boolean;
  /** The last word, typed with nothing after it: also matches as a prefix (type-ahead). */
  prefix: boolean;
};

/** Alternatives (OR) of one clause; the query is the AND of its clauses. */
export type Clause = Term[];

export type ParsedQuery = { clauses: Clause[] };

/** Terms kept per query: bounds the SQL a query makes. */
export const MAX_TERMS = 32;

type Token = { text: string; phrase: boolean; negated: boolean; end: number };

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length && tokens.length < MAX_TERMS * 2) {
    const char = input[i]!;
    if (/\s/u.test(char)) {
      i++;
      continue;
    }
    let negated = false;
    if (char === '-' && i + 1 < input.length && !/\s/u.test(input[i + 1]!)) {
      negated = true;
      i++;
    }
    if (input[i] === '"') {
      const close = input.indexOf('"', i + 1);
      const end = close < 0 ? input.length : close + 1;
      const text = input.slice(i + 1, close < 0 ? input.length : close).trim();
      if (text) tokens.push({ text, phrase: true, negated, end });
      i = end;
      continue;
    }
    let j = i;
    while (j < input.length && !/\s/u.test(input[j]!) && input[j] !== '"') j++;
    tokens.push({ text: input.slice(i, j), phrase: false, negated, end: j });
    i = j;
  }
  return tokens;
}

/** Parses the search box's text; terms made only of punctuation are kept (the tsquery drops them). */
export function parseQuery(input: string): ParsedQuery {
  const text = input.replace(/\p{Cc}/gu, ' ');
  const tokens = tokenize(text);
  const clauses: Clause[] = [];
  let joinNext = false;
  tokens.forEach((token, index) => {
    const isOr = !token.phrase && !token.negated && token.text.toLowerCase() === 'or';
    if (isOr && clauses.length > 0 && index < tokens.length - 1) {
      joinNext = true;
      return;
    }
    const last = index === tokens.length - 1;
    const term: Term = {
      text: token.text,
      phrase: token.phrase,
      negated: token.negated,
      prefix: last && !token.phrase && !token.negated && token.end === text.length,
    };
    if (joinNext) clauses.at(-1)!.push(term);
    else clauses.push([term]);
    joinNext = false;
  });
  return { clauses: clauses.slice(0, MAX_TERMS) };
}

/** True when some term can match on its own (a query of exclusions only finds nothing). */
export function hasPositiveTerm(query: ParsedQuery): boolean {
  return query.clauses.some((clause) => clause.some((term) => !term.negated));
}
