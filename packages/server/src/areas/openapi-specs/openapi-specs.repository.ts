// OpenAPI specs of an organization and their versions.
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { column, rawQuery } from '../../db/raw-query.js';
import type { OpenAPISpecErrorCode, OpenapiSpecsTable, OpenapiSpecVersionsTable } from '../../db/schema.js';
import { newId } from '../../ids.js';
import type { OpenAPISource, ProcessError } from './openapi-processing.js';

export type OpenAPISpecRow = Pick<
  Selectable<OpenapiSpecsTable>,
  'id' | 'slug' | 'sourceUrl' | 'processingState' | 'lastVersionId' | 'lastProcessedAt' | 'lastProcessErrorCode' | 'lastProcessErrors' | 'createdAt' | 'updatedAt'
>;

const SPEC_COLUMNS = [
  's.id',
  's.slug',
  's.sourceUrl',
  's.processingState',
  's.lastVersionId',
  's.lastProcessedAt',
  's.lastProcessErrorCode',
  's.lastProcessErrors',
  's.createdAt',
  's.updatedAt',
] as const;
const SPEC_RETURNED = [
  'id',
  'slug',
  'sourceUrl',
  'processingState',
  'lastVersionId',
  'lastProcessedAt',
  'lastProcessErrorCode',
  'lastProcessErrors',
  'createdAt',
  'updatedAt',
] as const;

/** Every spec of the organization as `s`; callers add order and paging. */
export function specsQuery(db: Executor, organizationId: string) {
  return db.selectFrom('openapiSpecs as s').where('s.organizationId', '=', organizationId).select(SPEC_COLUMNS);
}

export async function findSpecBySlug(db: Executor, organizationId: string, slug: string): Promise<OpenAPISpecRow | undefined> {
  return specsQuery(db, organizationId).where('s.slug', '=', slug).executeTakeFirst();
}

const sourceColumns = (source: OpenAPISource) => ('url' in source ? { sourceUrl: source.url, sourceText: null } : { sourceUrl: null, sourceText: source.text });

/** A new `pending` spec; undefined when the slug is taken. */
export async function insertSpec(db: Executor, organizationId: string, slug: string, source: OpenAPISource): Promise<OpenAPISpecRow | undefined> {
  return db
    .insertInto('openapiSpecs')
    .values({ organizationId, id: newId(), slug, ...sourceColumns(source) })
    .onConflict((oc) => oc.columns(['organizationId', 'slug']).doNothing())
    .returning(SPEC_RETURNED)
    .executeTakeFirst();
}

/** Creates the spec, or sets its source and a new source revision; either way `pending`. */
export async function upsertSpecSource(db: Executor, organizationId: string, slug: string, source: OpenAPISource): Promise<OpenAPISpecRow> {
  return db
    .insertInto('openapiSpecs')
    .values({ organizationId, id: newId(), slug, ...sourceColumns(source) })
    .onConflict((oc) =>
      oc.columns(['organizationId', 'slug']).doUpdateSet((eb) => ({
        sourceUrl: eb.ref('excluded.sourceUrl'),
        sourceText: eb.ref('excluded.sourceText'),
        sourceRevision: sql<number>`openapi_specs.source_revision + 1`,
        processingState: 'pending',
        updatedAt: sql<Date>`now()`,
      })),
    )
    .returning(SPEC_RETURNED)
    .executeTakeFirstOrThrow();
}

