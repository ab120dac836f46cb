// OpenAPI specs: setting a source (which queues a processing job), and the processing itself, run by
// the job worker and never in a request. A processing records its outcome only if the source it read is
// still the spec's (a newer PUT queued another run), and stores a version only when the content changed.
import type { components } from '@content-workspace/contract';
import type { Config } from '../../config.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { conflict, HttpError, invalidField } from '../../errors.js';
import type { Jobs } from '../../jobs/queue.js';
import type { Logger } from '../../logger.js';
import { ParseLimitError, type ParsePool } from '../../parsing/parse-pool.js';
import type { ServerKeys } from '../../keys.js';
import type { Urls } from '../../urls.js';
import { recordEvent, SYSTEM_ACTOR } from '../events/index.js';
import { toApiOpenAPISpec, toApiOpenAPISpecVersion } from './openapi-spec.mapper.js';
import { textEntryName, type OpenAPISource, type ProcessLimits, type ProcessOutcome } from './openapi-processing.js';
import {
  claimSpecsToRefresh,
  completeProcessing,
  findVersion,
  specsQuery,
  insertSpec,
  insertVersion,
  lockSpecForResult,
  startProcessing,
  upsertSpecSource,
  type OpenAPISpecRow,
} from './openapi-specs.repository.js';

export const PROCESS_JOB = 'process-openapi-spec';
export type ProcessJobData = { organizationId: string; specId: string };

type SourceBody = components['schemas']['OpenAPISpecSource'];

/** The source as stored: a `url` must be an http(s) address without credentials (the guard fetches nothing else). */
function checkedSource(source: SourceBody): OpenAPISource {
  if ('text' in source) return { text: source.text };
  let url: URL | undefined;
  try {
    url = new URL(source.url);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw invalidField('/body/source/url', 'must be an http or https address');
  if (url.username || url.password) throw invalidField('/body/source/url', 'must not hold credentials');
  return { url: source.url };
}

async function queueProcessing(jobs: Jobs, organizationId: string, specId: string): Promise<void> {
  await jobs.send(PROCESS_JOB, { organizationId, specId } satisfies ProcessJobData);
}

export async function createSpec(db: Executor, jobs: Jobs, organizationId: string, slug: string, source: SourceBody): Promise<OpenAPISpecRow> {
  const row = await insertSpec(db, organizationId, slug, checkedSource(source));
  if (!row) throw conflict(`An OpenAPI spec with the slug "${slug}" already exists`);
  await queueProcessing(jobs, organizationId, row.id);
  return row;
}

/** Creates the spec or sets its source; either way it is processed again. */
export async function putSpec(db: Executor, jobs: Jobs, organizationId: string, slug: string, source: SourceBody): Promise<OpenAPISpecRow> {
  const row = await upsertSpecSource(db, organizationId, slug, checkedSource(source));
  await queueProcessing(jobs, organizationId, row.id);
  return row;
}

export type ProcessingDeps = {
  db: Executor;
  config: Pick<Config, 'outbound' | 'openapi'>;
  log: Logger;
  parsing: ParsePool;
  urls: Urls;
  keys: Pick<ServerKeys, 'openapiSignature'>;
};

/** Linting and bundling a document of the allowed size, after its files are fetched within the processing's time. */
const LINT_MARGIN_MS = 20_000;
/** A pool too busy for the job: it waits and asks again this many times before giving up. */
const BUSY_RETRIES = 5;
const BUSY_WAIT_MS = 5_000;

/**
 * Processes the source in the parse pool (its long lane), within the processing's time plus the lint's
 * margin: a document the pool stops (too slow, too much memory) fails with PARSE_ERROR.
 */
async function processInPool(deps: ProcessingDeps, source: OpenAPISource): Promise<ProcessOutcome> {
  const limits = processLimits(deps.config);
  const location = 'url' in source ? source.url : textEntryName(source.text);
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.parsing.run('openapi', { source, limits }, { deadlineMs: limits.timeoutMs + LINT_MARGIN_MS, lane: 'long' });
    } catch (error) {
      if (error instanceof ParseLimitError) {
        const why = error.limit === 'time' ? `could not be processed within ${limits.timeoutMs + LINT_MARGIN_MS} ms` : error.limit === 'memory' ? 'needs more memory to process than allowed' : 'nests too deeply to process';
        return { ok: false, code: error.limit === 'time' && 'url' in source ? 'FETCH_TIMEOUT' : 'PARSE_ERROR', errors: [{ message: `the document ${why}`, location }] };
      }
      if (!(error instanceof HttpError && error.status === 503) || attempt > BUSY_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, BUSY_WAIT_MS * attempt));
    }
  }
}

