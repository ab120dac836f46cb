// First user, organization and token: used by the CLI and by `pnpm start` on an empty database.
import { inTransaction, type Executor } from '../../db/database.js';
import type { Urls } from '../../urls.js';
import { recordEvent } from '../events/index.js';
import { toApiUser } from '../users/index.js';
import { toApiOrganization } from './organization.mapper.js';
import { findUserByEmail, insertUser, type UserRow } from '../../auth/users.repository.js';
import { insertToken } from '../../auth/tokens.repository.js';
import { hashToken, newTokenSecret } from '../../auth/tokens.js';
import { createOrganization } from './organizations.service.js';
import type { OrganizationRow } from './organizations.repository.js';

/** A new token's secret; `limits` narrow it (an expiry, one organization). */
export async function issueToken(
  db: Executor,
  userId: string,
  label: string,
  limits: { expiresAt?: Date | null; organizationId?: string | null } = {},
): Promise<string> {
  const secret = newTokenSecret();
  await insertToken(db, { userId, label, tokenHash: hashToken(secret), ...limits });
  return secret;
}

export async function ensureUser(db: Executor, email: string, name?: string): Promise<{ user: UserRow; created: boolean }> {
  const existing = await findUserByEmail(db, email);
  if (existing) return { user: existing, created: false };
  const user = await insertUser(db, { email, displayName: name ?? email.split('@')[0]! });
  return { user, created: true };
}

/**
 * Creates the user and an organization they administer, and issues a token. Run again for the same
 * e-mail, it only issues a new token. The organization is recorded as created (`organization.created`,
 * by the user without a token) in the same transaction, as the API's own creation records it.
 */
export async function bootstrap(
  db: Executor,
  urls: Urls,
  options: { email: string; name?: string; organizationTitle?: string },
): Promise<{ user: UserRow; organization?: OrganizationRow; token: string }> {
  return inTransaction(db, async (trx) => {
    const { user, created } = await ensureUser(trx, options.email, options.name);
    let organization: OrganizationRow | undefined;
    if (created) {
      organization = await createOrganization(trx, user, { title: options.organizationTitle ?? `${user.displayName}'s organization` });
      const data = { object: toApiOrganization(organization, { role: 'admin', sso: false }, urls) };
      await recordEvent(trx, { type: 'organization.created', organizationId: organization.id, actor: { type: 'user', user: toApiUser(user, urls) }, data });
    }
    const token = await issueToken(trx, user.id, 'bootstrap');
    return { user, ...(organization ? { organization } : {}), token };
  });
}

export { hasAnyUser } from '../../auth/users.repository.js';
