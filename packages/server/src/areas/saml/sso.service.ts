// Signing in through a SAML provider, once its response is verified (saml.ts): refuse a replayed
// assertion, decide whether the e-mail may sign in to the organization, make the user an SSO member
// and issue a token — all in one transaction, so a refusal leaves no member, no token and no record
// of the assertion.
import type { VerifiedAssertion } from './saml.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { lockPrincipal } from '../permissions/index.js';
import { findMember, insertMemberIfAbsent, lockMembership, toApiMember, updateMember } from '../members/index.js';
import { recordConsumedAssertion, type ActiveSamlProviderRow } from './saml.repository.js';
import { upsertTeamMembers } from '../teams/index.js';
import { ensureUserByEmail, findAccountOrigin, findUserByEmail } from '../../auth/users.repository.js';
import { badRequest, forbidden } from '../../errors.js';
import { emailDomainOf, issueToken } from '../organizations/index.js';
import type { Urls } from '../../urls.js';
import { recordEvent } from '../events/index.js';

/** Tokens from an SSO sign-in expire, so that removing someone at the identity provider takes effect. */
export const SSO_TOKEN_LIFETIME_DAYS = 14;

const notAllowed = () => forbidden('This e-mail address may not sign in to this organization');

/** Signs the asserted user in; answers a new token. A newcomer's `member.added` is recorded with it. */
export async function signInWithSaml(db: Executor, urls: Urls, provider: ActiveSamlProviderRow, assertion: VerifiedAssertion): Promise<string> {
  return inTransaction(db, async (trx) => {
    const first = await recordConsumedAssertion(trx, {
      organizationId: provider.organizationId,
      providerId: provider.id,
      assertionId: assertion.assertionId,
      expiresAt: assertion.acceptableUntil,
    });
    if (!first) throw badRequest('SAML response refused: this assertion was already used');
    const { userId, joined } = await becomeSsoMember(trx, provider, assertion);
    if (joined) {
      const member = toApiMember((await findMember(trx, provider.organizationId, userId))!, urls);
      // The sign-in carries no API token: the actor is the user alone.
      await recordEvent(trx, { type: 'member.added', organizationId: provider.organizationId, actor: { type: 'user', user: member.user }, data: { object: member } });
    }
    const expiresAt = new Date(Date.now() + SSO_TOKEN_LIFETIME_DAYS * 86_400_000);
    // The provider is only as trusted as the organization's admins: its token reaches that organization alone.
    return issueToken(trx, userId, `SSO: ${provider.label}`, { expiresAt, organizationId: provider.organizationId });
  });
}

/**
 * A member of the organization signs in as themself (keeping their role). Anyone else needs an e-mail
 * domain of the organization and either no account yet (one is created, recorded as this
 * organization's) or an account this organization's identity provider created earlier (say, before
 * they were removed). An account made any other way is never signed in, even one that belongs to no
 * organization: `emailDomains` are not verified, so the provider would take it over. Newcomers join
 * with the provider's `defaultRole` (null: guest). Whoever becomes an SSO member joins the default team.
 */
async function becomeSsoMember(trx: Executor, provider: ActiveSamlProviderRow, assertion: VerifiedAssertion): Promise<{ userId: string; joined: boolean }> {
  const organizationId = provider.organizationId;
  const existing = await findUserByEmail(trx, assertion.email);
  const membership = existing && (await lockMembership(trx, organizationId, existing.id));
  let userId: string;
  let becameSso: boolean;
  let joined = false;
  if (existing && membership) {
    userId = existing.id;
    becameSso = !membership.sso;
    if (becameSso) await updateMember(trx, organizationId, userId, { sso: true });
  } else {
    if (!provider.emailDomains.includes(emailDomainOf(assertion.email))) throw notAllowed();
    const displayName = assertion.displayName ?? assertion.email.split('@')[0]!;
    const user = existing ?? (await ensureUserByEmail(trx, { email: assertion.email, displayName, createdByOrganizationId: organizationId }));
    // Checked after the insert too: a concurrent creation of the address elsewhere wins it.
    if ((await findAccountOrigin(trx, user.id)) !== organizationId) throw notAllowed();
    userId = user.id;
    // A concurrent sign-in of the same user may have made them a member first: either way they are one.
    becameSso = await insertMemberIfAbsent(trx, { organizationId, userId, role: provider.defaultRole, sso: true });
    joined = becameSso;
  }
  // Locked (FOR SHARE) so that a team deleted meanwhile is skipped rather than failing the sign-in.
  const team = provider.defaultTeamId;
  if (becameSso && team && (await lockPrincipal(trx, organizationId, { kind: 'team', id: team }))) {
    await upsertTeamMembers(trx, organizationId, team, [{ userId }]);
  }
  return { userId, joined };
}
