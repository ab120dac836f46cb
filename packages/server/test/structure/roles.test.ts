// The role order is written once (access/roles.ts ROLES); the database's `cw_role_rank` (a migration,
// which imports no app code) must rank the roles the same way, or lists and single reads would
// disagree with the gate about who holds which role.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { ROLES, rankToRole, roleRank } from '../../src/access/roles.js';
import { useTestServer } from '../support/harness.js';

const server = useTestServer();

it('cw_role_rank ranks every role as roles.ts does, and no role as 0', async () => {
  const { rows } = await sql<{ role: string | null; rank: number }>`
    SELECT role, cw_role_rank(role) AS rank FROM unnest(${[...ROLES, null, 'owner']}::text[]) AS r(role)`.execute(server().db);
  expect(rows).toEqual([...ROLES.map((role) => ({ role, rank: roleRank(role) })), { role: null, rank: 0 }, { role: 'owner', rank: 0 }]);
  expect(ROLES.map((role) => rankToRole(roleRank(role)))).toEqual([...ROLES]);
  expect(rankToRole(0)).toBeNull();
});
