// The authorization matrix: every operation of the spec, as an outsider, a guest, an SSO-disabled member
// and each role, against the operation's declared access (`x-access`, the contract's operationAccess —
// the same declarations the server enforces). At and above the minimum the call answers its declared
// success status; below it, 403 when the caller can see the item and 404 when they cannot. Item roles
// are reached in turn through a direct grant, a team grant, an inherited `defaultLevel` and the
// organization role, so each standing is checked through each path across the operations.
import { operationAccess, type OperationAccess } from '@content-workspace/contract';
import { describe, expect, it } from 'vitest';
import { roleAtLeast, type Role } from '../../src/access/roles.js';
import { listOperations, type SpecOperation } from '../../src/http/operations.js';
import { useTestServer } from '../support/harness.js';
import { matrixCases } from './cases.js';
import { buildWorld, PATHS, STANDINGS, type Standing } from './world.js';

const server = useTestServer();
const operations = listOperations();

type Declaration = OperationAccess[keyof OperationAccess];

/** The outcome the declaration predicts: 'ok', 403 or 404. */
export function expectedOutcome(declaration: Declaration, standing: Standing): 'ok' | 403 | 404 {
  const rules = declaration.rules as readonly string[];
  // Creating inside a parent: the parent decides (the matrix cases create at the top level, or beside the space).
  const minimum = rules.includes('create-in-parent') ? 'create' : declaration.minimum;
  switch (declaration.scope) {
    case 'public':
    case 'user':
      return 'ok';
    case 'organization': {
      if (standing === 'outsider') return 404;
      if (standing === 'sso-disabled' && rules.includes('sso-enforced')) return 403;
      const role = standing === 'guest' ? null : standing === 'sso-disabled' ? 'create' : standing;
      if (minimum === 'guest') return 'ok';
      if (role === null) return 403;
      if (minimum === 'member') return 'ok';
      return roleAtLeast(role, minimum as Role) ? 'ok' : 403;
    }
    default:
      if (standing === 'outsider' || standing === 'guest') return 404;
      if (standing === 'sso-disabled') return 403;
      return roleAtLeast(standing, minimum as Role) ? 'ok' : 403;
  }
}

const declarationOf = (operation: SpecOperation) => operationAccess[operation.operationId as keyof OperationAccess];
const successStatuses = (operation: SpecOperation) =>
  Object.keys(operation.definition.responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 400);

it('every operation of the spec has a matrix case, and nothing else does', () => {
  const ids = operations.map((operation) => operation.operationId).sort();
  expect(Object.keys(operationAccess).sort()).toEqual(ids);
  expect(Object.keys(matrixCases).sort()).toEqual(ids);
});

const label = (operation: SpecOperation) => [operation.operationId, `${operation.method.toUpperCase()} ${operation.path}`, operation] as const;
const isPublic = (operation: SpecOperation) => declarationOf(operation).scope === 'public';

// Public operations take no token: the caller's standing cannot matter. Their case must still be a
// valid call (their own rules are tested in test/integration).
describe.each(operations.filter(isPublic).map(label))('%s (%s), public', (operationId, _path, operation) => {
  it('answers its declared success status without a token', async () => {
    const world = await buildWorld(server(), declarationOf(operation), 'outsider', 'direct');
    const { response, error } = await matrixCases[operationId as keyof typeof matrixCases](world);
    expect(successStatuses(operation), JSON.stringify(error ?? null)).toContain(response.status);
  });
});

const authenticated = operations.filter((operation) => !isPublic(operation));
describe.each(authenticated.map(label))('%s (%s)', (operationId, _path, operation) => {
  const declaration = declarationOf(operation);
  const index = authenticated.indexOf(operation);
  it.each(STANDINGS.map((standing, s) => [standing, PATHS[(index + s) % PATHS.length]!, expectedOutcome(declaration, standing)] as const))(
    'as %s (through %s): %s',
    async (standing, path, expected) => {
      const world = await buildWorld(server(), declaration, standing, path);
      const { response, error } = await matrixCases[operationId as keyof typeof matrixCases](world);
      const detail = JSON.stringify(error ?? null);
      if (expected === 'ok') expect(successStatuses(operation), detail).toContain(response.status);
      else expect(response.status, detail).toBe(expected);
    },
  );
});
