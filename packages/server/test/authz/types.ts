export type { OrganizationRow } from '../../src/areas/organizations/organizations.repository.js';
export type { CollectionRow, SpaceRow } from '../../src/access/standing.repository.js';
