// What each `x-access` scope resolves to: the resource its path names and the caller's standing on it.
// No standing → 404 (the resource does not exist for the caller), below the minimum → 403; the
// dispatcher calls these before the handler (access/resolve.ts).
import { requireRestorableSpace, requireCollection, requireSpace, requireSpaceWith, type CollectionAccess, type SpaceAccess } from './items.js';
import type { Caller } from '../auth/authenticate.js';
import { requireOrganizationMember, type OrganizationAccess } from './organization.js';
import type { Role } from './roles.js';
import type { Executor } from '../db/database.js';
import { notFound } from '../errors.js';
import type { AccessReader } from './viewer.js';
import type { ChangeRequestRow } from '../areas/change-requests/index.js';
import type { AttachedRow } from './standing.repository.js';

export type { CollectionAccess, OrganizationAccess, SpaceAccess };
export type ChangeRequestAccess = SpaceAccess & { changeRequest: ChangeRequestRow };

/** What the handler receives for each scope. */
export type ScopeAccess = {
  public: Record<string, never>;
  user: Record<string, never>;
  organization: OrganizationAccess;
  collection: CollectionAccess;
  space: SpaceAccess;
  'change-request': ChangeRequestAccess;
};

export type Scope = keyof ScopeAccess;

/**
 * How scopes whose resource belongs to an area are found: the change-requests area supplies the
 * lookup of a change request by id or number (its descriptor's `scopeLookups`), read in the space's
 * own statement (one round trip for the scope).
 */
export type ScopeLookups = {
  changeRequest: (db: Executor, ref: string) => AttachedRow<ChangeRequestRow>;
};

/** The lowest standing the declaration admits: no role at all for `guest`, else a role. */
export type Minimum = 'authenticated' | 'guest' | 'member' | Role | null;

/**
 * A scope's resource with the caller's role on it (for organizations: their member role, null for a
 * guest), found with the lowest standing (`read`, or any membership): the minimum is checked after.
 */
export async function findScope(
  app: AccessReader,
  caller: Caller,
  scope: Scope,
  params: Record<string, string>,
  options: { restorable: boolean; lookups: ScopeLookups },
): Promise<ScopeAccess[Scope]> {
  switch (scope) {
    case 'public':
    case 'user':
      return {};
    case 'organization':
      return requireOrganizationMember(app.db, caller, params.organizationId!);
    case 'collection':
      return requireCollection(app, caller, params.collectionId!, 'read');
    case 'space':
      return options.restorable
        ? requireRestorableSpace(app, caller, params.spaceId!, 'read')
        : requireSpace(app, caller, params.spaceId!, 'read');
    case 'change-request': {
      const { attached: changeRequest, ...access } = await requireSpaceWith(app, caller, params.spaceId!, 'read', options.lookups.changeRequest(app.db, params.changeRequestId!));
      if (!changeRequest) throw notFound('Change request');
      return { ...access, changeRequest };
    }
  }
}

/** The caller's standing in the scope, compared with minimums: a role, or null (a guest of an organization). */
export function standingOf(scope: Scope, access: ScopeAccess[Scope]): Role | null | undefined {
  if (scope === 'public' || scope === 'user') return undefined;
  return (access as { role: Role | null }).role;
}