export function processLimits(config: ProcessingDeps['config']): ProcessLimits {
  return { outbound: config.outbound, maxFiles: config.openapi.maxFiles, timeoutMs: config.openapi.processTimeoutMs };
}

export type ProcessResult = 'gone' | 'superseded' | 'version' | 'unchanged' | 'failed';

/** Records `openapi-spec.processed` (with the new version, if one was made) in the transaction completing the processing. */
async function recordProcessed(deps: ProcessingDeps, trx: Executor, organizationId: string, specId: string, versionId?: string): Promise<void> {
  const spec = (await specsQuery(trx, organizationId).where('s.id', '=', specId).executeTakeFirst())!;
  const version = versionId && (await findVersion(trx, organizationId, specId, versionId))!;
  await recordEvent(trx, {
    type: 'openapi-spec.processed',
    organizationId,
    actor: SYSTEM_ACTOR,
    data: {
      object: toApiOpenAPISpec(organizationId, spec, 'admin', deps.urls),
      ...(version ? { version: toApiOpenAPISpecVersion(organizationId, spec.slug, version, deps.keys.openapiSignature, deps.urls) } : {}),
    },
  });
}

/**
 * Processes the spec: `progress`, then `complete` with a new version when the content changed, the same
 * latest version when it did not, or the failure's code and errors (the latest version stays). The
 * outcome's event is recorded with it.
 */
export async function processSpec(deps: ProcessingDeps, organizationId: string, specId: string): Promise<ProcessResult> {
  const { db } = deps;
  const started = await startProcessing(db, organizationId, specId);
  if (!started) return 'gone';
  const outcome = await processInPool(deps, started.source).catch((error: unknown): ProcessOutcome => {
    // A defect of ours or of the engine on this document: the spec must not stay `progress` for ever.
    deps.log.error({ err: error, organizationId, specId }, 'OpenAPI processing failed unexpectedly');
    const location = 'url' in started.source ? started.source.url : textEntryName(started.source.text);
    return { ok: false, code: 'PARSE_ERROR', errors: [{ message: 'the document could not be processed', location }] };
  });
  return inTransaction(db, async (trx): Promise<ProcessResult> => {
    const spec = await lockSpecForResult(trx, organizationId, specId);
    if (!spec) return 'gone';
    if (spec.sourceRevision !== started.sourceRevision) return 'superseded';
    if (!outcome.ok) {
      await completeProcessing(trx, organizationId, specId, { lastVersionId: spec.lastVersionId, errorCode: outcome.code, errors: outcome.errors });
      await recordProcessed(deps, trx, organizationId, specId);
      return 'failed';
    }
    if (spec.lastHash === outcome.contentHash) {
      await completeProcessing(trx, organizationId, specId, { lastVersionId: spec.lastVersionId, errorCode: null, errors: null });
      await recordProcessed(deps, trx, organizationId, specId);
      return 'unchanged';
    }
    const versionId = await insertVersion(trx, { organizationId, specId, contentHash: outcome.contentHash, filesystem: outcome.filesystem, bundle: outcome.bundle });
    await completeProcessing(trx, organizationId, specId, { lastVersionId: versionId, errorCode: null, errors: null });
    await recordProcessed(deps, trx, organizationId, specId, versionId);
    return 'version';
  });
}

/** Specs a refresh claims per run (each is processed in turn; the next run takes the rest). */
const REFRESH_BATCH = 20;

/** Processes again the URL specs whose last processing is older than the configured refresh period. */
export async function refreshDueSpecs(deps: ProcessingDeps): Promise<number> {
  const minutes = deps.config.openapi.refreshMinutes;
  if (minutes === 0) return 0;
  const due = await claimSpecsToRefresh(deps.db, minutes, REFRESH_BATCH);
  for (const spec of due) {
    const result = await processSpec(deps, spec.organizationId, spec.id);
    deps.log.info({ organizationId: spec.organizationId, specId: spec.id, result }, 'OpenAPI spec refreshed');
  }
  return due.length;
}
