// A credential never reaches beyond what issued it (docs/design/access-model.md, "Tokens"). A token issued through an
// organization's single sign-on is scoped to that organization: every other organization, with all
// it holds (public and unlisted spaces included), answers as absent (404), and operations that act
// beyond any one organization (personal tokens, creating organizations) refuse it (403). And no token
// makes another that reaches further or lives longer than itself.
//
// The rule lives here; it is applied where the caller's standing is resolved (access/items.ts,
// access/organization.ts), by the `personal` access rule of the operations that declare it
// (access/rules.ts), and in the three queries that span the caller's organizations (organizations,
// e-mail-domain lookup, users), which take `caller.organizationScope` as a filter.
import { forbidden, invalidField } from '../errors.js';
import type { Caller } from './authenticate.js';

/** True when the caller's token may not reach `organizationId`: treat it as absent. */
export function outsideScope(caller: Caller, organizationId: string): boolean {
  return caller.organizationScope !== null && caller.organizationScope !== organizationId;
}

/** 403 for a scoped token (the `personal` access rule). */
export function requireUnscopedToken(caller: Caller): void {
  if (caller.organizationScope !== null) {
    throw forbidden('A token issued through an organization’s single sign-on may not do this: use a personal token');
  }
}

/**
 * The scope and expiry of a token the caller creates: never wider or later than the caller's own.
 * Without `expiresAt` it expires with the caller's token; a later `expiresAt` is a 400.
 */
export function newTokenLimits(caller: Caller, expiresAt: Date | null): { expiresAt: Date | null; organizationId: string | null } {
  const ceiling = caller.tokenExpiresAt;
  if (ceiling && expiresAt && expiresAt.getTime() > ceiling.getTime()) {
    throw invalidField('/body/expiresAt', `must not be later than the expiry of the token making it (${ceiling.toISOString()})`);
  }
  return { expiresAt: expiresAt ?? ceiling, organizationId: caller.organizationScope };
}
