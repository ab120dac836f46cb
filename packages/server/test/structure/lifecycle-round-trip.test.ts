// One world with rows in every table an area owns (each area's fixture: lifecycle-fixtures.ts),
// duplicated and transferred through the API, then compared row by row with what each table's declared
// fate says (areas/area.ts): a duplicate's copied rows equal the original's under the new space, and no
// dropped row reappears there; after the transfer every row that moves is in the target organization
// as it was (but for the organization and the columns its declaration rewrites), nothing dropped is,
// and the source organization keeps none of them.
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import type { Area, DuplicateFate, DuplicateScope, TableFate, TableName, TransferFate, TransferScope } from '../../src/areas/area.js';
import { areas } from '../../src/areas/index.js';
import { analyseLifecycle, snakeCase, type FollowingTable } from '../../src/areas/lifecycle.js';
import { readCatalogue, type Catalogue } from '../../src/db/catalogue.js';
import { addMember, createCollection, createOrganization, createOrganizationWithAdmin, createSpace, createUser } from '../support/factories.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { fixtures, type LifecycleWorld } from './lifecycle-fixtures.js';

const server = useTestServer();

type Following = Extract<TableFate<TableName>, { transfer: unknown }>;
const fates = new Map<string, Following>();
for (const area of areas as readonly Area[]) {
  for (const [name, fate] of Object.entries(area.tables) as Array<[TableName, TableFate<TableName>]>) if ('transfer' in fate) fates.set(snakeCase(name), fate);
}

const dropped = (fate: TransferFate<TableName> | DuplicateFate<TableName>) => typeof fate === 'object' && 'dropped' in fate;

/** The columns a fate rewrites (compared no further), from its declaration. */
function rewritten(fate: TransferFate<TableName> | DuplicateFate<TableName>): string[] {
  if (typeof fate !== 'object' || 'dropped' in fate) return [];
  const options = 'moves' in fate ? fate.moves : fate.copied;
  const scope = { from: 'a', to: 'b', rootId: 'r', targetParentId: null, rootPosition: '1', collectionIds: [], spaceIds: [], organizationId: 'a', sourceSpaceId: 's', copySpaceId: 'c' };
  return Object.keys(options.set?.(scope as TransferScope & DuplicateScope) ?? {}).map(snakeCase);
}

/** Rows as JSON text with `omit` left out, sorted: comparable as multisets. */
async function rows(t: TestServer, table: string, where: ReturnType<typeof sql>, omit: string[]): Promise<string[]> {
  const { rows: found } = await sql<{ row: string }>`SELECT to_jsonb(x)::text AS row FROM ${sql.table(table)} x WHERE ${where}`.execute(t.db);
  return found
    .map(({ row }) => {
      const values = JSON.parse(row) as Record<string, unknown>;
      for (const column of omit) delete values[column];
      return JSON.stringify(Object.fromEntries(Object.entries(values).sort(([a], [b]) => a.localeCompare(b))));
    })
    .sort();
}

function spaceColumn(catalogue: Catalogue, table: string): string | undefined {
  const fk = catalogue.foreignKeys.find((key) => key.table === table && key.references === 'spaces' && key.referencedColumns.includes('id'));
  return fk?.columns[fk.referencedColumns.indexOf('id')];
}

let world: LifecycleWorld;
let catalogue: Catalogue;
let following: FollowingTable[];

beforeAll(async () => {
  const t = server();
  const { admin: owner, organization: source } = await createOrganizationWithAdmin(t);
  const target = await createOrganization(t, owner);
  const member = await createUser(t);
  await addMember(t, source, member, 'read');
  await addMember(t, target, member, 'read');
  const collection = await createCollection(t, owner, source);
  const inner = await createCollection(t, owner, source, { parent: collection });
  const space = await createSpace(t, owner, source, { parent: inner });
  world = { t, owner, member, source, target, collection, inner, space };
  for (const area of areas) await fixtures[area.name](world);
  catalogue = await readCatalogue(t.db);
  following = analyseLifecycle(catalogue, areas as readonly Area[]).following;
}, 120_000);

it('the world has rows in every table an area owns', async () => {
  const empty: string[] = [];
  for (const area of areas as readonly Area[]) {
    for (const name of Object.keys(area.tables)) {
      const { rows: counted } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(snakeCase(name))}`.execute(server().db);
      if (counted[0]!.n === 0) empty.push(`${area.name}: ${snakeCase(name)}`);
    }
  }
  expect(empty, 'tables the fixtures leave empty (lifecycle-fixtures.ts)').toEqual([]);
});

it('a duplicate copies what its tables declare copied, and nothing they declare dropped', async () => {
  const t = server();
  const { data, response } = await world.owner.client.POST('/v1/spaces/{spaceId}/duplicate', { params: { path: { spaceId: world.space.id } } });
  expect(response.status).toBe(201);
  let copiedTables = 0;
  for (const { table } of following) {
    const column = spaceColumn(catalogue, table.name);
    if (!column) continue;
    const fate = fates.get(table.name)!.duplicate;
    const omit = ['organization_id', column, ...rewritten(fate)];
    const original = await rows(t, table.name, sql`${sql.ref(`x.${column}`)} = ${world.space.id}`, omit);
    const copy = await rows(t, table.name, sql`${sql.ref(`x.${column}`)} = ${data!.id}`, omit);
    expect(original.length, `${table.name}: the world has rows of the original space`).toBeGreaterThan(0);
    if (dropped(fate)) expect(copy.filter((row) => original.includes(row)), `${table.name} is dropped by a duplicate`).toEqual([]);
    else {
      expect(copy, `${table.name} is copied by a duplicate`).toEqual(original);
      copiedTables++;
    }
  }
  expect(copiedTables).toBeGreaterThanOrEqual(6);
});

it('a transfer moves every row its tables declare moving, drops the rest, and leaves none behind', async () => {
  const t = server();
  const before = new Map<string, string[]>();
  for (const { table } of following) {
    before.set(table.name, await rows(t, table.name, sql`x.organization_id = ${world.source.id}`, ['organization_id', ...rewritten(fates.get(table.name)!.transfer)]));
    expect(before.get(table.name)!.length, `${table.name}: the world has rows`).toBeGreaterThan(0);
  }
  const { response } = await world.owner.client.POST('/v1/collections/{collectionId}/transfer', {
    params: { path: { collectionId: world.collection.id } },
    body: { organization: world.target.id },
  });
  expect(response.status).toBe(200);
  for (const { table } of following) {
    const fate = fates.get(table.name)!.transfer;
    const omit = ['organization_id', ...rewritten(fate)];
    expect(await rows(t, table.name, sql`x.organization_id = ${world.source.id}`, omit), `${table.name}: left in the source`).toEqual([]);
    const moved = await rows(t, table.name, sql`x.organization_id = ${world.target.id}`, omit);
    expect(moved, `${table.name} ${dropped(fate) ? 'is dropped' : 'moves'}`).toEqual(dropped(fate) ? [] : before.get(table.name));
  }
});
