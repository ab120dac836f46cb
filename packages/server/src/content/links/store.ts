// Extracted links, stored once per document (documents are content-addressed and immutable, so what a
// body links to never changes): written with the rest of what was read of a new body
// (content/parsed-bodies.ts), and for bodies stored before links existed (or copied by a transfer), read
// in the parse pool the first time they are needed. Reads never parse a document; rows are kept in the
// server's `documentLinks` cache by (organization, hash): a body never changes, so neither do its links,
// on any instance.
import { sql } from 'kysely';
import type { Caches } from '../../caches.js';
import type { Database } from '../../db/database.js';
import type { ParsePool } from '../../parsing/parse-pool.js';
import { parseUnparsedBodies } from '../parsed-bodies.js';
import type { DocumentLinks } from './extract.js';

const cacheKey = (organizationId: string, hash: string) => `${organizationId}:${hash}`;

/** The stored links of bodies, by hash; bodies without a row are read now (once, in the parse pool) and stored. */
export async function loadDocumentLinks(
  db: Database,
  caches: Pick<Caches, 'documentLinks'>,
  pool: ParsePool,
  organizationId: string,
  hashes: Iterable<string>,
): Promise<Map<string, DocumentLinks>> {
  const cache = caches.documentLinks;
  const found = new Map<string, DocumentLinks>();
  const missing: string[] = [];
  for (const hash of new Set(hashes)) {
    const hit = cache.get(cacheKey(organizationId, hash));
    if (hit) found.set(hash, hit);
    else missing.push(hash);
  }
  const select = async (wanted: string[]) => {
    if (wanted.length === 0) return;
    const rows = await db
      .selectFrom('documentLinks')
      .select(['documentHash', 'anchors', 'links'])
      .where('organizationId', '=', organizationId)
      .where('documentHash', '=', sql<Buffer>`ANY(${wanted.map((hash) => Buffer.from(hash, 'hex'))}::bytea[])`)
      .execute();
    for (const row of rows) {
      const links: DocumentLinks = { anchors: row.anchors, links: row.links as DocumentLinks['links'] };
      const hash = row.documentHash.toString('hex');
      found.set(hash, links);
      cache.set(cacheKey(organizationId, hash), links);
    }
  };
  await select(missing);
  const unextracted = missing.filter((hash) => !found.has(hash));
  if (unextracted.length > 0) {
    await parseUnparsedBodies(db, pool, organizationId, unextracted);
    await select(unextracted);
  }
  return found;
}
