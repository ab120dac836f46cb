// The materialised primary head of each space (docs/design/content-model.md, "The materialised head"): one row per page and per
// file of the space's head revision, kept current by the head-move diff.
import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

export type HeadPageRow = {
  pageId: string;
  parentPageId: string | null;
  position: number;
  depth: number;
  type: string;
  title: string;
  slug: string;
  path: string;
  documentHash: string | null;
  emoji: string | null;
  icon: string | null;
  description: string | null;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
  layout: unknown | null;
  cover: unknown | null;
  createdAt: string;
  updatedAt: string;
};

export type HeadFileRow = {
  fileId: string;
  name: string;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  blobHash: string;
};

export async function deleteHeadPages(db: Executor, organizationId: string, spaceId: string, pageIds: string[]): Promise<void> {
  if (pageIds.length === 0) return;
  await db
    .deleteFrom('spaceHeadPages')
    .where('organizationId', '=', organizationId)
    .where('spaceId', '=', spaceId)
    .where('pageId', '=', sql<string>`ANY(${pageIds}::text[])`)
    .execute();
}

/** Inserts or replaces rows; the whole set travels as one jsonb parameter. */
export async function upsertHeadPages(db: Executor, organizationId: string, spaceId: string, rows: HeadPageRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO space_head_pages (organization_id, space_id, page_id, parent_page_id, position, depth, type, title, slug, path,
      document_hash, emoji, icon, description, hidden, no_index, no_robots_index, layout, cover, created_at, updated_at)
    SELECT ${organizationId}, ${spaceId}, r."pageId", r."parentPageId", r.position, r.depth, r.type, r.title, r.slug, r.path,
      decode(r."documentHash", 'hex'), r.emoji, r.icon, r.description, r.hidden, r."noIndex", r."noRobotsIndex", r.layout, r.cover,
      r."createdAt", r."updatedAt"
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r("pageId" text, "parentPageId" text, position int, depth int,
      type text, title text, slug text, path text, "documentHash" text, emoji text, icon text, description text, hidden boolean,
      "noIndex" boolean, "noRobotsIndex" boolean, layout jsonb, cover jsonb, "createdAt" timestamptz, "updatedAt" timestamptz)
    ON CONFLICT (organization_id, space_id, page_id) DO UPDATE SET
      parent_page_id = EXCLUDED.parent_page_id, position = EXCLUDED.position, depth = EXCLUDED.depth, type = EXCLUDED.type,
      title = EXCLUDED.title, slug = EXCLUDED.slug, path = EXCLUDED.path, document_hash = EXCLUDED.document_hash,
      emoji = EXCLUDED.emoji, icon = EXCLUDED.icon, description = EXCLUDED.description, hidden = EXCLUDED.hidden,
      no_index = EXCLUDED.no_index, no_robots_index = EXCLUDED.no_robots_index, layout = EXCLUDED.layout, cover = EXCLUDED.cover,
      created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`.execute(db);
}

export async function deleteHeadFiles(db: Executor, organizationId: string, spaceId: string, fileIds: string[]): Promise<void> {
  if (fileIds.length === 0) return;
  await db
    .deleteFrom('spaceHeadFiles')
    .where('organizationId', '=', organizationId)
    .where('spaceId', '=', spaceId)
    .where('fileId', '=', sql<string>`ANY(${fileIds}::text[])`)
    .execute();
}

export async function upsertHeadFiles(db: Executor, organizationId: string, spaceId: string, rows: HeadFileRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO space_head_files (organization_id, space_id, file_id, name, content_type, size, width, height, blob_hash)
    SELECT ${organizationId}, ${spaceId}, r."fileId", r.name, r."contentType", r.size, r.width, r.height, decode(r."blobHash", 'hex')
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS r("fileId" text, name text, "contentType" text, size bigint, width int, height int, "blobHash" text)
    ON CONFLICT (organization_id, space_id, file_id) DO UPDATE SET
      name = EXCLUDED.name, content_type = EXCLUDED.content_type, size = EXCLUDED.size, width = EXCLUDED.width,
      height = EXCLUDED.height, blob_hash = EXCLUDED.blob_hash`.execute(db);
}

/** The id of the head page at `path`. */
export async function findHeadPageIdByPath(db: Executor, organizationId: string, spaceId: string, path: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('spaceHeadPages')
    .select('pageId')
    .where('organizationId', '=', organizationId)
    .where('spaceId', '=', spaceId)
    .where('path', '=', path)
    .executeTakeFirst();
  return row?.pageId;
}

export function headFilesQuery(db: Executor, organizationId: string, spaceId: string) {
  return db.selectFrom('spaceHeadFiles').selectAll().where('organizationId', '=', organizationId).where('spaceId', '=', spaceId);
}

export async function findHeadFile(db: Executor, organizationId: string, spaceId: string, fileId: string) {
  return headFilesQuery(db, organizationId, spaceId).where('fileId', '=', fileId).executeTakeFirst();
}
