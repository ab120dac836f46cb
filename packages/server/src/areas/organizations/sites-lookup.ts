// Sites do not exist yet: no id names a site, so `defaultContent.site` is always refused (400).
// The sites work replaces this with a lookup in its table.
import type { Executor } from '../../db/database.js';

export async function findSiteOfOrganization(_db: Executor, _organizationId: string, _siteId: string): Promise<{ id: string } | undefined> {
  return undefined;
}
