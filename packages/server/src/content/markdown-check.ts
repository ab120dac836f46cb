// The gate every markdown body passes before it is stored (page and reusable-content bodies, comments,
// imported pages). Every reader parses stored bodies with micromark (format=document, comment anchors,
// links, search, PDF, published sites), and micromark's worst cases are not linear: a few kilobytes of
// unmatched `*` or `[`, or thousands of nested quotes, take seconds or overflow the stack. A body is
// parsed once here, in a worker thread (the event loop keeps serving), and refused with a 400 when its
// syntax tree nests deeper than MAX_MARKDOWN_DEPTH or it takes longer than PARSE_TIMEOUT_MS, so what is
// stored parses quickly and shallowly wherever it is read. docs/decisions.md, "Markdown bodies".
import { Piscina } from 'piscina';
import { invalidField, serviceUnavailable } from '../errors.js';
import type { ContentChange } from './apply-changes.js';

/** Levels of the syntax tree (root → block quote → list → item → paragraph → emphasis …); documents need under 20. */
export const MAX_MARKDOWN_DEPTH = 48;
/** Legitimate bodies of the 1 MB maximum parse in well under a second; past this, a body is adversarial. */
const PARSE_TIMEOUT_MS = 5_000;
/** Bodies waiting for the worker beyond this answer 503 rather than queue without bound. */
const MAX_QUEUED = 256;

let pool: Piscina | undefined;

function checker(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./markdown-check.worker.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 30_000,
    maxQueue: MAX_QUEUED,
    // The main thread's stack, not a worker's larger default: what parses here parses there.
    resourceLimits: { stackSizeMb: 1, maxOldGenerationSizeMb: 512 },
  });
  return pool;
}

type CheckResult = { depth: number } | { overflow: true };

export type MarkdownBody = { path: string; markdown: string };

/** The bodies a content batch carries (pages and reusable contents), with their addresses in the request. */
export function changeBodies(changes: ContentChange[]): MarkdownBody[] {
  return changes.flatMap((change, index) =>
    'markdown' in change && typeof change.markdown === 'string' ? [{ path: `/body/changes/${index}/markdown`, markdown: change.markdown }] : [],
  );
}

/** Refuses (400, naming the field) the first body that nests too deeply or takes too long to parse. */
export async function assertMarkdownParsable(bodies: MarkdownBody[]): Promise<void> {
  for (const { path, markdown } of bodies) {
    let result: CheckResult;
    try {
      result = (await checker().run(markdown, { signal: AbortSignal.timeout(PARSE_TIMEOUT_MS) })) as CheckResult;
    } catch (error) {
      if (isAbort(error)) throw invalidField(path, `takes too long to process: long runs of unmatched \`*\`, \`_\`, \`[\` or backticks make markdown slow to parse`);
      if (error instanceof Error && /queue/i.test(error.message)) throw serviceUnavailable('Too many bodies are being checked at once: retry shortly', 1);
      throw error;
    }
    if ('overflow' in result || result.depth > MAX_MARKDOWN_DEPTH) {
      throw invalidField(path, `nests more than ${MAX_MARKDOWN_DEPTH} levels deep (quotes, lists and emphasis inside one another)`);
    }
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** Stops the worker (server shutdown, the end of a test). */
export async function closeMarkdownChecker(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.destroy();
}
