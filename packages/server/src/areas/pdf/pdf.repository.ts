// SQL of the PDF area: the rendered-PDF cache and what a signed PDF address needs to find again.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** The change request a PDF address names, while its space is live (found through the space's locator, so a transfer keeps it). */
export async function findPdfSubject(db: Executor, spaceId: string, changeRequestId: string) {
  return db
    .selectFrom('spaceLocators as l')
    .innerJoin('spaces as s', (join) => join.onRef('s.organizationId', '=', 'l.organizationId').onRef('s.id', '=', 'l.spaceId'))
    .innerJoin('changeRequests as cr', (join) => join.onRef('cr.organizationId', '=', 's.organizationId').onRef('cr.spaceId', '=', 's.id'))
    .select(['s.organizationId', 's.id as spaceId', 's.title as spaceTitle', 'cr.id as changeRequestId', 'cr.number', 'cr.subject'])
    .where('l.spaceId', '=', spaceId)
    .where('s.deletedAt', 'is', null)
    .where('cr.id', '=', changeRequestId)
    .executeTakeFirst();
}

export async function findCachedPdf(db: Executor, organizationId: string, revisionId: string, variant: string): Promise<Buffer | undefined> {
  const row = await db
    .updateTable('revisionPdfs')
    // Last use, for eviction; rewritten at most once a minute.
    .set({ usedAt: sql`CASE WHEN used_at < now() - interval '1 minute' THEN now() ELSE used_at END` })
    .where('organizationId', '=', organizationId)
    .where('revisionId', '=', revisionId)
    .where('variant', '=', variant)
    .returning('pdf')
    .executeTakeFirst();
  return row?.pdf;
}

/** Keeps a rendered PDF, then drops the organization's least recently used PDFs beyond `maxBytes`. */
export async function cachePdf(db: Executor, values: { organizationId: string; revisionId: string; variant: string; pdf: Buffer }, maxBytes: number): Promise<void> {
  await db
    .insertInto('revisionPdfs')
    .values({ ...values, byteLength: values.pdf.length })
    .onConflict((oc) => oc.columns(['organizationId', 'revisionId', 'variant']).doNothing())
    .execute();
  await sql`
    DELETE FROM revision_pdfs p
    USING (
      SELECT revision_id, variant
      FROM (
        SELECT revision_id, variant, sum(byte_length) OVER (ORDER BY used_at DESC, revision_id, variant) AS kept
        FROM revision_pdfs WHERE organization_id = ${values.organizationId}
      ) ranked
      WHERE kept > ${maxBytes}
    ) old
    WHERE p.organization_id = ${values.organizationId} AND p.revision_id = old.revision_id AND p.variant = old.variant`.execute(db);
}
