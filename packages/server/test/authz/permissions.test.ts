// The permissions objects against the operations they stand for (access/permissions.ts): for every
// standing of the matrix, in a matrix world, the caller reads the object (as the API returns it), then
// calls the operation each boolean names; the boolean is true exactly when the call succeeds. A space
// is also tried locked (its `edit` and `merge` then answer 403).
import { operationAccess, type OperationAccess } from '@content-workspace/contract';
import { describe, expect, it } from 'vitest';
import {
  COLLECTION_PERMISSIONS,
  CUSTOM_FIELD_PERMISSIONS,
  ORGANIZATION_PERMISSIONS,
  SITE_PERMISSIONS,
  SPACE_PERMISSIONS,
  TEAM_PERMISSIONS,
  TRANSLATION_SETTINGS_PERMISSIONS,
} from '../../src/access/permissions.js';
import type { OperationId } from '../../src/http/handler.js';
import { useTestServer } from '../support/harness.js';
import { matrixCases } from './cases.js';
import { buildWorld, PATHS, STANDINGS, type World } from './world.js';

const server = useTestServer();

type Source = string | readonly [string, unknown];
type Kind = { name: string; read: OperationId; sources: Readonly<Record<string, Source>>; locked?: boolean };

const KINDS: Kind[] = [
  { name: 'organization', read: 'getOrganizationById', sources: ORGANIZATION_PERMISSIONS },
  { name: 'space', read: 'getSpaceById', sources: SPACE_PERMISSIONS },
  { name: 'locked space', read: 'getSpaceById', sources: SPACE_PERMISSIONS, locked: true },
  { name: 'collection', read: 'getCollectionById', sources: COLLECTION_PERMISSIONS },
  { name: 'team', read: 'getTeamById', sources: TEAM_PERMISSIONS },
  { name: 'site', read: 'getSiteById', sources: SITE_PERMISSIONS },
  { name: 'translation settings', read: 'getTranslationSettings', sources: TRANSLATION_SETTINGS_PERMISSIONS },
  { name: 'custom field', read: 'getOrganizationCustomFieldByName', sources: CUSTOM_FIELD_PERMISSIONS },
];

const operationOf = (source: Source) => (typeof source === 'string' ? source : source[0]) as OperationId;
const declarationOf = (operationId: OperationId) => operationAccess[operationId as keyof OperationAccess];

async function lock(world: World) {
  await world.t.db.updateTable('spaces').set({ editMode: 'locked' }).where('organizationId', '=', world.organization.id).where('id', '=', world.space.id).execute();
}

const cases = KINDS.flatMap((kind) =>
  Object.entries(kind.sources).flatMap(([permission, source]) =>
    STANDINGS.map((standing, i) => [kind.name, permission, operationOf(source), standing, PATHS[i % PATHS.length]!, kind] as const),
  ),
);

describe('every permissions boolean equals the outcome of its operation', () => {
  it.each(cases)('%s.%s (%s) as %s through %s', async (_name, permission, operationId, standing, path, kind) => {
    const world = await buildWorld(server(), declarationOf(operationId), standing, path);
    if (kind.locked) await lock(world);
    const read = (await matrixCases[kind.read](world)) as { response: Response; data?: { permissions: Record<string, boolean> } };
    // An object the caller cannot read shows them no permissions.
    if (read.response.status !== 200) return;
    const { response, error } = await matrixCases[operationId](world);
    const succeeded = response.status >= 200 && response.status < 300;
    expect(succeeded ? 'succeeds' : `answers ${response.status}`, `${permission} is ${read.data!.permissions[permission]}: ${JSON.stringify(error ?? null)}`).toEqual(
      read.data!.permissions[permission] ? 'succeeds' : expect.stringMatching(/^answers 40[34]$/),
    );
  });
});
