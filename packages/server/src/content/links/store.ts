// Extracted links, stored once per document (documents are content-addressed and immutable, so what a
// body links to never changes): written when a new body is stored (revision-writer.ts), and for bodies
// stored before links existed (or copied by a transfer), extracted the first time they are read.
// Reads never parse a document that has its row; rows are kept in the server's `documentLinks` cache by
// (organization, hash): a body never changes, so neither do its links, on any instance.
import { sql } from 'kysely';
import type { Caches } from '../../caches.js';
import type { Database, Executor } from '../../db/database.js';
import { loadDocuments, lockContentObjects } from '../content-objects.repository.js';
import { extractLinks, type DocumentLinks } from './extract.js';

const cacheKey = (organizationId: string, hash: string) => `${organizationId}:${hash}`;

async function insertLinkRows(db: Executor, organizationId: string, rows: Array<{ hash: string; links: DocumentLinks }>): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort((a, b) => (a.hash < b.hash ? -1 : 1));
  for (let i = 0; i < sorted.length; i += 500) {
    const part = sorted.slice(i, i + 500);
    await sql`
      INSERT INTO document_links (organization_id, document_hash, anchors, links)
      SELECT ${organizationId}, decode(r.hash, 'hex'), ARRAY(SELECT jsonb_array_elements_text(r.anchors)), r.links
      FROM jsonb_to_recordset(${JSON.stringify(part.map((row) => ({ hash: row.hash, anchors: row.links.anchors, links: row.links.links })))}::jsonb)
        AS r(hash text, anchors jsonb, links jsonb)
      ON CONFLICT DO NOTHING`.execute(db);
  }
}

/**
 * Extracts and stores the links of bodies just stored (in the writer's transaction, which holds the
 * content-object lock); bodies that have their row already are not parsed again.
 */
export async function storeDocumentLinks(db: Executor, organizationId: string, documents: Array<{ hash: string; markdown: string }>): Promise<void> {
  if (documents.length === 0) return;
  const known = await db
    .selectFrom('documentLinks')
    .select('documentHash')
    .where('organizationId', '=', organizationId)
    .where('documentHash', '=', sql<Buffer>`ANY(${documents.map((doc) => Buffer.from(doc.hash, 'hex'))}::bytea[])`)
    .execute();
  const have = new Set(known.map((row) => row.documentHash.toString('hex')));
  const fresh = [...new Map(documents.filter((doc) => !have.has(doc.hash)).map((doc) => [doc.hash, doc])).values()];
  await insertLinkRows(db, organizationId, fresh.map((doc) => ({ hash: doc.hash, links: extractLinks(doc.markdown, doc.hash) })));
}

/** The stored links of bodies, by hash; bodies without a row are extracted now (once) and stored. */
export async function loadDocumentLinks(db: Database, caches: Pick<Caches, 'documentLinks'>, organizationId: string, hashes: Iterable<string>): Promise<Map<string, DocumentLinks>> {
  const cache = caches.documentLinks;
  const found = new Map<string, DocumentLinks>();
  const missing: string[] = [];
  for (const hash of new Set(hashes)) {
    const hit = cache.get(cacheKey(organizationId, hash));
    if (hit) found.set(hash, hit);
    else missing.push(hash);
  }
  if (missing.length === 0) return found;
  const rows = await db
    .selectFrom('documentLinks')
    .select(['documentHash', 'anchors', 'links'])
    .where('organizationId', '=', organizationId)
    .where('documentHash', '=', sql<Buffer>`ANY(${missing.map((hash) => Buffer.from(hash, 'hex'))}::bytea[])`)
    .execute();
  for (const row of rows) {
    const links: DocumentLinks = { anchors: row.anchors, links: row.links as DocumentLinks['links'] };
    const hash = row.documentHash.toString('hex');
    found.set(hash, links);
    cache.set(cacheKey(organizationId, hash), links);
  }
  const unextracted = missing.filter((hash) => !found.has(hash));
  if (unextracted.length > 0) {
    await db.transaction().execute(async (trx) => {
      // Garbage collection must not remove a body between reading it and storing its links.
      await lockContentObjects(trx, organizationId, 'shared');
      const bodies = await loadDocuments(trx, organizationId, unextracted);
      const extracted = [...bodies].map(([hash, markdown]) => ({ hash, links: extractLinks(markdown) }));
      await insertLinkRows(trx, organizationId, extracted);
      for (const { hash, links } of extracted) {
        found.set(hash, links);
        cache.set(cacheKey(organizationId, hash), links);
      }
    });
  }
  return found;
}
