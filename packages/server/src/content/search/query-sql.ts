// A parsed query as a PostgreSQL tsquery expression (docs/decisions.md, Search). Each term becomes its
// English phrase (stemmed, accents stripped: `cw_english`), widened by:
// - its identifier parts or CJK bigrams (`cw_simple`), which the index holds beside the text;
// - for the last word (type-ahead), a prefix match, plus the organization's words that start with it
//   (a stem can be shorter than the typed prefix: "installa" must still find "installation");
// - in the fuzzy pass (run when the exact one finds nothing), the organization's words closest to it
//   by trigram similarity (pg_trgm), so "conection" finds "connection".
import { sql, type RawBuilder } from 'kysely';
import type { Clause, ParsedQuery, Term } from './query-parser.js';
import { fallbackPhrase, hasCjk } from './text-analysis.js';

/** Words a prefix or a misspelling may widen into. */
const PREFIX_WORDS = 20;
const TYPO_WORDS = 3;
/** Trigram similarity a word needs to stand in for a misspelt one (pg_trgm's default 0.3 misses "serach"). */
const TYPO_SIMILARITY = 0.2;

type Tsquery = RawBuilder<unknown>;

/** `= $1` for one organization: the trigram index (GIN, organization first) cannot use `= ANY`. */
const inOrganizations = (ids: string[]) => (ids.length === 1 ? sql`organization_id = ${ids[0]}` : sql`organization_id = ANY(${ids}::text[])`);

const or = (parts: Tsquery[]): Tsquery => (parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` || `)})`);

/** `to_tsquery` over words picked from `search_words` (empty when none: an empty tsquery matches nothing). */
function fromWords(words: RawBuilder<unknown>): Tsquery {
  return sql`to_tsquery('cw_english', coalesce((SELECT string_agg(quote_literal(w.word), ' | ') FROM (${words}) w), ''))`;
}

function termQuery(term: Term, organizationIds: string[], fuzzy: boolean): Tsquery {
  const parts: Tsquery[] = [];
  const plain = term.text.toLowerCase();
  const wordOnly = /^[\p{L}\p{N}]+$/u.test(plain) && !hasCjk(plain);
  if (term.prefix && wordOnly) {
    parts.push(sql`to_tsquery('cw_english', ${`'${plain}':*`})`);
    if ([...plain].length >= 3) {
      parts.push(
        fromWords(sql`
          SELECT word FROM search_words
          WHERE organization_id = ANY(${organizationIds}::text[])
            AND word >= unaccent(${plain}) AND word < unaccent(${plain}) || chr(1114111)
          ORDER BY word LIMIT ${PREFIX_WORDS}`),
      );
    }
  } else {
    parts.push(sql`phraseto_tsquery('cw_english', ${term.text})`);
  }
  const fallback = fallbackPhrase(term.text);
  if (fallback !== undefined) {
    // One CJK character is a prefix of the bigrams that start with it.
    parts.push([...fallback].length === 1 ? sql`to_tsquery('cw_simple', ${`'${fallback}':*`})` : sql`phraseto_tsquery('cw_simple', ${fallback})`);
  }
  if (fuzzy && wordOnly && !term.phrase && !term.negated && [...plain].length >= 3) {
    // The threshold of `%` is a setting: set for this statement only (its transaction), by a one-time
    // filter that runs before the index scan, so that the search needs no transaction of its own.
    parts.push(
      fromWords(sql`
        SELECT word FROM search_words
        WHERE (SELECT set_config('pg_trgm.similarity_threshold', ${String(TYPO_SIMILARITY)}, true)) IS NOT NULL
          AND ${inOrganizations(organizationIds)} AND word % unaccent(${plain})
        ORDER BY similarity(word, unaccent(${plain})) DESC, word LIMIT ${TYPO_WORDS}`),
    );
  }
  const query = or(parts);
  return term.negated ? sql`(!! ${query})` : query;
}

function clauseQuery(clause: Clause, organizationIds: string[], fuzzy: boolean): Tsquery {
  return or(clause.map((term) => termQuery(term, organizationIds, fuzzy)));
}

const isExclusion = (clause: Clause) => clause.length === 1 && clause[0]!.negated;

/**
 * The query as tsquery expressions: what a section must match, and what its page must not contain
 * anywhere (`-word` excludes pages, not only sections); `organizationIds` scope the word look-ups.
 */
export function tsqueryOf(query: ParsedQuery, organizationIds: string[], fuzzy: boolean): { match: Tsquery; exclude: Tsquery | undefined } {
  const positive = query.clauses.filter((clause) => !isExclusion(clause));
  const excluded = query.clauses.filter(isExclusion).map((clause) => ({ ...clause[0]!, negated: false }));
  return {
    match: sql`(${sql.join(
      positive.map((clause) => clauseQuery(clause, organizationIds, fuzzy)),
      sql` && `,
    )})`,
    exclude: excluded.length > 0 ? or(excluded.map((term) => termQuery(term, organizationIds, false))) : undefined,
  };
}

/** True when the fuzzy pass could widen something: a plain word of three letters or more. */
export function canBeFuzzy(query: ParsedQuery): boolean {
  return query.clauses.some((clause) => clause.some((term) => !term.phrase && !term.negated && /^[\p{L}]{3,}$/u.test(term.text) && !hasCjk(term.text)));
}
