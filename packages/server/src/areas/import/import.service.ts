// A content import: read the source within the import's limits (no transaction is open meanwhile;
// every page, file and outline parsed in the parse pool), then write everything read as ONE revision
// through the batch engine, on the space's head or the change request's. Anything failing before the
// write writes nothing; the write is one transaction, committed only while its client still waits
// for the answer and the request's time is not up (docs/decisions.md, "Parsing off the event loop").
import type { ParsedBody } from '../../content/body-parse.js';
import { parseMarkdownBodies, type ParsedBodies } from '../../content/markdown-check.js';
import type { components } from '@content-workspace/contract';
import type { AppContext } from '../../context.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { HttpError, invalidField, unprocessable } from '../../errors.js';
import { ParseCancelledError } from '../../parsing/parse-pool.js';
import { fetchGuarded, OutboundError } from '../../outbound.js';
import { applyChangeRequestBatch } from '../change-requests/index.js';
import { applySpaceBatch } from '../content/index.js';
import type { EventActor } from '../events/index.js';
import { readDocsArchive } from './docs-archive.js';
import { ImportBudget } from './import-budget.js';
import { ImportParser } from './import-parser.js';
import { countPages, planBatch, type ImportedPage } from './import-plan.js';
import { readMarkdownDocument, readWebsite, type SourceRead } from './web-sources.js';
import { ZipArchive } from './zip-archive.js';

type ImportRequest = components['schemas']['ContentImportRequest'];
type ImportResult = components['schemas']['ContentImportResult'];
type App = Pick<AppContext, 'db' | 'config' | 'parsing' | 'urls' | 'caches' | 'blobs'>;

/** Where the import writes: the space's head, or a change request's. */
export type ImportTarget = { space: SpaceRow; changeRequestId?: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const tooLarge = (maxBytes: number) => new HttpError(413, `The archive is larger than the import's limit of ${maxBytes} bytes`);

/** The archive's bytes, decoded or fetched (capped by the import's byte limit, within its time). */
async function archiveBytes(request: ImportRequest, app: App, budget: ImportBudget): Promise<Buffer> {
  const { maxBytes } = app.config.import;
  if (request.base64 !== undefined) {
    const text = request.base64;
    if (text.length % 4 === 1 || !BASE64.test(text)) throw invalidField('/body/base64', 'must be base64 (standard alphabet)');
    if (Math.floor((text.length * 3) / 4) - (text.match(/=+$/)?.[0].length ?? 0) > maxBytes) throw tooLarge(maxBytes);
    return Buffer.from(text, 'base64');
  }
  try {
    const response = await fetchGuarded(request.url!, { ...app.config.outbound, timeoutMs: Math.max(1, budget.remainingMs()), maxBytes });
    return response.body;
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    if (error.code === 'BAD_URL' || error.code === 'FORBIDDEN_ADDRESS') throw invalidField('/body/url', error.message);
    if (error.code === 'TOO_LARGE') throw tooLarge(maxBytes);
    throw unprocessable(`${request.url} could not be fetched: ${error.message}`);
  }
}

async function readSource(request: ImportRequest, app: App, budget: ImportBudget, parser: ImportParser): Promise<SourceRead> {
  const limits = { outbound: app.config.outbound, maxFileBytes: app.config.maxFileBytes };
  switch (request.source) {
    case 'website':
    case 'html':
      return readWebsite(request.url!, request.source === 'website', budget, limits, parser);
    case 'markdown':
      return readMarkdownDocument(request.url!, budget, limits, parser);
    case 'zip': {
      const bytes = await archiveBytes(request, app, budget);
      const { zipMaxEntries, zipMaxExpandedBytes } = app.config.import;
      const archive = await ZipArchive.open(bytes, { maxEntries: zipMaxEntries, maxExpandedBytes: zipMaxExpandedBytes }, budget);
      try {
        return await readDocsArchive(archive, budget, parser);
      } finally {
        archive.close();
      }
    }
  }
}

function checkRequest(request: ImportRequest): void {
  if ((request.url === undefined) === (request.base64 === undefined)) throw invalidField('/body', 'must have exactly one of url and base64');
  if (request.base64 !== undefined && request.source !== 'zip') throw invalidField('/body/base64', 'only a zip archive can be sent inline: give the address of a page or document in url');
}

/**
 * The bodies as written (destinations rewritten) through the markdown gate, read once for the write.
 * One the gate refuses (too deep, too slow to parse) is left out: its page is imported without its
 * body and listed in `skipped`, like any resource that fails on its own.
 */
async function leaveOutUnparsableBodies(app: App, bodies: Map<ImportedPage, string | undefined>, budget: ImportBudget, signal: AbortSignal): Promise<ParsedBodies> {
  const parsed = new Map<string, ParsedBody>();
  for (const [page, markdown] of bodies) {
    if (markdown === undefined || page.type !== 'document') continue;
    try {
      for (const [hash, body] of await parseMarkdownBodies(app.parsing, [{ path: page.key, markdown }], signal)) parsed.set(hash, body);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 400) throw error;
      bodies.delete(page);
      budget.skip(page.key, `its markdown ${error.issues?.[0]?.message ?? 'could not be parsed'}: imported without its body`);
    }
  }
  return parsed;
}

