import { sql } from 'kysely';
import { grantHandlers } from './grants.handlers.js';
import type { TransferScope } from '../area.js';
import { defineArea } from '../area.js';

const MEMBERS_GRANTS_ONLY = 'User grants travel when the user is a member of the target organization; team grants cannot (teams belong to one organization)';
const grantToTargetMember = (s: TransferScope) =>
  sql<boolean>`src.principal_kind = 'user' AND EXISTS (SELECT 1 FROM organization_members m WHERE m.organization_id = ${s.to} AND m.user_id = src.principal_id)`;

/** Grants on spaces and collections. A duplicate starts with only its creator's `admin` grant. */
export const permissionsArea = defineArea({
  name: 'permissions',
  handlers: grantHandlers,
  tables: {
    spaceGrants: {
      transfer: { moves: { why: MEMBERS_GRANTS_ONLY, only: grantToTargetMember } },
      duplicate: { dropped: 'A duplicate starts with only its creator’s `admin` grant (written by the duplicate service)' },
    },
    collectionGrants: {
      transfer: { moves: { why: MEMBERS_GRANTS_ONLY, only: grantToTargetMember } },
      duplicate: { dropped: 'A duplicate copies a space, never the collections around it' },
    },
  },
  conflicts: {
    space_grants_organization_id_space_id_fkey: 'The space was removed meanwhile',
    collection_grants_organization_id_collection_id_fkey: 'The collection was deleted meanwhile',
  },
});

// What other areas use of this one: the only names they may import (eslint.config.js, boundaries).
export { lockPrincipal, upsertGrant } from './grants.repository.js';
