// Redirect rows as the API shows them.
import type { Schemas } from '../../schemas.js';
import type { RedirectRow } from './redirects.repository.js';

export function toApiRedirectTarget(row: RedirectRow): Schemas['SiteRedirectTarget'] {
  return row.targetKind === 'page' ? { kind: 'page', space: row.targetSpaceId!, page: row.targetPageId! } : { kind: 'url', url: row.targetUrl! };
}

export function toApiRedirect(row: RedirectRow): Schemas['SiteRedirect'] {
  return {
    object: 'site-redirect',
    id: row.id,
    source: row.source,
    target: toApiRedirectTarget(row),
    permanent: row.permanent,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
