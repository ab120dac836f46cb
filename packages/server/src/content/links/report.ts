// The links of a revision as the API lists them (docs/design/content-model.md, "Links and backlinks"): every occurrence with
// its status, targets in other spaces looked up at those spaces' heads, grouped by target into items
// that list where they appear. Works on any revision (the space's head, a change request's), from its
// trees (cached by root hash) and the stored links of its bodies (cached by hash): no body is parsed.
import { sql } from 'kysely';
import type { Caches } from '../../caches.js';
import type { Database } from '../../db/database.js';
import type { ParsePool } from '../../parsing/parse-pool.js';
import { column, rawQuery, value } from '../../db/raw-query.js';
import { canonicalJson, sha256Hex } from '../hashing.js';
import type { ContentState } from '../model.js';
import { loadDocumentLinks } from './store.js';
import { revisionLinks, type ContentRef, type LinkStatus, type Occurrence } from './status.js';

export type LinkItem = {
  status: LinkStatus;
  relation: Occurrence['relation'];
  targetReference: ContentRef;
  /** Where the link appears: the page, or the page's section. */
  locationReferences: Array<{ kind: 'page'; page: string } | { kind: 'anchor'; anchor: string; page: string }>;
  /** Sort keys: where the item first appears (pages depth first, then document order), then a digest of it. */
  order: number;
  key: string;
};

export type LinkStats = { total: number; broken: { total: number; changeRequest: number } };

/** The caches links are read through: bodies' stored links, and revisions' occurrences. */
export type LinkCaches = Pick<Caches, 'documentLinks' | 'linkReports'>;

/**
 * Occurrences of a whole revision before other spaces are looked up, kept in the `linkReports` cache by
 * (organization, space, roots): the trees and bodies under those roots never change.
 */
async function sameSpaceOccurrences(db: Database, caches: LinkCaches, pool: ParsePool, organizationId: string, spaceId: string, state: ContentState): Promise<Occurrence[]> {
  const key = `${organizationId}:${spaceId}:${state.pages.rootHash}:${state.files.rootHash}`;
  return caches.linkReports.load(key, async () => {
    const hashes: string[] = [];
    for (const entry of state.pages.pages.values()) if (entry.documentHash) hashes.push(entry.documentHash);
    const documents = await loadDocumentLinks(db, caches, pool, organizationId, hashes);
    return revisionLinks({ spaceId, pages: state.pages, files: state.files, documents });
  });
}

type Keys = ReadonlyArray<readonly [space: string, item: string]>;

/** Pages of other spaces' heads, by (space, page). */
const headPagesQuery = rawQuery({
  name: 'linkTargetPages',
  columns: { spaceId: column('spaceHeadPages', 'spaceId'), pageId: column('spaceHeadPages', 'pageId'), documentHash: value('text').orNull() },
  statement: (organizationId: string, keys: Keys) => sql`
    SELECT p.space_id, p.page_id, encode(p.document_hash, 'hex') AS document_hash
    FROM space_head_pages p JOIN unnest(${keys.map((k) => k[0])}::text[], ${keys.map((k) => k[1])}::text[]) AS t(space_id, page_id)
      ON p.space_id = t.space_id AND p.page_id = t.page_id
    WHERE p.organization_id = ${organizationId}`,
  shapes: [['', []]],
});

/** Files of other spaces' heads, by (space, file). */
const headFilesQuery = rawQuery({
  name: 'linkTargetFiles',
  columns: { spaceId: column('spaceHeadFiles', 'spaceId'), fileId: column('spaceHeadFiles', 'fileId') },
  statement: (organizationId: string, keys: Keys) => sql`
    SELECT f.space_id, f.file_id
    FROM space_head_files f JOIN unnest(${keys.map((k) => k[0])}::text[], ${keys.map((k) => k[1])}::text[]) AS t(space_id, file_id)
      ON f.space_id = t.space_id AND f.file_id = t.file_id
    WHERE f.organization_id = ${organizationId}`,
  shapes: [['', []]],
});

