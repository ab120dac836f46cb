// Every table's rows have a declared fate, checked against the database catalogue: a table linked to
// spaces or collections by foreign keys — directly or through other tables, as the cascade that deletes
// a transfer's originals follows them — must say what a transfer and a duplicate do with its rows, and
// any other table why it belongs to no space (areas/area.ts TableFate, areas/lifecycle.ts). The
// planted tables below (in this file's own database) show the check naming what to add.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { defineArea, type Area } from '../../src/areas/area.js';
import { areas, SERVER_TABLES } from '../../src/areas/index.js';
import { analyseLifecycle, snakeCase } from '../../src/areas/lifecycle.js';
import { readCatalogue } from '../../src/db/catalogue.js';
import { useTestServer } from '../support/harness.js';

const server = useTestServer();

const analyse = async (extra: Area[] = []) => analyseLifecycle(await readCatalogue(server().db), [...(areas as readonly Area[]), ...extra]);

/** An area owning tables the generated types do not know (planted in this file's database). */
const plantedArea = (tables: Record<string, unknown>) => defineArea({ name: 'planted', handlers: {}, tables: tables as never });

it('every table of the database has one declared fate, and each declaration matches the foreign keys', async () => {
  const { problems } = await analyse();
  expect(problems.join('\n\n')).toBe('');
});

it('follows foreign keys through other tables: every table reachable from spaces or collections is a following one', async () => {
  const names = (await analyse()).following.map((entry) => entry.table.name);
  // Two and three links away from spaces: a reply's reaction, a request's contributor, a conflict of a revision.
  expect(names).toEqual(expect.arrayContaining(['comment_reply_reactions', 'change_request_contributors', 'revision_conflicts', 'collection_grants']));
  // Referenced tables come first: rows are copied in this order.
  const pairs: Array<[string, string]> = [
    ['comment_reply_reactions', 'comment_replies'],
    ['comments', 'change_requests'],
    ['change_requests', 'revisions'],
    ['spaces', 'collections'],
  ];
  for (const [later, earlier] of pairs) {
    expect(names.indexOf(later), `${later} after ${earlier}`).toBeGreaterThan(names.indexOf(earlier));
  }
});

it('the server’s own tables exist and hold nothing of a space or a collection', async () => {
  const catalogue = await readCatalogue(server().db);
  const following = new Set(analyseLifecycle(catalogue, areas as readonly Area[]).following.map((entry) => entry.table.name));
  for (const name of Object.keys(SERVER_TABLES).map(snakeCase)) {
    expect(catalogue.tables.has(name), name).toBe(true);
    expect(following.has(name), name).toBe(false);
  }
});

it('each event type of the contract is declared by exactly one area, and every type an area declares is in the contract', () => {
  const catalogue: string[] = JSON.parse(readFileSync(new URL('../../../contract/openapi.json', import.meta.url), 'utf8')).components.schemas.EventType.enum;
  const declared = areas.flatMap((area) => (area.events ?? []).map((type) => ({ type, area: area.name })));
  const owners = new Map<string, string[]>();
  for (const { type, area } of declared) owners.set(type, [...(owners.get(type) ?? []), area]);
  expect([...owners.keys()].sort(), 'declared event types').toEqual([...catalogue].sort());
  expect([...owners].filter(([, names]) => names.length > 1), 'types declared by more than one area').toEqual([]);
});

describe('a planted table', () => {
  afterEach(async () => {
    await sql`DROP TABLE IF EXISTS planted_notes`.execute(server().db);
  });

  const plantNotes = async (primaryKey: string) =>
    sql`CREATE TABLE planted_notes (
      organization_id text NOT NULL, space_id text NOT NULL, comment_id text NOT NULL, note text NOT NULL,
      PRIMARY KEY (${sql.raw(primaryKey)}),
      FOREIGN KEY (organization_id, comment_id) REFERENCES comments (organization_id, id) ON DELETE CASCADE
    )`.execute(server().db);

  it('linked to spaces through comments, declared by no area: named with the declaration to add', async () => {
    await plantNotes('organization_id, comment_id');
    const { problems } = await analyse();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('planted_notes is linked to spaces (planted_notes.(organization_id, comment_id) → comments, comments.(organization_id, space_id) → spaces)');
    expect(problems[0]).toContain("plantedNotes: { transfer: 'moves', duplicate: { dropped: '…why a duplicate starts without them…' } },");
  });

  it('declared { stays } although a transfer would delete its rows', async () => {
    await plantNotes('organization_id, comment_id');
    const { problems } = await analyse([plantedArea({ plantedNotes: { stays: 'notes of the organization' } })]);
    expect(problems).toEqual([expect.stringContaining('planted_notes (planted) is declared { stays } but follows spaces')]);
  });

  it("declared duplicate: 'copied' without the space in its primary key (the copies would collide)", async () => {
    await plantNotes('organization_id, comment_id');
    await sql`ALTER TABLE planted_notes ADD FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE`.execute(server().db);
    const { problems } = await analyse([plantedArea({ plantedNotes: { transfer: 'moves', duplicate: 'copied' } })]);
    expect(problems).toEqual([expect.stringContaining("planted_notes (planted) is declared duplicate: 'copied', but its primary key (organization_id, comment_id) does not hold space_id")]);
  });

  it('declared by two areas, or declared without existing, or dropped without a reason', async () => {
    const { problems } = await analyse([
      plantedArea({ spaces: { stays: 'a second owner' }, missingTable: { stays: 'declared but never created' } }),
      plantedArea({ comments: { transfer: { dropped: '' }, duplicate: 'copied' } }),
    ]);
    expect(problems).toEqual(
      expect.arrayContaining([
        'spaces is declared by the areas spaces and planted: one area owns a table',
        'missing_table (planted) is declared but the database has no such table',
        expect.stringContaining('comments (planted): say why its rows are dropped on transfer'),
      ]),
    );
  });
});
