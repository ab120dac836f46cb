// Feedback rows as the API shows them.
import type { Schemas } from '../../schemas.js';
import type { FeedbackRow } from './feedback.repository.js';

export function toApiFeedback(row: FeedbackRow): Schemas['SiteFeedback'] {
  return {
    object: 'site-feedback',
    id: row.id,
    space: row.spaceId,
    page: row.pageId,
    revision: row.revisionId,
    rating: row.rating,
    ...(row.comment !== null ? { comment: row.comment } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}
