// Every table that holds an organization's or a space's data belongs to exactly one area, read from
// the database catalogue: a new table with a foreign key to organizations, collections, spaces,
// revisions or change requests that no area descriptor lists fails here, so it can never be
// silently left behind by a transfer (which deletes the originals by cascade) or a purge.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { areas } from '../../src/areas/index.js';
import { useTestServer } from '../support/harness.js';

const server = useTestServer();

/** Tables whose rows belong to an organization's structure or content. */
const OWNERS = ['organizations', 'collections', 'spaces', 'revisions', 'change_requests'];

async function tablesReferencing(owners: string[]): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`
    SELECT DISTINCT c.conrelid::regclass::text AS table
    FROM pg_constraint c
    WHERE c.contype = 'f' AND c.confrelid::regclass::text = ANY(${owners}::text[])
      AND c.connamespace = 'public'::regnamespace`.execute(server().db);
  return rows.map((row) => row.table).sort();
}

async function publicTables(): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`
    SELECT tablename AS table FROM pg_tables WHERE schemaname = 'public'`.execute(server().db);
  return rows.map((row) => row.table);
}

it('every table referencing an organization, collection, space, revision or change request belongs to an area', async () => {
  const owned = new Set(areas.flatMap((area) => area.tables));
  const orphans = (await tablesReferencing(OWNERS)).filter((table) => !owned.has(table));
  expect(orphans, 'tables no area lists (add them to the area descriptor that owns them, with its transfer/purge/duplicate steps)').toEqual([]);
});

it('each area table exists and belongs to one area only', async () => {
  const existing = new Set(await publicTables());
  const seen = new Map<string, string>();
  for (const area of areas) {
    for (const table of area.tables) {
      expect(existing.has(table), `${area.name} lists ${table}, which does not exist`).toBe(true);
      expect(seen.get(table), `${table} is listed by ${seen.get(table)} and ${area.name}`).toBeUndefined();
      seen.set(table, area.name);
    }
  }
});

it('every area says what a transfer, a purge and a duplicate do with its rows', () => {
  for (const area of areas) {
    for (const step of ['transfer', 'purge', 'duplicate'] as const) {
      expect(area[step] === 'none' || Array.isArray(area[step]), `${area.name}.${step}`).toBe(true);
    }
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
