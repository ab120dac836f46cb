import type { Caller } from '../../auth/authenticate.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { insertMember, insertOrganization, isHostnameTaken, type OrganizationRow } from './organizations.repository.js';
import type { Role } from '../../db/schema.js';
import { conflict } from '../../errors.js';

export type NewOrganization = {
  title: string;
  useCase?: string | null;
  emailDomains?: string[];
  hostname?: string | null;
  defaultRole?: Role | null;
};

/** The domain of an e-mail address, lowercased (organizations store their domains in lowercase). */
export const emailDomainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

export const hostnameTaken = () => conflict('This hostname is already used by another organization');

/** Creates the organization with `creator` as its first admin, in one transaction. */
export async function createOrganization(db: Executor, creator: Caller['user'], values: NewOrganization): Promise<OrganizationRow> {
  if (values.hostname && (await isHostnameTaken(db, values.hostname))) throw hostnameTaken();
  try {
    return await inTransaction(db, async (trx) => {
      const organization = await insertOrganization(trx, values);
      await insertMember(trx, { organizationId: organization.id, userId: creator.id, role: 'admin' });
      return organization;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'organizations_hostname_key')) throw hostnameTaken();
    throw error;
  }
}
