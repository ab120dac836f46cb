// The authorization matrix: every operation of the spec, as an outsider, a guest and each role, against
// the access policy (the source of docs/access.md). At and above the minimum the call succeeds; below
// it, 403 when the caller can see the item and 404 when they cannot.
import { describe, expect, it } from 'vitest';
import { accessPolicy, type AccessRule } from '../../src/auth/access-policy.js';
import { roleAtLeast } from '../../src/auth/roles.js';
import { listOperations } from '../../src/http/operations.js';
import { useTestServer } from '../support/harness.js';
import { matrixCases } from './cases.js';
import { buildWorld, STANDINGS, type Standing } from './world.js';

const server = useTestServer();
const operations = listOperations();

/** The outcome the policy predicts: 'ok', 403 or 404. */
export function expectedOutcome(rule: AccessRule, standing: Standing): 'ok' | 403 | 404 {
  switch (rule.scope) {
    case 'authenticated':
    case 'public':
      return 'ok';
    case 'organization': {
      if (standing === 'outsider') return 404;
      if (rule.minimum === 'member') return 'ok';
      if (standing === 'guest') return 403;
      if (rule.minimum === 'non-guest') return 'ok';
      return roleAtLeast(standing, rule.minimum) ? 'ok' : 403;
    }
    case 'space':
    case 'collection':
      if (standing === 'outsider' || standing === 'guest') return 404;
      return roleAtLeast(standing, rule.minimum) ? 'ok' : 403;
  }
}

it('every operation of the spec has an access rule and a matrix case, and nothing else does', () => {
  const ids = operations.map((operation) => operation.operationId).sort();
  expect(Object.keys(accessPolicy).sort()).toEqual(ids);
  expect(Object.keys(matrixCases).sort()).toEqual(ids);
});

const cases = operations
  .filter((operation) => accessPolicy[operation.operationId as keyof typeof accessPolicy]?.scope !== 'public')
  .flatMap((operation) => STANDINGS.map((standing) => [operation.operationId, standing] as const));

const isPublic = (operationId: string) => accessPolicy[operationId as keyof typeof accessPolicy].scope === 'public';
const label = (operation: (typeof operations)[number]) => [operation.operationId, `${operation.method.toUpperCase()} ${operation.path}`] as const;

// Public operations take no token: the caller's standing cannot matter. Their case must still be a
// valid call (their own rules are tested in test/integration).
describe.each(operations.filter((operation) => isPublic(operation.operationId)).map(label))('%s (%s), public', (operationId) => {
  it('succeeds without a token', async () => {
    const world = await buildWorld(server(), { scope: 'public' }, 'outsider');
    const { response, error } = await matrixCases[operationId as keyof typeof matrixCases](world);
    expect(response.status, JSON.stringify(error ?? null)).toBeLessThan(400);
  });
});

describe.each(operations.filter((operation) => !isPublic(operation.operationId)).map(label))('%s (%s)', (operationId) => {
  const rule = accessPolicy[operationId as keyof typeof accessPolicy];
  it.each(STANDINGS.map((standing) => [standing, expectedOutcome(rule, standing)] as const))('as %s: %s', async (standing, expected) => {
    const world = await buildWorld(server(), rule, standing);
    const { response, error } = await matrixCases[operationId as keyof typeof matrixCases](world);
    const detail = JSON.stringify(error ?? null);
    if (expected === 'ok') expect(response.status, detail).toBeLessThan(300);
    else expect(response.status, detail).toBe(expected);
  });
});

export const matrixSize = cases.length;
