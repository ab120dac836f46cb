// A fresh world per matrix case: an organization owned by someone else, the item the operation acts
// on, and a caller whose standing is exactly the one under test, reached one of several ways.
import type { OperationAccess } from '@content-workspace/contract';
import type { CollectionRow, OrganizationRow, SpaceRow } from './types.js';
import type { Role } from '../../src/db/schema.js';
import { ROLES } from '../../src/access/roles.js';
import type { TestServer } from '../support/harness.js';
import { addMember, createCollection, createOrganizationWithAdmin, createSpace, createTeam, createUser, grant, type TestUser } from '../support/factories.js';

/**
 * Who calls: not a member, a guest without grants, a member disabled by the organization's SSO
 * enforcement (role `create`, `admin` granted on the item: only SSO stands in the way), or a member
 * holding exactly this role.
 */
export type Standing = 'outsider' | 'guest' | 'sso-disabled' | Role;
export const STANDINGS: Standing[] = ['outsider', 'guest', 'sso-disabled', ...ROLES];

/**
 * How a role on a space or collection is reached (docs/design/access-model.md, "The effective role on a space or collection"): a direct grant, a grant to one of the
 * caller's teams, a parent collection's `defaultLevel` inherited by the item, or the caller's own
 * organization role through `defaultLevel: inherit` at the top.
 */
export type Path = 'direct' | 'team' | 'inherited' | 'organization-role';
export const PATHS: Path[] = ['direct', 'team', 'inherited', 'organization-role'];

export type World = {
  t: TestServer;
  owner: TestUser;
  organization: OrganizationRow;
  /** The space the operation acts on, inside `collection`. */
  space: SpaceRow;
  collection: CollectionRow;
  caller: TestUser;
  standing: Standing;
};

type Declaration = OperationAccess[keyof OperationAccess];

/** Where the standing must hold: the item of the scope, or for a duplicate the collection the copy goes into. */
function standingTarget(declaration: Declaration): 'space' | 'collection' | 'organization' | 'none' {
  const rules = declaration.rules as readonly string[];
  switch (declaration.scope) {
    case 'space':
      return rules.includes('create-in-parent') ? 'collection' : 'space';
    case 'change-request':
      return 'space';
    case 'collection':
      return 'collection';
    case 'organization':
      return 'organization';
    default:
      return 'none';
  }
}

/** Builds the world for `standing` under `declaration`, reaching an item role through `path`. */
export async function buildWorld(t: TestServer, declaration: Declaration, standing: Standing, path: Path): Promise<World> {
  const { admin: owner, organization } = await createOrganizationWithAdmin(t);
  const caller = await createUser(t);
  const target = standingTarget(declaration);
  const role = standing === 'outsider' || standing === 'guest' || standing === 'sso-disabled' ? undefined : standing;
  // The item's own default levels give members nothing, except on the paths that go through them.
  let parentLevel: Role | null | 'inherit' = null;
  let itemLevel: Role | null | 'inherit' = null;
  if (role && target === 'space' && path === 'inherited') [parentLevel, itemLevel] = [role, 'inherit'];
  if (role && target !== 'organization' && path === 'organization-role') [parentLevel, itemLevel] = ['inherit', 'inherit'];
  let collection: CollectionRow;
  if (role && target === 'collection' && path === 'inherited') {
    const parent = await createCollection(t, owner, organization, { defaultLevel: role });
    collection = await createCollection(t, owner, organization, { parent, defaultLevel: 'inherit' });
  } else {
    collection = await createCollection(t, owner, organization, { defaultLevel: target === 'collection' ? itemLevel : parentLevel });
  }
  // A space under a collection the standing is on inherits it (a duplicate needs `read` on the space too).
  const spaceLevel = target === 'space' ? itemLevel : target === 'collection' && path !== 'direct' && path !== 'team' ? 'inherit' : null;
  const space = await createSpace(t, owner, organization, { defaultLevel: spaceLevel, parent: collection, visibility: 'private' });
  const item = target === 'space' ? { kind: 'space' as const, item: space } : { kind: 'collection' as const, item: collection };

  if (standing === 'guest') await addMember(t, organization, caller, null);
  else if (standing === 'sso-disabled') {
    await addMember(t, organization, caller, 'create');
    await t.db.updateTable('organizations').set({ sso: true }).where('id', '=', organization.id).execute();
    if (target === 'space' || target === 'collection') await grant(t, item, { user: caller }, 'admin');
  } else if (role) {
    const itemScoped = target === 'space' || target === 'collection';
    await addMember(t, organization, caller, itemScoped && path !== 'organization-role' ? 'read' : role);
    if (itemScoped && path === 'direct') await grant(t, item, { user: caller }, role);
    if (itemScoped && path === 'team') await grant(t, item, { team: await createTeam(t, organization, [caller]) }, role);
  }
  return { t, owner, organization, space, collection, caller, standing };
}
