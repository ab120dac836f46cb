// Queries compiled once per shape (src/db/query-shapes.ts): built and compiled on their shape's first
// run only, then run with each call's values; checked against their ordinary compilation in tests.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, createPool, type Database } from '../../src/db/database.js';
import { executeShaped, type Bind } from '../../src/db/query-shapes.js';
import { createLogger } from '../../src/logger.js';
import { useTestServer } from '../support/harness.js';
import { createOrganizationWithAdmin, createSpace } from '../support/factories.js';

const server = useTestServer();
let plain: Database;
let spaces: Array<{ id: string; title: string }>;
let organizationId: string;

beforeAll(async () => {
  const t = server();
  // A database without the check, as production runs (the test server's checks every shaped query).
  plain = createDatabase(createPool(t.databaseUrl, 2, createLogger({ logLevel: 'silent' })));
  const { admin, organization } = await createOrganizationWithAdmin(t);
  organizationId = organization.id;
  spaces = [await createSpace(t, admin, organization, { title: 'First' }), await createSpace(t, admin, organization, { title: 'Second' })];
});

afterAll(async () => {
  await plain?.destroy();
});

const titleOf = (db: Database, bind: Bind) =>
  db.selectFrom('spaces').select(['id', 'title']).where('organizationId', '=', bind<string>('organizationId')).where('id', '=', bind<string>('spaceId'));

describe('executeShaped', () => {
  it('builds and compiles a shape once, and runs it with each call’s values', async () => {
    let builds = 0;
    const build = (bind: Bind) => {
      builds++;
      return titleOf(plain, bind);
    };
    for (const space of [...spaces, ...spaces]) {
      expect(await executeShaped(plain, 'test:title-of', build, { organizationId, spaceId: space.id })).toEqual([{ id: space.id, title: space.title }]);
    }
    expect(builds).toBe(1);
  });

  it('runs raw SQL the same way, values in their placeholders', async () => {
    const build = (bind: Bind) => sql<{ title: string }>`SELECT title FROM spaces WHERE organization_id = ${bind('organizationId')} AND id = ${bind('spaceId')}`;
    for (const space of spaces) expect(await executeShaped(plain, 'test:raw-title-of', build, { organizationId, spaceId: space.id })).toEqual([{ title: space.title }]);
  });

  it('refuses a shape whose values do not name every placeholder', async () => {
    await expect(executeShaped(plain, 'test:missing-value', (bind) => titleOf(plain, bind), { organizationId })).rejects.toThrow(/no value for spaceId/);
  });

  it('with the check on (tests), fails a shape that names two different queries', async () => {
    const { db } = server();
    const build = (onlyFirst: boolean) => (bind: Bind) => titleOf(db, bind).$if(onlyFirst, (query) => query.where('title', '=', 'First'));
    expect(await executeShaped(db, 'test:one-name-two-queries', build(false), { organizationId, spaceId: spaces[1]!.id })).toHaveLength(1);
    await expect(executeShaped(db, 'test:one-name-two-queries', build(true), { organizationId, spaceId: spaces[0]!.id })).rejects.toThrow(
      /does not compile to what its values make/,
    );
  });
});
