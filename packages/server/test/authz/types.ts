export type { OrganizationRow } from '../../src/db/repositories/organizations.repository.js';
export type { CollectionRow, SpaceRow } from '../../src/db/repositories/access.repository.js';
