// The gate every markdown body passes before it is stored (page and reusable-content bodies, comments,
// imported pages): it is read once, in the parse pool (content/body-parse.ts), and refused with a 400
// naming its field when its tree nests deeper than MAX_MARKDOWN_DEPTH or its parse takes longer than
// PARSE_DEADLINE_MS. What the gate read is handed to the writer, which stores it beside the body
// (content/parsed-bodies.ts): no read parses the body again. docs/decisions.md, "Markdown bodies".
import { invalidField } from '../errors.js';
import { ParseLimitError, type ParsePool } from '../parsing/parse-pool.js';
import type { ContentChange } from './apply-changes.js';
import { MAX_MARKDOWN_DEPTH, type BodyVerdict, type ParsedBody } from './body-parse.js';

export { MAX_MARKDOWN_DEPTH };

/**
 * Legitimate bodies of the 1 MB maximum are read (parsed, and every stored part derived) in well under
 * a second on a loaded machine; past this, a body is adversarial (docs/decisions.md measures both).
 */
export const PARSE_DEADLINE_MS = 3_000;

export type MarkdownBody = { path: string; markdown: string };

/** Bodies the gate read, by document hash: what the writer stores beside them. */
export type ParsedBodies = ReadonlyMap<string, ParsedBody>;

/** The bodies a content batch carries (pages and reusable contents), with their addresses in the request. */
export function changeBodies(changes: ContentChange[]): MarkdownBody[] {
  return changes.flatMap((change, index) =>
    'markdown' in change && typeof change.markdown === 'string' ? [{ path: `/body/changes/${index}/markdown`, markdown: change.markdown }] : [],
  );
}

const TOO_DEEP = `nests more than ${MAX_MARKDOWN_DEPTH} levels deep (quotes, lists and emphasis inside one another)`;
const TOO_SLOW = 'takes too long to process: long runs of unmatched `*`, `_`, `[` or backticks make markdown slow to parse';

/** One body through the gate: what it read, or the 400 naming `path`. */
async function readThrough(parsing: ParsePool, body: MarkdownBody, normalize: boolean, signal?: AbortSignal): Promise<ParsedBody> {
  let verdict: BodyVerdict;
  try {
    verdict = await parsing.run('markdown', { markdown: body.markdown, normalize }, { deadlineMs: PARSE_DEADLINE_MS, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (!(error instanceof ParseLimitError)) throw error;
    throw invalidField(body.path, error.limit === 'stack' ? TOO_DEEP : error.limit === 'time' ? TOO_SLOW : 'needs too much memory to process');
  }
  if (!verdict.ok) throw invalidField(body.path, TOO_DEEP);
  return verdict.parsed;
}

/**
 * Page and reusable-content bodies through the gate, one after the other (a request holds one worker
 * at a time): what they read, by document hash, or the 400 of the first one refused.
 */
export async function parseMarkdownBodies(parsing: ParsePool, bodies: MarkdownBody[], signal?: AbortSignal): Promise<Map<string, ParsedBody>> {
  const parsed = new Map<string, ParsedBody>();
  for (const body of bodies) {
    const read = await readThrough(parsing, body, true, signal);
    if (read.hash !== null) parsed.set(read.hash, read);
  }
  return parsed;
}

/** A comment's body through the gate: its tree as JSON text, stored with it (`format=document`). */
export async function parseCommentBody(parsing: ParsePool, body: MarkdownBody): Promise<string> {
  return (await readThrough(parsing, body, false)).tree;
}
