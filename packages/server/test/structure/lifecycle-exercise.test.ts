// The exercise of docs/contributing.md, kept as a test: an area brings a table that cascades from
// `spaces` (with an identity and a generated column) and forgets its lifecycle declaration — the check
// names the table and the line to add, and a transfer refuses to run rather than delete its rows by
// cascade; with the one-line declaration, a transfer and a duplicate (real HTTP, the server's own
// services) carry its rows with no code of the area's own.
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { defineArea, type Area } from '../../src/areas/area.js';
import { areas } from '../../src/areas/index.js';
import { analyseLifecycle, collectLifecycle } from '../../src/areas/lifecycle.js';
import { readCatalogue } from '../../src/db/catalogue.js';
import { createOrganizationWithAdmin, createSpace, addMember } from '../support/factories.js';
import { useTestServer, type TestServer } from '../support/harness.js';

const server = useTestServer();

type NoteRow = { organizationId: string; spaceId: string; id: string; body: string; number: number; bodyLength: number };

/** The new area: one table, and — the point of the exercise — its declaration or none. */
const notesArea = (tables: Record<string, unknown>) => defineArea({ name: 'space-notes', handlers: {}, tables: tables as never });
const DECLARED = { spaceNotes: { transfer: 'moves', duplicate: 'copied' } };

beforeAll(async () => {
  await sql`
    CREATE TABLE space_notes (
      organization_id text NOT NULL,
      space_id text NOT NULL,
      id text NOT NULL,
      body text NOT NULL,
      number int GENERATED ALWAYS AS IDENTITY,
      body_length int GENERATED ALWAYS AS (length(body)) STORED,
      PRIMARY KEY (organization_id, space_id, id),
      FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE
    )`.execute(server().db);
});

/** The server runs with the new area registered after the others (as its one line in areas/index.ts would). */
function register(area: Area) {
  server().context.lifecycle = collectLifecycle([...(areas as readonly Area[]), area]);
}

async function world(t: TestServer) {
  const source = await createOrganizationWithAdmin(t);
  const target = await createOrganizationWithAdmin(t);
  await addMember(t, target.organization, source.admin, 'admin');
  const space = await createSpace(t, source.admin, source.organization);
  await sql`INSERT INTO space_notes (organization_id, space_id, id, body) VALUES
    (${source.organization.id}, ${space.id}, 'n1', 'first'), (${source.organization.id}, ${space.id}, 'n2', 'second note')`.execute(t.db);
  return { source, target, space };
}

const notesOf = async (t: TestServer, spaceId: string) =>
  (await sql<NoteRow>`SELECT * FROM space_notes WHERE space_id = ${spaceId} ORDER BY id`.execute(t.db)).rows;

it('forgotten: the check names the table and the declaration to add', async () => {
  const { problems } = analyseLifecycle(await readCatalogue(server().db), [...(areas as readonly Area[]), notesArea({})]);
  expect(problems).toEqual([
    [
      'space_notes is linked to spaces (space_notes.(organization_id, space_id) → spaces), so a transfer deletes its rows by cascade, and no area declares what becomes of them.',
      'Add it to the `tables` of the area that owns it (packages/server/src/areas/<area>/index.ts):',
      "  spaceNotes: { transfer: 'moves', duplicate: 'copied' },",
      "(or { dropped: '…why…' } for rows that must not follow; see TableFate in areas/area.ts)",
    ].join('\n'),
  ]);
});

it('forgotten: a transfer refuses (500) and loses nothing', async () => {
  const t = server();
  register(notesArea({}));
  const { source, target, space } = await world(t);
  const { response } = await source.admin.client.POST('/v1/spaces/{spaceId}/transfer', { params: { path: { spaceId: space.id } }, body: { organization: target.organization.id } });
  expect(response.status).toBe(500);
  expect((await notesOf(t, space.id)).map((note) => note.organizationId)).toEqual([source.organization.id, source.organization.id]);
  t.responseErrors.length = 0;
});

it('declared: a transfer moves the rows, a duplicate copies them (identity kept, generated column recomputed)', async () => {
  const t = server();
  register(notesArea(DECLARED));
  const { source, target, space } = await world(t);
  const before = await notesOf(t, space.id);
  const transferred = await source.admin.client.POST('/v1/spaces/{spaceId}/transfer', { params: { path: { spaceId: space.id } }, body: { organization: target.organization.id } });
  expect(transferred.response.status).toBe(200);
  const moved = await notesOf(t, space.id);
  expect(moved).toEqual(before.map((note) => ({ ...note, organizationId: target.organization.id })));

  const duplicated = await source.admin.client.POST('/v1/spaces/{spaceId}/duplicate', { params: { path: { spaceId: space.id } } });
  expect(duplicated.response.status).toBe(201);
  const copies = await notesOf(t, duplicated.data!.id);
  expect(copies).toEqual(moved.map((note) => ({ ...note, spaceId: duplicated.data!.id })));
  expect(copies.map((note) => note.bodyLength)).toEqual([5, 11]);
});
