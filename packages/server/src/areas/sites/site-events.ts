// A site's events: each change of a site runs with its event in one transaction — `site.updated` for
// settings, customization, audience, adaptive schema and structure, `site.published`/`unpublished`
// when publication actually moved, `site.deleted` with the site as it was.
import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { inTransaction, type Database } from '../../db/database.js';
import { actorOf, recordEvent } from '../events/index.js';
import { findSite, type SiteRow } from './sites.repository.js';
import { toApiSite } from './sites.mapper.js';

type SiteEventType = 'site.updated' | 'site.published' | 'site.unpublished' | 'site.deleted';

/** The site as events show it: as an organization admin sees it (their audience). */
export const siteData = (site: SiteRow, app: Pick<AppContext, 'urls' | 'config'>) => ({ object: toApiSite(site, 'admin', app.urls, app.config.sites) });

/**
 * Runs `change` (given the transaction as its database) and records the site's event in the same
 * transaction. `site.published` and `site.unpublished` are recorded only when `published` moved.
 */
export async function siteChange<T>(
  app: AppContext,
  caller: Caller,
  organizationId: string,
  siteId: string,
  change: (db: Database) => Promise<T>,
  type: SiteEventType = 'site.updated',
): Promise<T> {
  return inTransaction(app.db, async (trx) => {
    const before = await findSite(trx, organizationId, siteId);
    const result = await change(trx);
    const after = type === 'site.deleted' ? before : await findSite(trx, organizationId, siteId);
    const moved = type === 'site.published' || type === 'site.unpublished' ? before?.published !== after?.published : true;
    if (after && moved) await recordEvent(trx, { type, organizationId, actor: actorOf(caller, app.urls), data: siteData(after, app) });
    return result;
  });
}
