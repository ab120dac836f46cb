// The gate every markdown body passes before it is stored (page and reusable-content bodies, comments,
// imported pages): it is read once, in the parse pool (content/body-parse.ts), and refused with a 400
// naming its field when its tree nests deeper than MAX_MARKDOWN_DEPTH or its parse takes longer than
// its deadline (parseDeadlineMs). What the gate read is handed to the writer, which stores it beside
// the body (content/parsed-bodies.ts): no read parses the body again. docs/decisions.md, "Markdown
// bodies" and "Parsing off the event loop".
import { invalidField } from '../errors.js';
import { ParseLimitError, type ParsePool } from '../parsing/parse-pool.js';
import type { ContentChange } from './apply-changes.js';
import { MAX_MARKDOWN_DEPTH, type BodyVerdict, type ParsedBody } from './body-parse.js';

export { MAX_MARKDOWN_DEPTH };

/** A body's deadline in the pool: a base, and a linear allowance for its size. */
const DEADLINE_BASE_MS = 2_000;
/**
 * The gate's read (tree, sections, blocks, links) is linear for ordinary Markdown, but slower than
 * micromark alone: a 75 KB reference page took 14–27 ms a kilobyte in a worker at load 7 on the shared
 * two-core machine, past the 8 ms first allowed, so real pages were refused under load; its worst cases
 * are super-linear (20 KB of `*a` take seconds, 1 MB of lines without a blank one minutes). An
 * allowance proportional to the size, with room to spare, passes every linear read and stops the
 * super-linear ones early: a 20 KB comment gets 2.5 s, a 45 KB page 3.1 s (docs/decisions.md,
 * "Published sites: search as you type at 100,000 pages"); the request's GATE_TOTAL_MS bounds the rest.
 */
const DEADLINE_PER_KB_MS = 24;
/** The bodies of one request together: a batch of 50 bodies must not hold a worker past the request's life. */
export const GATE_TOTAL_MS = 20_000;

/** The time a body of `length` characters may take to be read. */
export function parseDeadlineMs(length: number): number {
  return DEADLINE_BASE_MS + Math.ceil(length / 1024) * DEADLINE_PER_KB_MS;
}

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

/** One body through the gate, within `timeLeft` of the request's gate: what it read, or the 400 naming `path`. */
async function readThrough(parsing: ParsePool, body: MarkdownBody, normalize: boolean, timeLeft: number, signal?: AbortSignal): Promise<ParsedBody> {
  const own = parseDeadlineMs(body.markdown.length);
  const deadlineMs = Math.max(1, Math.min(own, timeLeft));
  let verdict: BodyVerdict;
  try {
    verdict = await parsing.run('markdown', { markdown: body.markdown, normalize }, { deadlineMs, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (!(error instanceof ParseLimitError)) throw error;
    if (error.limit === 'time' && deadlineMs < own) throw invalidField(body.path, `the request's bodies together take longer than ${GATE_TOTAL_MS} ms to process: send fewer at once`);
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
  const until = Date.now() + GATE_TOTAL_MS;
  for (const body of bodies) {
    const read = await readThrough(parsing, body, true, until - Date.now(), signal);
    if (read.hash !== null) parsed.set(read.hash, read);
  }
  return parsed;
}

/** A comment's body through the gate: its tree as JSON text, stored with it (`format=document`). */
export async function parseCommentBody(parsing: ParsePool, body: MarkdownBody): Promise<string> {
  return (await readThrough(parsing, body, false, GATE_TOTAL_MS)).tree;
}