/** What the import's request gives it: when it started, and a signal aborted when its client has gone. */
export type ImportRequestState = { startedAt: number; clientGone: AbortSignal };

/**
 * Imports `request` into `target` as `userId` (access checked by the caller); `import.finished` is
 * recorded with the revision, beside the content's own event. The write is committed only while
 * `state.clientGone` is not aborted and the request is within REQUEST_TIMEOUT_MS: an import whose
 * client cannot be answered commits nothing (and records no event).
 */
export async function importContent(app: App, target: ImportTarget, userId: string, actor: EventActor, request: ImportRequest, state: ImportRequestState): Promise<ImportResult> {
  try {
    return await importFor(app, target, userId, actor, request, state);
  } catch (error) {
    // Nobody is left to answer: nothing was written, and the answer (never read) says why.
    if (error instanceof ParseCancelledError) throw unprocessable('The import was stopped: its client left before it could be answered');
    throw error;
  }
}

async function importFor(app: App, target: ImportTarget, userId: string, actor: EventActor, request: ImportRequest, state: ImportRequestState): Promise<ImportResult> {
  checkRequest(request);
  const budget = new ImportBudget(app.config.import);
  const parser = new ImportParser(app.parsing, budget, app.config.import.readDeadlineMs, state.clientGone);
  const { plan, totalResources } = await readSource(request, app, budget, parser);
  if (plan.pages.length === 0) throw unprocessable('The source holds no page to import');
  const { build, bodies } = planBatch(plan);
  const parsed = await leaveOutUnparsableBodies(app, bodies, budget, state.clientGone);
  const commitDeadline = state.startedAt + app.config.requestTimeoutMs;
  const beforeCommit = () => {
    if (state.clientGone.aborted) throw new ParseCancelledError();
    if (Date.now() >= commitDeadline) throw unprocessable(`The import could not be written within the request's ${app.config.requestTimeoutMs} ms: import less at once`);
  };
  const result = (revision: string): ImportResult => ({
    revision,
    importedResources: countPages(plan.pages),
    totalResources,
    truncated: budget.stopped,
    ...(budget.stoppedBy ? { limit: budget.stoppedBy } : {}),
    skipped: budget.skipped,
  });
  const { organizationId, id: spaceId } = target.space;
  const changeRequest = target.changeRequestId === undefined ? {} : { changeRequest: target.changeRequestId };
  const events = {
    actor,
    also: (revision: string) => [{ type: 'import.finished' as const, organizationId, spaceId, actor, data: { ...changeRequest, source: request.source, result: result(revision) } }],
  };
  const written =
    target.changeRequestId === undefined
      ? await applySpaceBatch(app, target.space, userId, build, events, { parsed, beforeCommit })
      : await applyChangeRequestBatch(app, target.space, target.changeRequestId, userId, build, events, { parsed, beforeCommit });
  return result(written.revisionId);
}
