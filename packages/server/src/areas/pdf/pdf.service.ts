// The PDF of a change request's content at one revision: the pages chosen (all, a page with its
// subpages, or a page alone) with their bodies (the trees stored when they were written) and the
// images of the space's files they show, laid out and rendered in the parse pool (pdf-render.ts), in
// its long lane: at most the pool's threads less one render at once, a few more wait, the rest are
// answered 503. Rendered once per revision and options, then kept in the cache (revision_pdfs).
// Concurrent requests for the same PDF in one process share one rendering.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { rawQuery, value } from '../../db/raw-query.js';
import { loadBodyPartsText } from '../../content/parsed-bodies.js';
import { findSpaceRevision } from '../../content/revisions.repository.js';
import { invalidField, notFound, serviceUnavailable, unprocessable } from '../../errors.js';
import { readImageInfo } from '../../content/image-info.js';
import type { ContentState, PageEntry } from '../../content/model.js';
import { ParseLimitError } from '../../parsing/parse-pool.js';
import { revisionRoots } from '../content/index.js';
import { loadContentState } from '../../content/tree-store.js';
import { signTicket, verifyTicket } from '../../content/download-signature.js';
import type { ImageToRender, PageToRender } from './pdf-render.js';
import { cachePdf, findCachedPdf } from './pdf.repository.js';

type App = Pick<AppContext, 'db' | 'config' | 'keys' | 'urls' | 'caches' | 'blobs' | 'parsing'>;

/** Bumped when the layout changes, so PDFs rendered before are not served again. */
const RENDERER_VERSION = 1;
/** Image bytes one PDF embeds at most; images past it show as placeholders. */
const MAX_IMAGE_BYTES = 64 * 1024 * 1024;
/** Markdown one PDF lays out at most (its trees are several times larger): past it, ask for part of it. */
export const MAX_PDF_MARKDOWN_BYTES = 8 * 1024 * 1024;
/** Finding the images a PDF's bodies show: a walk of their trees. */
const IMAGES_DEADLINE_MS = 5_000;
/** Left of a request's time for answering it once its PDF is rendered (storing it, sending it). */
const ANSWER_RESERVE_MS = 3_000;
/** A render that could not run at least this long within its request's time is not started (503). */
const MIN_RENDER_MS = 2_000;
const PURPOSE = 'change-request-pdf';

export type PdfOptions = { page?: string | undefined; only: boolean };
export type PdfSubject = { organizationId: string; spaceId: string; spaceTitle: string; changeRequestId: string; number: number; subject: string | null };

/** The pages of the PDF, in tree order, with their depth below the first one chosen. */
function selectPages(state: ContentState, options: PdfOptions): Array<{ entry: PageEntry; depth: number }> {
  const { pages } = state;
  const out: Array<{ entry: PageEntry; depth: number }> = [];
  const walk = (ids: readonly string[], depth: number) => {
    for (const id of ids) {
      out.push({ entry: pages.pages.get(id)!, depth });
      walk(pages.childrenOf.get(id) ?? [], depth + 1);
    }
  };
  if (options.page === undefined) walk(pages.childrenOf.get(null) ?? [], 0);
  else if (options.only) out.push({ entry: pages.pages.get(options.page)!, depth: 0 });
  else walk([options.page], 0);
  return out;
}

function variantOf(subject: PdfSubject, revisionId: string, options: PdfOptions): string {
  const key = { v: RENDERER_VERSION, space: subject.spaceTitle, number: subject.number, subject: subject.subject, revisionId, page: options.page ?? null, only: options.only };
  return createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 32);
}

