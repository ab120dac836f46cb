// Link lists and file backlinks of a revision: the space's head or a change request's. Statuses come
// from content/links (stored extractions, no parsing); `stats.broken.changeRequest` compares change
// requests' links with the head's: for a space, its open change requests' (the most recently updated
// ones, a bounded number, each evaluated once per content and then cached), for a change request, its own.
import type { AppContext } from '../../context.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { introducedBroken, linkItems, linkOccurrences, linkStats, type LinkItem, type LinkStats } from '../../content/links/report.js';
import { readingOrder, type LinkStatus, type Occurrence } from '../../content/links/status.js';
import { notFound } from '../../errors.js';
import type { ContentState } from '../../content/model.js';
import { type ContentReader, loadRevisionState } from '../content/index.js';
import { openChangeRequestRevisions } from './links.repository.js';

/** Open change requests whose links count in a space's `stats.broken.changeRequest`. */
export const CHANGE_REQUESTS_COUNTED = 20;

export type RevisionContext = { space: SpaceRow; revisionId: string; state: ContentState };

export type LinkReport = { items: LinkItem[]; stats: LinkStats };

export async function headContext(app: ContentReader, space: SpaceRow): Promise<RevisionContext> {
  return { space, revisionId: space.headRevisionId, state: await loadRevisionState(app, space, space.headRevisionId) };
}

export async function changeRequestContext(app: ContentReader, space: SpaceRow, changeRequest: { revisionId: string }): Promise<RevisionContext> {
  return { space, revisionId: changeRequest.revisionId, state: await loadRevisionState(app, space, changeRequest.revisionId) };
}

/** What link reports read with: the database and the caches (ContentReader), and the parse pool for bodies stored before links were kept. */
type LinksApp = ContentReader & Pick<AppContext, 'parsing'>;

const occurrencesOf = (app: LinksApp, context: RevisionContext, page?: string) =>
  linkOccurrences(app.db, app.caches, app.parsing, context.space.organizationId, context.space.id, context.state, page);

function requirePage(context: RevisionContext, pageId: string | undefined): void {
  if (pageId !== undefined && !context.state.pages.pages.has(pageId)) throw notFound('Page');
}

/** Broken links the space's open change requests would add (restricted to one page when given). */
async function openChangeRequestsBroken(app: LinksApp, head: RevisionContext, headLinks: Occurrence[], page?: string): Promise<number> {
  const revisions = await openChangeRequestRevisions(app.db, head.space.organizationId, head.space.id, CHANGE_REQUESTS_COUNTED);
  let total = 0;
  for (const revisionId of revisions) {
    if (revisionId === head.revisionId) continue;
    const context = { space: head.space, revisionId, state: await loadRevisionState(app, head.space, revisionId) };
    if (page !== undefined && !context.state.pages.pages.has(page)) continue;
    total += introducedBroken(await occurrencesOf(app, context, page), headLinks);
  }
  return total;
}

/** The links of the space's head (one page's when given), with the stats of the whole list. */
export async function headLinkReport(app: LinksApp, space: SpaceRow, page?: string): Promise<LinkReport> {
  const head = await headContext(app, space);
  requirePage(head, page);
  const occurrences = await occurrencesOf(app, head, page);
  const items = linkItems(occurrences);
  return { items, stats: linkStats(items, await openChangeRequestsBroken(app, head, occurrences, page)) };
}

/** The links of a change request's head (one page's when given); `changeRequest` counts what it would break. */
export async function changeRequestLinkReport(app: LinksApp, space: SpaceRow, changeRequest: { revisionId: string }, page?: string): Promise<LinkReport> {
  const context = await changeRequestContext(app, space, changeRequest);
  requirePage(context, page);
  const occurrences = await occurrencesOf(app, context, page);
  const items = linkItems(occurrences);
  const headLinks = await occurrencesOf(app, await headContext(app, space), page);
  return { items, stats: linkStats(items, introducedBroken(occurrences, headLinks)) };
}

export function withStatus(items: LinkItem[], status: LinkStatus | undefined): LinkItem[] {
  return status === undefined ? items : items.filter((item) => item.status === status);
}

export type Backlink = { page: string; order: number };

/** The pages of the revision that refer to the file (a link, an image, their cover), in reading order. */
export async function fileBacklinks(app: LinksApp, context: RevisionContext, fileId: string): Promise<Backlink[]> {
  if (!context.state.files.items.has(fileId)) throw notFound('File');
  const order = new Map(readingOrder(context.state.pages).map((page, index) => [page.id, index]));
  const pages = new Set<string>();
  for (const occurrence of await occurrencesOf(app, context)) {
    const target = occurrence.target;
    if (target.kind === 'file' && target.file === fileId && target.space === undefined) pages.add(occurrence.page);
  }
  for (const entry of context.state.pages.pages.values()) if (entry.cover?.ref.file === fileId) pages.add(entry.id);
  return [...pages].map((page) => ({ page, order: order.get(page)! })).sort((a, b) => a.order - b.order || (a.page < b.page ? -1 : 1));
}
