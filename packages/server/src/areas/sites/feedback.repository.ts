// SQL of the readers' page feedback: stored by the published site (published/endpoints/feedback.ts),
// listed for admins, and counted by the insights (insights.repository.ts).
import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { SiteFeedbackRating, SiteFeedbackTable } from '../../db/schema.js';
import { newId } from '../../ids.js';

export type FeedbackRow = Selectable<SiteFeedbackTable>;

export async function insertFeedback(db: Executor, values: Omit<Insertable<SiteFeedbackTable>, 'id'>): Promise<void> {
  await db.insertInto('siteFeedback').values({ ...values, id: newId() }).execute();
}

/** Whether `revisionId` is a revision of the space (feedback about an earlier revision than the head). */
export async function revisionOfSpace(db: Executor, organizationId: string, spaceId: string, revisionId: string): Promise<boolean> {
  const row = await db.selectFrom('revisions').select('id').where('organizationId', '=', organizationId).where('id', '=', revisionId).where('spaceId', '=', spaceId).where('changeRequestId', 'is', null).executeTakeFirst();
  return row !== undefined;
}

/** The site's feedback (alias `f`), optionally of one page and one rating: each filter has its index. */
export function feedbackQuery(db: Executor, organizationId: string, siteId: string, filters: { pageId?: string | undefined; rating?: SiteFeedbackRating | undefined }) {
  let query = db.selectFrom('siteFeedback as f').selectAll('f').where('f.organizationId', '=', organizationId).where('f.siteId', '=', siteId);
  if (filters.pageId !== undefined) query = query.where('f.pageId', '=', filters.pageId);
  if (filters.rating !== undefined) query = query.where('f.rating', '=', filters.rating);
  return query;
}
