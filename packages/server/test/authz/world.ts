// A fresh world per matrix case: an organization owned by someone else, the item the operation acts
// on, and a caller whose standing is exactly the one under test.
import type { CollectionRow, OrganizationRow, SpaceRow } from './types.js';
import type { Role } from '../../src/db/schema.js';
import type { AccessRule } from '../../src/auth/access-policy.js';
import type { TestServer } from '../support/harness.js';
import { addMember, createCollection, createOrganizationWithAdmin, createSpace, createUser, grant, type TestUser } from '../support/factories.js';

/** Who calls: not a member, a guest without grants, or a member holding exactly this role. */
export type Standing = 'outsider' | 'guest' | Role;
export const STANDINGS: Standing[] = ['outsider', 'guest', 'read', 'comment', 'edit', 'review', 'create', 'admin'];

export type World = {
  t: TestServer;
  owner: TestUser;
  organization: OrganizationRow;
  /** A space and a collection the caller's standing applies to (for space/collection rules). */
  space: SpaceRow;
  collection: CollectionRow;
  caller: TestUser;
  standing: Standing;
};

/**
 * Builds the world for `standing` under `rule`: for organization rules the caller's organization role
 * is the standing; for space and collection rules the caller is a `read` member and holds the standing
 * as a direct grant on an item whose default level gives members nothing.
 */
export async function buildWorld(t: TestServer, rule: AccessRule, standing: Standing): Promise<World> {
  const { admin: owner, organization } = await createOrganizationWithAdmin(t);
  const collection = await createCollection(t, owner, organization, { defaultLevel: null });
  const space = await createSpace(t, owner, organization, { defaultLevel: null, parent: collection, visibility: 'private' });
  const caller = await createUser(t);
  if (standing === 'guest') await addMember(t, organization, caller, null);
  else if (standing !== 'outsider') {
    const itemScoped = rule.scope === 'space' || rule.scope === 'collection';
    await addMember(t, organization, caller, itemScoped ? 'read' : standing);
    if (rule.scope === 'space') await grant(t, { kind: 'space', item: space }, { user: caller }, standing);
    if (rule.scope === 'collection') await grant(t, { kind: 'collection', item: collection }, { user: caller }, standing);
  }
  return { t, owner, organization, space, collection, caller, standing };
}
