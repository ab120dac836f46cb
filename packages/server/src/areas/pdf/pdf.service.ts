// The PDF of a change request's content at one revision: the pages chosen (all, a page with its
// subpages, or a page alone) with their bodies and the images of the space's files they show, laid
// out by pdf-document.ts and rendered in a worker; rendered once per revision and options, then kept
// in the cache (revision_pdfs). Concurrent requests for the same PDF in one process share one
// rendering.
import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { loadDocuments } from '../../content/content-objects.repository.js';
import { findSpaceRevision } from '../../content/revisions.repository.js';
import { invalidField, notFound, unprocessable } from '../../errors.js';
import { readImageInfo } from '../../content/image-info.js';
import type { ContentState, PageEntry } from '../../content/model.js';
import { revisionRoots } from '../content/space-content.service.js';
import { loadContentState } from '../../content/tree-store.js';
import { signTicket, verifyTicket } from '../../content/download-signature.js';
import { pdfDocument, type PdfImages, type PdfPage } from './pdf-document.js';
import { imageFileIds, parseBody, type MdNode } from './pdf-markdown.js';
import { renderPdf } from './pdf-render.js';
import { cachePdf, findCachedPdf } from './pdf.repository.js';

type App = Pick<AppContext, 'db' | 'config' | 'keys' | 'urls' | 'caches' | 'blobs'>;

/** Bumped when the layout changes, so PDFs rendered before are not served again. */
const RENDERER_VERSION = 1;
/** Image bytes one PDF embeds at most; images past it show as placeholders. */
const MAX_IMAGE_BYTES = 64 * 1024 * 1024;
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

/** The images the bodies show: PNG and JPEG files of the revision (what pdfmake embeds), as data URLs. */
async function loadImages(app: App, organizationId: string, state: ContentState, bodies: MdNode[]): Promise<PdfImages> {
  const images: PdfImages = new Map();
  let total = 0;
  for (const fileId of new Set(bodies.flatMap(imageFileIds))) {
    const file = state.files.items.get(fileId);
    if (!file || file.size + total > MAX_IMAGE_BYTES) continue;
    const bytes = await app.blobs.get(app.db, organizationId, file.blobHash);
    const info = bytes && readImageInfo(bytes);
    if (!bytes || !info || (info.contentType !== 'image/png' && info.contentType !== 'image/jpeg')) continue;
    total += bytes.length;
    // Pixels at 96 per inch, in points.
    images.set(fileId, { name: `file-${fileId}`, width: info.width * 0.75, height: info.height * 0.75, data: `data:${info.contentType};base64,${bytes.toString('base64')}` });
  }
  return images;
}

async function render(app: App, subject: PdfSubject, revision: { id: string; createdAt: Date }, state: ContentState, options: PdfOptions): Promise<Buffer> {
  const selected = selectPages(state, options);
  if (selected.length > app.config.pdf.maxPages) {
    throw unprocessable(`The change request has ${selected.length} pages: a PDF holds at most ${app.config.pdf.maxPages}; ask for part of it with \`page\``);
  }
  const hashes = selected.flatMap(({ entry }) => (entry.documentHash ? [entry.documentHash] : []));
  const markdown = await loadDocuments(app.db, subject.organizationId, hashes);
  const pages: PdfPage[] = selected.map(({ entry, depth }) => {
    const body = entry.documentHash ? markdown.get(entry.documentHash) : undefined;
    return { id: entry.id, title: entry.title, ...(entry.description ? { description: entry.description } : {}), depth, group: entry.type === 'group', ...(body ? { body: parseBody(body) } : {}) };
  });
  const images = await loadImages(app, subject.organizationId, state, pages.flatMap((page) => (page.body ? [page.body] : [])));
  const cover = {
    title: subject.spaceTitle || 'Untitled space',
    subtitle: `Change request #${subject.number}${subject.subject ? `: ${subject.subject}` : ''}`,
    details: [`Revision ${revision.id}`, `${revision.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`, `${pages.length} page${pages.length === 1 ? '' : 's'}`],
  };
  return renderPdf(pdfDocument(cover, pages, images), app.config.pdf.renderTimeoutMs);
}

const rendering = new Map<string, Promise<Buffer>>();

/** The PDF of `revisionId` (a revision of the subject's space) with `options`: cached, or rendered and cached. */
export async function pdfOf(app: App, subject: PdfSubject, revisionId: string, options: PdfOptions): Promise<Buffer> {
  if (options.only && options.page === undefined) throw invalidField('/query/only', 'needs `page`: the page the PDF holds alone');
  const revision = await findSpaceRevision(app.db, subject.organizationId, subject.spaceId, revisionId);
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
      const pdf = await render(app, subject, revision, state, options);
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
