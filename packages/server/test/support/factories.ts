// One-line fixtures. They write rows directly (memberships, roles), so tests can set up any role
// before the endpoints that manage it exist.
import { randomBytes } from 'node:crypto';
import type { ContentWorkspaceClient } from '@content-workspace/sdk';
import type { DefaultLevel, Role, Visibility } from '../../src/db/schema.js';
import type { CollectionRow, SpaceRow } from '../../src/access/standing.repository.js';
import { upsertGrant } from '../../src/areas/permissions/grants.repository.js';
import { updateSpace } from '../../src/areas/spaces/spaces.repository.js';
import { newId } from '../../src/ids.js';
import { createCollection as createCollectionService } from '../../src/areas/collections/collections.service.js';
import { createSpace as createSpaceService } from '../../src/areas/spaces/spaces.service.js';
import { insertMember, insertOrganization, type OrganizationRow } from '../../src/areas/organizations/organizations.repository.js';
import { insertUser, type UserRow } from '../../src/auth/users.repository.js';
import { issueToken } from '../../src/areas/organizations/bootstrap.js';
import { insertSamlProvider, type SamlProviderValues } from '../../src/areas/saml/saml.repository.js';
import { IDP_CERTIFICATE, IDP_ENTITY_ID, IDP_SSO_URL } from './saml.js';
import type { TestServer } from './harness.js';

export type TestUser = { user: UserRow; token: string; client: ContentWorkspaceClient };

const unique = () => randomBytes(5).toString('hex');

export async function createUser(t: TestServer, values: { email?: string; name?: string } = {}): Promise<TestUser> {
  const id = unique();
  const user = await insertUser(t.db, { email: values.email ?? `user-${id}@example.com`, displayName: values.name ?? `User ${id}` });
  const token = await issueToken(t.db, user.id, 'test');
  return { user, token, client: t.client(token) };
}

export async function createOrganization(
  t: TestServer,
  owner: TestUser,
  values: { title?: string; emailDomains?: string[]; defaultRole?: Role | null } = {},
): Promise<OrganizationRow> {
  const organization = await insertOrganization(t.db, {
    title: values.title ?? `Organization ${unique()}`,
    ...(values.emailDomains ? { emailDomains: values.emailDomains } : {}),
    ...(values.defaultRole !== undefined ? { defaultRole: values.defaultRole } : {}),
  });
  await insertMember(t.db, { organizationId: organization.id, userId: owner.user.id, role: 'admin' });
  return organization;
}

/** Makes `user` a member with `role` (null: guest). */
export async function addMember(t: TestServer, organization: { id: string }, user: TestUser, role: Role | null): Promise<void> {
  await insertMember(t.db, { organizationId: organization.id, userId: user.user.id, role });
}

/** A new user who is a member of `organization` with `role` (null: guest). */
export async function createMember(t: TestServer, organization: { id: string }, role: Role | null): Promise<TestUser> {
  const member = await createUser(t);
  await addMember(t, organization, member, role);
  return member;
}

/** A user, the organization they administer, and their client. */
export async function createOrganizationWithAdmin(t: TestServer): Promise<{ admin: TestUser; organization: OrganizationRow }> {
  const admin = await createUser(t);
  const organization = await createOrganization(t, admin);
  return { admin, organization };
}

// ---- Collections, spaces, teams and grants ----

export type SpaceOptions = {
  parent?: { id: string } | null;
  title?: string;
  visibility?: Visibility;
  defaultLevel?: DefaultLevel;
};

/** A space created by `creator` (who gets its `admin` grant), as the API would, then adjusted. */
export async function createSpace(t: TestServer, creator: TestUser, organization: { id: string }, options: SpaceOptions = {}): Promise<SpaceRow> {
  let space = await createSpaceService(t.db, {
    organizationId: organization.id,
    creatorId: creator.user.id,
    parentId: options.parent?.id ?? null,
    body: { title: options.title ?? `Space ${unique()}`, ...(options.visibility ? { visibility: options.visibility } : {}) },
  });
  if (options.defaultLevel !== undefined) space = await updateSpace(t.db, organization.id, space.id, { defaultLevel: options.defaultLevel });
  return space;
}

export async function createCollection(
  t: TestServer,
  creator: TestUser,
  organization: { id: string },
  options: { parent?: { id: string } | null; title?: string; defaultLevel?: DefaultLevel } = {},
): Promise<CollectionRow> {
  return createCollectionService(t.db, {
    organizationId: organization.id,
    creatorId: creator.user.id,
    parentId: options.parent?.id ?? null,
    body: { title: options.title ?? `Collection ${unique()}`, ...(options.defaultLevel !== undefined ? { defaultLevel: options.defaultLevel } : {}) },
  });
}

/** A team of the organization with the given members (who must be members of the organization). */
export async function createTeam(t: TestServer, organization: { id: string }, members: TestUser[] = [], title = `Team ${unique()}`): Promise<{ id: string }> {
  const id = newId();
  await t.db.insertInto('teams').values({ organizationId: organization.id, id, title }).execute();
  for (const member of members) {
    await t.db.insertInto('teamMembers').values({ organizationId: organization.id, teamId: id, userId: member.user.id }).execute();
  }
  return { id };
}

/** Grants `role` on a space or collection to a user or a team. */
export async function grant(
  t: TestServer,
  target: { kind: 'space' | 'collection'; item: { id: string; organizationId: string } },
  principal: { user: TestUser } | { team: { id: string } },
  role: Role,
): Promise<void> {
  await upsertGrant(
    t.db,
    { kind: target.kind, organizationId: target.item.organizationId, id: target.item.id },
    'user' in principal ? { kind: 'user', id: principal.user.user.id } : { kind: 'team', id: principal.team.id },
    role,
  );
}

// ---- People ----

/** Adds `user` to `team` with `role` (or changes their role). */
export async function addTeamMember(t: TestServer, organization: { id: string }, team: { id: string }, user: TestUser, role: 'owner' | 'member' = 'member'): Promise<void> {
  await t.db
    .insertInto('teamMembers')
    .values({ organizationId: organization.id, teamId: team.id, userId: user.user.id, role })
    .onConflict((oc) => oc.columns(['organizationId', 'teamId', 'userId']).doUpdateSet({ role }))
    .execute();
}

/** Sets membership times explicitly (rows made within one millisecond would tie). */
export async function setMemberTimes(
  t: TestServer,
  organization: { id: string },
  user: TestUser,
  times: { joinedAt?: string; lastSeenAt?: string | null },
): Promise<void> {
  await t.db
    .updateTable('organizationMembers')
    .set(times as never)
    .where('organizationId', '=', organization.id)
    .where('userId', '=', user.user.id)
    .execute();
}

/** A link invite of the organization, written directly. */
export async function createInvite(t: TestServer, organization: { id: string }, creator: TestUser, role: Role | null = null): Promise<{ id: string }> {
  const id = newId(32);
  await t.db.insertInto('linkInvites').values({ organizationId: organization.id, id, role, createdBy: creator.user.id }).execute();
  return { id };
}

// ---- SAML ----

/** A SAML provider of the organization, `active` with the test identity provider unless `values` say otherwise. */
export async function createSamlProvider(t: TestServer, organization: { id: string }, values: SamlProviderValues = {}): Promise<{ id: string }> {
  const id = await insertSamlProvider(t.db, organization.id, {
    label: `SAML ${unique()}`.slice(0, 30),
    entityId: IDP_ENTITY_ID,
    ssoUrl: IDP_SSO_URL,
    certificate: IDP_CERTIFICATE.trim(),
    ...values,
  });
  return { id };
}
