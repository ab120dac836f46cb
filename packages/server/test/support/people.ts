// Expected API shapes of people objects, for asserting whole bodies in tests.
import { expect } from 'vitest';
import type { Role } from '../../src/db/schema.js';
import type { TestUser } from './factories.js';

export function expectedUser(who: TestUser) {
  return {
    object: 'user',
    id: who.user.id,
    displayName: who.user.displayName,
    email: who.user.email,
    urls: { location: `http://api.test/v1/users/${who.user.id}` },
  };
}

/** The Member object of `who` with `role`; counters zero and nothing seen unless overridden. */
export function expectedMember(who: TestUser, role: Role | null, overrides: Record<string, unknown> = {}) {
  return {
    object: 'member',
    id: who.user.id,
    role,
    user: expectedUser(who),
    disabled: false,
    joinedAt: expect.any(String),
    sso: false,
    spaces: 0,
    teams: 0,
    ...overrides,
  };
}