/** Deletes the spec and (by cascade) its versions. */
export async function deleteSpec(db: Executor, organizationId: string, slug: string): Promise<boolean> {
  const result = await db.deleteFrom('openapiSpecs').where('organizationId', '=', organizationId).where('slug', '=', slug).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export type StartedProcessing = { source: OpenAPISource; sourceRevision: number };

/** Moves the spec to `progress` and answers the source to process; undefined when the spec is gone. */
export async function startProcessing(db: Executor, organizationId: string, specId: string): Promise<StartedProcessing | undefined> {
  const row = await db
    .updateTable('openapiSpecs')
    .set({ processingState: 'progress' })
    .where('organizationId', '=', organizationId)
    .where('id', '=', specId)
    .returning(['sourceUrl', 'sourceText', 'sourceRevision'])
    .executeTakeFirst();
  if (!row) return undefined;
  return { source: row.sourceUrl !== null ? { url: row.sourceUrl } : { text: row.sourceText! }, sourceRevision: row.sourceRevision };
}

/** The spec's source revision and latest version's content hash, locked until the transaction ends. */
export async function lockSpecForResult(trx: Executor, organizationId: string, specId: string): Promise<{ sourceRevision: number; lastVersionId: string | null; lastHash: string | null } | undefined> {
  return trx
    .selectFrom('openapiSpecs as s')
    .leftJoin('openapiSpecVersions as v', (join) => join.onRef('v.organizationId', '=', 's.organizationId').onRef('v.id', '=', 's.lastVersionId'))
    .where('s.organizationId', '=', organizationId)
    .where('s.id', '=', specId)
    .select(['s.sourceRevision', 's.lastVersionId', 'v.contentHash as lastHash'])
    .forUpdate('s')
    .executeTakeFirst();
}

export async function insertVersion(trx: Executor, values: { organizationId: string; specId: string; contentHash: string; filesystem: string; bundle: string }): Promise<string> {
  const id = newId();
  await trx.insertInto('openapiSpecVersions').values({ ...values, id }).execute();
  return id;
}

/** Records the end of a processing: `complete`, the latest version, and the failure if any. */
export async function completeProcessing(
  trx: Executor,
  organizationId: string,
  specId: string,
  result: { lastVersionId: string | null; errorCode: OpenAPISpecErrorCode | null; errors: ProcessError[] | null },
): Promise<void> {
  await trx
    .updateTable('openapiSpecs')
    .set({
      processingState: 'complete',
      lastVersionId: result.lastVersionId,
      lastProcessedAt: sql<Date>`now()`,
      lastProcessErrorCode: result.errorCode,
      lastProcessErrors: result.errors === null ? null : JSON.stringify(result.errors),
    })
    .where('organizationId', '=', organizationId)
    .where('id', '=', specId)
    .execute();
}

/**
 * Claims up to `limit` URL specs whose last processing ended more than `minutes` ago (moving them back
 * to `pending`), across organizations; several instances claim disjoint sets.
 */
export async function claimSpecsToRefresh(db: Executor, minutes: number, limit: number) {
  return claimSpecsQuery.rows(db, minutes, limit);
}

const claimSpecsQuery = rawQuery({
  name: 'claimSpecsToRefresh',
  columns: { organizationId: column('openapiSpecs', 'organizationId'), id: column('openapiSpecs', 'id') },
  statement: (minutes: number, limit: number) => sql`
    UPDATE openapi_specs s SET processing_state = 'pending'
    FROM (
      SELECT organization_id, id FROM openapi_specs
      WHERE source_url IS NOT NULL AND processing_state = 'complete' AND last_processed_at < now() - make_interval(mins => ${minutes})
      ORDER BY last_processed_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ) due
    WHERE s.organization_id = due.organization_id AND s.id = due.id
    RETURNING s.organization_id, s.id`,
  shapes: [[0, 0]],
});

export type VersionRow = Pick<Selectable<OpenapiSpecVersionsTable>, 'id' | 'createdAt'>;

/** The spec's versions as `v` (metadata only); callers add order and paging. */
export function versionsQuery(db: Executor, organizationId: string, specId: string) {
  return db.selectFrom('openapiSpecVersions as v').where('v.organizationId', '=', organizationId).where('v.specId', '=', specId).select(['v.id', 'v.createdAt']);
}

export async function findVersion(db: Executor, organizationId: string, specId: string, versionId: string): Promise<VersionRow | undefined> {
  return versionsQuery(db, organizationId, specId).where('v.id', '=', versionId).executeTakeFirst();
}

export async function findVersionFilesystem(db: Executor, organizationId: string, specId: string, versionId: string) {
  return db
    .selectFrom('openapiSpecVersions')
    .select(['id', 'filesystem'])
    .where('organizationId', '=', organizationId)
    .where('specId', '=', specId)
    .where('id', '=', versionId)
    .executeTakeFirst();
}

/** The bundled document of a version (its spec still exists: versions go with it). */
export async function findVersionBundle(db: Executor, organizationId: string, versionId: string): Promise<unknown> {
  const row = await db
    .selectFrom('openapiSpecVersions')
    .select('bundle')
    .where('organizationId', '=', organizationId)
    .where('id', '=', versionId)
    .executeTakeFirst();
  return row?.bundle;
}
