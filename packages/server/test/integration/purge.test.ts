// Spaces deleted over 7 days ago are purged with everything they own, by a pg-boss job; another job
// then collects the content objects nothing reaches any more (garbage-collection.test.ts checks what).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { purgeExpiredSpaces } from '../../src/areas/spaces/purge-spaces.job.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace, grant } from '../support/factories.js';
import { edit } from '../support/content.js';

// Jobs on: this server runs the pg-boss workers like production.
const server = useTestServer({ env: { JOBS_ENABLED: 'true' } });

async function rowsOf(t: TestServer, spaceId: string) {
  const count = async (table: string, column: string) =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${spaceId}`.execute(t.db)).rows[0]!.n;
  return {
    spaces: await count('spaces', 'id'),
    locators: await count('space_locators', 'space_id'),
    revisions: await count('revisions', 'space_id'),
    grants: await count('space_grants', 'space_id'),
  };
}

describe('purging deleted spaces', () => {
  it('removes spaces deleted over 7 days ago with their rows, and keeps the others', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const [expired, recent, live] = [await createSpace(t, admin, organization), await createSpace(t, admin, organization), await createSpace(t, admin, organization)];
    await grant(t, { kind: 'space', item: expired }, { user: await createMember(t, organization, 'read') }, 'edit');
    await sql`UPDATE spaces SET deleted_at = now() - interval '8 days' WHERE id = ${expired.id}`.execute(t.db);
    await sql`UPDATE spaces SET deleted_at = now() - interval '6 days' WHERE id = ${recent.id}`.execute(t.db);

    expect(await rowsOf(t, expired.id)).toEqual({ spaces: 1, locators: 1, revisions: 1, grants: 2 });
    expect(await purgeExpiredSpaces(t.db, t.context.lifecycle)).toBe(1);
    expect(await rowsOf(t, expired.id)).toEqual({ spaces: 0, locators: 0, revisions: 0, grants: 0 });
    expect(await rowsOf(t, recent.id)).toEqual({ spaces: 1, locators: 1, revisions: 1, grants: 1 });
    expect((await rowsOf(t, live.id)).spaces).toBe(1);
  });

  it('runs as a job on the queue', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const expired = await createSpace(t, admin, organization);
    await sql`UPDATE spaces SET deleted_at = now() - interval '30 days' WHERE id = ${expired.id}`.execute(t.db);
    expect(await t.context.jobs.send('purge-deleted-spaces')).toEqual(expect.any(String));
    for (let i = 0; i < 100 && (await rowsOf(t, expired.id)).spaces > 0; i++) await new Promise((r) => setTimeout(r, 200));
    expect((await rowsOf(t, expired.id)).spaces).toBe(0);
  });

  it('collects the purged content as a job on the queue', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const expired = await createSpace(t, admin, organization);
    await edit(admin, expired.id, [{ type: 'insert_page', title: 'Gone', markdown: 'Purged with its space' }]);
    await sql`UPDATE spaces SET deleted_at = now() - interval '30 days' WHERE id = ${expired.id}`.execute(t.db);
    expect(await purgeExpiredSpaces(t.db, t.context.lifecycle)).toBe(1);
    const documents = () => t.db.selectFrom('documents').select('hash').where('organizationId', '=', organization.id).execute();
    expect(await documents()).toHaveLength(1);
    expect(await t.context.jobs.send('collect-content-garbage')).toEqual(expect.any(String));
    const marks = () => t.db.selectFrom('contentGarbageMarks').selectAll().where('organizationId', '=', organization.id).execute();
    for (let i = 0; i < 100 && ((await documents()).length > 0 || (await marks()).length > 0); i++) await new Promise((r) => setTimeout(r, 200));
    expect(await documents()).toEqual([]);
    expect(await marks()).toEqual([]);
  });
});
