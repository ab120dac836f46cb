// One-line fixtures. They write rows directly (memberships, roles), so tests can set up any role
// before the endpoints that manage it exist.
import { randomBytes } from 'node:crypto';
import type { ContentWorkspaceClient } from '@content-workspace/sdk';
import type { Role } from '../../src/db/schema.js';
import { insertMember, insertOrganization, type OrganizationRow } from '../../src/db/repositories/organizations.repository.js';
import { insertUser, type UserRow } from '../../src/db/repositories/users.repository.js';
import { issueToken } from '../../src/services/bootstrap.js';
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