/** Statuses of targets in other spaces: `in-app` when the space is live and its head has the target. */
async function resolveOtherSpaces(db: Database, caches: LinkCaches, pool: ParsePool, organizationId: string, occurrences: Occurrence[]): Promise<Occurrence[]> {
  const pending = occurrences.filter((occurrence) => occurrence.other);
  if (pending.length === 0) return occurrences;
  const spaceIds = [...new Set(pending.map((occurrence) => occurrence.other!.space))];
  const pageKeys = pending.filter((o) => o.other!.page).map((o) => [o.other!.space, o.other!.page!] as const);
  const fileKeys = pending.filter((o) => o.other!.file).map((o) => [o.other!.space, o.other!.file!] as const);
  const spaces = await db
    .selectFrom('spaces')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where('id', '=', sql<string>`ANY(${spaceIds}::text[])`)
    .where('deletedAt', 'is', null)
    .execute();
  const live = new Set(spaces.map((row) => row.id));
  const pages = pageKeys.length ? await headPagesQuery.rows(db, organizationId, pageKeys) : [];
  const files = fileKeys.length ? await headFilesQuery.rows(db, organizationId, fileKeys) : [];
  const pageDocs = new Map(pages.map((row) => [`${row.spaceId}/${row.pageId}`, row.documentHash]));
  const fileSet = new Set(files.map((row) => `${row.spaceId}/${row.fileId}`));
  const anchorDocs = pending.filter((o) => o.other!.anchor).flatMap((o) => pageDocs.get(`${o.other!.space}/${o.other!.page}`) ?? []);
  const documents = await loadDocumentLinks(db, caches, pool, organizationId, anchorDocs);
  return occurrences.map((occurrence) => {
    const other = occurrence.other;
    if (!other) return occurrence;
    let found = live.has(other.space);
    if (found && other.page) {
      const key = `${other.space}/${other.page}`;
      found = pageDocs.has(key);
      if (found && other.anchor) {
        const hash = pageDocs.get(key);
        found = !!hash && !!documents.get(hash)?.anchors.includes(other.anchor);
      }
    } else if (found && other.file) {
      found = fileSet.has(`${other.space}/${other.file}`);
    }
    return { ...occurrence, status: found ? 'in-app' : 'broken' };
  });
}

/** Every link occurrence of a revision with its status; only `page`'s when given. */
export async function linkOccurrences(
  db: Database,
  caches: LinkCaches,
  pool: ParsePool,
  organizationId: string,
  spaceId: string,
  state: ContentState,
  page?: string,
): Promise<Occurrence[]> {
  const all = await sameSpaceOccurrences(db, caches, pool, organizationId, spaceId, state);
  return resolveOtherSpaces(db, caches, pool, organizationId, page === undefined ? all : all.filter((occurrence) => occurrence.page === page));
}

const itemKey = (occurrence: Pick<Occurrence, 'relation' | 'target'>) => canonicalJson([occurrence.relation, occurrence.target]);

/** Occurrences (in reading order) grouped by (relation, target), in the order they first appear. */
export function linkItems(occurrences: Occurrence[]): LinkItem[] {
  const items = new Map<string, LinkItem & { seen: Set<string> }>();
  for (const [index, occurrence] of occurrences.entries()) {
    const json = itemKey(occurrence);
    let item = items.get(json);
    if (!item) {
      item = {
        status: occurrence.status ?? 'broken',
        relation: occurrence.relation,
        targetReference: occurrence.target,
        locationReferences: [],
        order: index,
        key: sha256Hex(json).slice(0, 24),
        seen: new Set(),
      };
      items.set(json, item);
    }
    const location = occurrence.section ? `${occurrence.page}#${occurrence.section}` : occurrence.page;
    if (item.seen.has(location)) continue;
    item.seen.add(location);
    item.locationReferences.push(
      occurrence.section ? { kind: 'anchor', anchor: occurrence.section, page: occurrence.page } : { kind: 'page', page: occurrence.page },
    );
  }
  return [...items.values()]
    .map(({ seen: _seen, ...item }) => item)
    .sort((a, b) => a.order - b.order);
}

/** Broken items of `proposed` (a change request's links) that `current` (the space's head) does not have broken. */
export function introducedBroken(proposed: Occurrence[], current: Occurrence[]): number {
  const brokenNow = new Set(current.filter((o) => o.status === 'broken').map(itemKey));
  return new Set(proposed.filter((o) => o.status === 'broken').map(itemKey).filter((key) => !brokenNow.has(key))).size;
}

export function linkStats(items: LinkItem[], changeRequest: number): LinkStats {
  return { total: items.length, broken: { total: items.filter((item) => item.status === 'broken').length, changeRequest } };
}