/** The images the bodies show: PNG and JPEG files of the revision (what pdfmake embeds), as bytes. */
async function loadImages(app: App, organizationId: string, state: ContentState, fileIds: string[]): Promise<ImageToRender[]> {
  const images: ImageToRender[] = [];
  let total = 0;
  for (const fileId of fileIds) {
    const file = state.files.items.get(fileId);
    if (!file || file.size + total > MAX_IMAGE_BYTES) continue;
    const bytes = await app.blobs.get(app.db, organizationId, file.blobHash);
    const info = bytes && readImageInfo(bytes);
    if (!bytes || !info || (info.contentType !== 'image/png' && info.contentType !== 'image/jpeg')) continue;
    total += bytes.length;
    // Pixels at 96 per inch, in points.
    images.push({ fileId, name: `file-${fileId}`, width: info.width * 0.75, height: info.height * 0.75, contentType: info.contentType, bytes });
  }
  return images;
}

const markdownBytesQuery = rawQuery({
  name: 'pdfMarkdownBytes',
  columns: { total: value('int8').orNull() },
  statement: (organizationId: string, hashes: Buffer[]) => sql`
    SELECT sum(byte_length)::int8 AS total FROM documents
    WHERE organization_id = ${organizationId} AND hash = ANY(${hashes}::bytea[])`,
  shapes: [['', []]],
});

/** The bodies' markdown bytes together (what the PDF would lay out). */
async function markdownBytes(app: App, organizationId: string, hashes: string[]): Promise<number> {
  if (hashes.length === 0) return 0;
  const rows = await markdownBytesQuery.rows(app.db, organizationId, hashes.map((hash) => Buffer.from(hash, 'hex')));
  return rows[0]?.total ?? 0;
}

const tooLarge = () => unprocessable('The PDF is too large to render: ask for fewer pages (`page`, `only`)');

const busy = () => serviceUnavailable('The server is busy rendering other PDFs: retry shortly', 5);

/**
 * Renders the PDF within `answerBy` (a time): it waits for a slot of the long lane only while a render
 * could still finish in time, and runs for what is left of that time at most (PDF_RENDER_TIMEOUT_MS
 * at most), so its request is always answered — 503 with `Retry-After` when the wait ate its time.
 */
async function render(app: App, subject: PdfSubject, revision: { id: string; createdAt: Date }, state: ContentState, options: PdfOptions, answerBy: number): Promise<Buffer> {
  const selected = selectPages(state, options);
  if (selected.length > app.config.pdf.maxPages) {
    throw unprocessable(`The change request has ${selected.length} pages: a PDF holds at most ${app.config.pdf.maxPages}; ask for part of it with \`page\``);
  }
  const hashes = [...new Set(selected.flatMap(({ entry }) => (entry.documentHash ? [entry.documentHash] : [])))];
  if ((await markdownBytes(app, subject.organizationId, hashes)) > MAX_PDF_MARKDOWN_BYTES) throw tooLarge();
  const trees = await loadBodyPartsText(app.db, app.parsing, subject.organizationId, hashes, 'tree');
  const pages: PageToRender[] = selected.map(({ entry, depth }) => {
    const tree = entry.documentHash ? trees.get(entry.documentHash) : undefined;
    return { id: entry.id, title: entry.title, ...(entry.description ? { description: entry.description } : {}), depth, group: entry.type === 'group', ...(tree ? { tree } : {}) };
  });
  const cover = {
    title: subject.spaceTitle || 'Untitled space',
    subtitle: `Change request #${subject.number}${subject.subject ? `: ${subject.subject}` : ''}`,
    details: [`Revision ${revision.id}`, `${revision.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`, `${pages.length} page${pages.length === 1 ? '' : 's'}`],
  };
  const bodies = pages.flatMap((page) => (page.tree ? [page.tree] : []));
  /** The render's deadline is its request's time left, shorter than PDF_RENDER_TIMEOUT_MS. */
  let cutShort = false;
  try {
    const fileIds = await app.parsing.run('pdf-images', { trees: bodies }, { deadlineMs: IMAGES_DEADLINE_MS });
    // A slot of the long lane is taken before the images are loaded: renders waiting for one hold no image bytes.
    const waitMs = answerBy - Date.now() - MIN_RENDER_MS;
    if (waitMs <= 0) throw busy();
    const release = await app.parsing.reserveLong({ maxWaitMs: waitMs });
    const deadlineMs = Math.min(app.config.pdf.renderTimeoutMs, answerBy - Date.now());
    cutShort = deadlineMs < app.config.pdf.renderTimeoutMs;
    try {
      const images = await loadImages(app, subject.organizationId, state, fileIds);
      const pdf = await app.parsing.run('pdf-render', { cover, pages, images }, { deadlineMs, lane: 'reserved' });
      return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    } finally {
      release();
    }
  } catch (error) {
    if (!(error instanceof ParseLimitError)) throw error;
    // Cut short by its request's time (it waited for a slot): the PDF itself may render in time later.
    if (error.limit === 'time' && cutShort) throw busy();
    if (error.limit === 'time') throw unprocessable(`The PDF could not be rendered within ${app.config.pdf.renderTimeoutMs} ms: ask for fewer pages (\`page\`, \`only\`)`);
    throw tooLarge();
  }
}

