// A content import: read the source within the import's limits (no transaction is open meanwhile),
// then write everything read as ONE revision through the batch engine, on the space's head or the
// change request's. Anything failing before the write writes nothing; the write is one transaction.
import { assertMarkdownParsable } from '../../content/markdown-check.js';
import type { components } from '@content-workspace/contract';
import type { AppContext } from '../../context.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { HttpError, invalidField, unprocessable } from '../../errors.js';
import { fetchGuarded, OutboundError } from '../../outbound.js';
import { applyChangeRequestBatch } from '../change-requests/change-request-content.service.js';
import { applySpaceBatch } from '../content/space-content.service.js';
import type { EventActor } from '../events/index.js';
import { readDocsArchive } from './docs-archive.js';
import { ImportBudget } from './import-budget.js';
import { countPages, planBatch, type ImportedPage } from './import-plan.js';
import { readMarkdownDocument, readWebsite, type SourceRead } from './web-sources.js';
import { ZipArchive } from './zip-archive.js';

type ImportRequest = components['schemas']['ContentImportRequest'];
type ImportResult = components['schemas']['ContentImportResult'];
type App = Pick<AppContext, 'db' | 'config' | 'urls' | 'caches' | 'blobs'>;

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

async function readSource(request: ImportRequest, app: App, budget: ImportBudget): Promise<SourceRead> {
  const limits = { outbound: app.config.outbound, maxFileBytes: app.config.maxFileBytes };
  switch (request.source) {
    case 'website':
    case 'html':
      return readWebsite(request.url!, request.source === 'website', budget, limits);
    case 'markdown':
      return readMarkdownDocument(request.url!, budget, limits);
    case 'zip': {
      const bytes = await archiveBytes(request, app, budget);
      const { zipMaxEntries, zipMaxExpandedBytes } = app.config.import;
      const archive = await ZipArchive.open(bytes, { maxEntries: zipMaxEntries, maxExpandedBytes: zipMaxExpandedBytes }, budget);
      try {
        return await readDocsArchive(archive, budget);
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
 * Bodies the markdown gate refuses (too deep, too slow to parse) are left out: the page is imported
 * without its body and listed in `skipped`, like any resource that fails on its own.
 */
async function leaveOutUnparsableBodies(pages: ImportedPage[], budget: ImportBudget): Promise<void> {
  for (const page of pages) {
    if (page.markdown !== undefined) {
      try {
        await assertMarkdownParsable([{ path: page.key, markdown: page.markdown }]);
      } catch (error) {
        if (!(error instanceof HttpError) || error.status !== 400) throw error;
        delete page.markdown;
        budget.skip(page.key, `its markdown ${error.issues?.[0]?.message ?? 'could not be parsed'}: imported without its body`);
      }
    }
    await leaveOutUnparsableBodies(page.children, budget);
  }
}

/**
 * Imports `request` into `target` as `userId` (access checked by the caller); `import.finished` is
 * recorded with the revision, beside the content's own event.
 */
export async function importContent(app: App, target: ImportTarget, userId: string, actor: EventActor, request: ImportRequest): Promise<ImportResult> {
  checkRequest(request);
  const budget = new ImportBudget(app.config.import);
  const { plan, totalResources } = await readSource(request, app, budget);
  if (plan.pages.length === 0) throw unprocessable('The source holds no page to import');
  await leaveOutUnparsableBodies(plan.pages, budget);
  const batch = planBatch(plan);
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
      ? await applySpaceBatch(app, target.space, userId, batch, events)
      : await applyChangeRequestBatch(app, target.space, target.changeRequestId, userId, batch, events);
  return result(written.revisionId);
}
