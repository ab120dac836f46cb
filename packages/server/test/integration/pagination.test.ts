// The keyset helper on a real table: every row exactly once across pages, in order, whatever the
// sort directions, with ties on the leading key.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { keysetPage, type SortKey } from '../../src/db/pagination.js';
import { useTestServer } from '../support/harness.js';
import { createCollection, createMember, createOrganizationWithAdmin, createSpace } from '../support/factories.js';

const server = useTestServer();

type Row = { id: string; displayName: string; createdAt: Date };

async function seed() {
  const t = server();
  await sql`DELETE FROM users WHERE email LIKE 'page-%'`.execute(t.db);
  const base = Date.parse('2026-03-01T00:00:00.000Z');
  const rows = Array.from({ length: 23 }, (_, i) => ({
    id: `page${String(i).padStart(16, '0')}`,
    email: `page-${i}@example.com`,
    displayName: `group-${i % 4}`,
    createdAt: new Date(base + Math.floor(i / 3) * 1000), // three rows share each timestamp
  }));
  await t.db.insertInto('users').values(rows).execute();
  return rows;
}

async function collect(keys: SortKey<Row>[], limit: number): Promise<{ ids: string[]; pages: number; counts: number[] }> {
  const t = server();
  const query = t.db.selectFrom('users').select(['id', 'displayName', 'createdAt']).where('email', 'like', 'page-%');
  const ids: string[] = [];
  const counts: number[] = [];
  let page: string | undefined;
  let pages = 0;
  do {
    const result = await keysetPage(t.db, query, { keys, request: { limit, page }, list: { operation: 'test' }, cursors: t.context.cursors });
    ids.push(...result.items.map((row) => row.id));
    counts.push(result.count);
    page = result.next?.page;
    pages++;
  } while (page && pages < 100);
  return { ids, pages, counts };
}

describe('keysetPage', () => {
  it('pages through ties and mixed directions without gaps or repeats', async () => {
    const rows = await seed();
    const byCreatedDescIdDesc = [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    const desc = await collect(
      [
        { column: 'createdAt', direction: 'desc', value: (row) => row.createdAt },
        { column: 'id', direction: 'desc', value: (row) => row.id },
      ],
      5,
    );
    expect(desc.ids).toEqual(byCreatedDescIdDesc.map((row) => row.id));
    expect(desc.pages).toBe(5);
    expect(new Set(desc.counts)).toEqual(new Set([23]));

    const byNameAscIdDesc = [...rows].sort((a, b) => a.displayName.localeCompare(b.displayName) || (a.id < b.id ? 1 : -1));
    const mixed = await collect(
      [
        { column: 'displayName', direction: 'asc', value: (row) => row.displayName },
        { column: 'id', direction: 'desc', value: (row) => row.id },
      ],
      4,
    );
    expect(mixed.ids).toEqual(byNameAscIdDesc.map((row) => row.id));
  });

  it('the last page has no next cursor, an exact fit included', async () => {
    const t = server();
    await seed();
    const query = t.db.selectFrom('users').select(['id', 'displayName', 'createdAt']).where('email', 'like', 'page-%');
    const keys: SortKey<Row>[] = [{ column: 'id', direction: 'asc', value: (row) => row.id }];
    const all = await keysetPage(t.db, query, { keys, request: { limit: 23 }, list: { operation: 'test' }, cursors: t.context.cursors });
    expect(all.items).toHaveLength(23);
    expect(all.next).toBeUndefined();
  });
});

describe('a cursor is bound to its list and filters, not to what the caller may see', () => {
  it('a collection created between two pages leaves the next cursor valid', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const reader = await createMember(t, organization, 'read');
    for (let i = 0; i < 5; i++) await createSpace(t, admin, organization, { title: `Listed ${i}`, defaultLevel: 'inherit' });
    const path = { params: { path: { organizationId: organization.id }, query: { limit: 2 } } };
    const first = await reader.client.GET('/v1/orgs/{organizationId}/spaces', path);
    expect(first.data?.next?.page).toEqual(expect.any(String));
    // A new collection changes what decides the reader's visibility (their collection ranks).
    await createCollection(t, admin, organization, { title: 'Meanwhile' });
    const second = await reader.client.GET('/v1/orgs/{organizationId}/spaces', {
      params: { path: path.params.path, query: { limit: 2, page: first.data!.next!.page } },
    });
    expect(second.response.status).toBe(200);
    expect(second.data!.items.map((space) => space.title)).toEqual(['Listed 2', 'Listed 3']);
  });
});