const rendering = new Map<string, Promise<Buffer>>();

/** The PDF of `revisionId` (a revision of the subject's space) with `options`: cached, or rendered and cached. */
export async function pdfOf(app: App, subject: PdfSubject, revisionId: string, options: PdfOptions): Promise<Buffer> {
  const answerBy = Date.now() + app.config.requestTimeoutMs - ANSWER_RESERVE_MS;
  if (options.only && options.page === undefined) throw invalidField('/query/only', 'needs `page`: the page the PDF holds alone');
  const revision = await findSpaceRevision(app.db, app.caches, subject.organizationId, subject.spaceId, revisionId);
  if (!revision) throw notFound('Revision');
  const state = await loadContentState(app.db, app.caches, subject.organizationId, revisionRoots(revision));
  if (options.page !== undefined && !state.pages.pages.has(options.page)) throw invalidField('/query/page', `no page "${options.page}" in the change request`);
  const variant = variantOf(subject, revision.id, options);
  const cached = await findCachedPdf(app.db, subject.organizationId, revision.id, variant);
  if (cached) return cached;
  const key = `${subject.organizationId}:${revision.id}:${variant}`;
  let pending = rendering.get(key);
  if (!pending) {
    pending = (async () => {
      const pdf = await render(app, subject, revision, state, options, answerBy);
      await cachePdf(app.db, { organizationId: subject.organizationId, revisionId: revision.id, variant, pdf }, app.config.pdf.cacheMaxBytes);
      return pdf;
    })().finally(() => rendering.delete(key));
    rendering.set(key, pending);
  }
  return pending;
}

type Ticket = { s: string; c: string; r: string; p?: string; o?: 1 };

/** A signed address serving the PDF of `revisionId` with `options` (valid one to two hours). */
export function pdfAddress(app: App, subject: Pick<PdfSubject, 'spaceId' | 'changeRequestId'>, revisionId: string, options: PdfOptions): string {
  const ticket: Ticket = { s: subject.spaceId, c: subject.changeRequestId, r: revisionId, ...(options.page ? { p: options.page } : {}), ...(options.only ? { o: 1 as const } : {}) };
  return app.urls.api(`/pdf/${signTicket(app.keys.fileSignature, PURPOSE, ticket)}`);
}

export type ReadTicket = { status: 'valid'; spaceId: string; changeRequestId: string; revisionId: string; options: PdfOptions; expiresAt: number } | { status: 'expired' } | { status: 'invalid' };

export function readPdfAddress(app: App, token: string): ReadTicket {
  const verified = verifyTicket<Ticket>(app.keys.fileSignature, PURPOSE, token);
  if (verified.status !== 'valid') return verified;
  const { s, c, r, p, o, e } = verified.payload;
  if (typeof s !== 'string' || typeof c !== 'string' || typeof r !== 'string') return { status: 'invalid' };
  return { status: 'valid', spaceId: s, changeRequestId: c, revisionId: r, options: { page: p, only: o === 1 }, expiresAt: e };
}
