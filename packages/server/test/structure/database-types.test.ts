// The committed table types (src/db/types.generated.ts) are what kysely-codegen makes of the database
// the migrations build: a migration without `pnpm db:types` fails here.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { expect, it } from 'vitest';
import { DATABASE_TYPES_FILE, generateDatabaseTypes } from '../../tools/database-types.js';
import { cloneDatabase } from '../support/harness.js';

it('the committed database types match the migrations', async () => {
  const database = await cloneDatabase();
  try {
    const generated = await generateDatabaseTypes(database.url);
    const committed = readFileSync(DATABASE_TYPES_FILE, 'utf8');
    expect(committed, `${relative(process.cwd(), DATABASE_TYPES_FILE)} is stale: run \`pnpm db:types\` and commit it`).toBe(generated);
  } finally {
    await database.drop();
  }
});
