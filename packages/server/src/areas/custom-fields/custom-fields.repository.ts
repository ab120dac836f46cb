// Custom field definitions of an organization and the values its spaces carry. A value row is keyed by
// (organization, space, field name) and goes with its space and with its definition (cascades).
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { CustomFieldDefinitionsTable, CustomFieldType, CustomFieldValueData } from '../../db/schema.js';
import { newId } from '../../ids.js';

export type CustomFieldDefinitionRow = Pick<
  Selectable<CustomFieldDefinitionsTable>,
  'id' | 'name' | 'type' | 'title' | 'description' | 'placeholder' | 'options' | 'createdAt' | 'updatedAt'
>;

const COLUMNS = ['d.id', 'd.name', 'd.type', 'd.title', 'd.description', 'd.placeholder', 'd.options', 'd.createdAt', 'd.updatedAt'] as const;
const RETURNED = ['id', 'name', 'type', 'title', 'description', 'placeholder', 'options', 'createdAt', 'updatedAt'] as const;

/** Every definition of the organization as `d`; callers add order and paging. */
export function definitionsQuery(db: Executor, organizationId: string) {
  return db.selectFrom('customFieldDefinitions as d').where('d.organizationId', '=', organizationId).select(COLUMNS);
}

export async function findDefinition(db: Executor, organizationId: string, name: string): Promise<CustomFieldDefinitionRow | undefined> {
  return definitionsQuery(db, organizationId).where('d.name', '=', name).executeTakeFirst();
}

/** The named definitions, locked against changes and deletion until the transaction ends. */
export async function lockDefinitions(trx: Executor, organizationId: string, names: string[]): Promise<CustomFieldDefinitionRow[]> {
  if (names.length === 0) return [];
  return definitionsQuery(trx, organizationId).where('d.name', 'in', names).forShare().execute();
}

export async function lockDefinitionForUpdate(trx: Executor, organizationId: string, name: string): Promise<CustomFieldDefinitionRow | undefined> {
  return definitionsQuery(trx, organizationId).where('d.name', '=', name).forUpdate().executeTakeFirst();
}

export async function countDefinitions(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('customFieldDefinitions')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('organizationId', '=', organizationId)
    .executeTakeFirstOrThrow();
  return row.count;
}

export type DefinitionValues = {
  title?: string | null;
  description?: string | null;
  placeholder?: string | null;
  options?: string[] | null;
};

/** Undefined when the name is taken. */
export async function insertDefinition(
  db: Executor,
  organizationId: string,
  values: DefinitionValues & { name: string; type: CustomFieldType },
): Promise<CustomFieldDefinitionRow | undefined> {
  return db
    .insertInto('customFieldDefinitions')
    .values({ organizationId, id: newId(), ...values })
    .onConflict((oc) => oc.columns(['organizationId', 'name']).doNothing())
    .returning(RETURNED)
    .executeTakeFirst();
}

export async function updateDefinition(db: Executor, organizationId: string, name: string, values: DefinitionValues): Promise<CustomFieldDefinitionRow> {
  return db
    .updateTable('customFieldDefinitions')
    .set({ ...values, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('name', '=', name)
    .returning(RETURNED)
    .executeTakeFirstOrThrow();
}

/** Deletes the definition and (by cascade) every space's value of it. */
export async function deleteDefinition(db: Executor, organizationId: string, name: string): Promise<boolean> {
  const result = await db.deleteFrom('customFieldDefinitions').where('organizationId', '=', organizationId).where('name', '=', name).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Serializes the creations of one organization's definitions (their number is capped). */
export async function lockOrganizationDefinitions(trx: Executor, organizationId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`custom-field-definitions:${organizationId}`}, 0))`.execute(trx);
}

/**
 * Removes the options `removed` from the field's values: a `select:single` value that was one of them
 * goes, a `select:multi` value keeps its other options.
 */
export async function dropOptionsFromValues(trx: Executor, organizationId: string, field: CustomFieldDefinitionRow, removed: string[]): Promise<void> {
  if (removed.length === 0) return;
  if (field.type === 'select:single') {
    await sql`
      DELETE FROM space_custom_field_values
      WHERE organization_id = ${organizationId} AND field = ${field.name} AND value #>> '{}' = ANY(${removed}::text[])`.execute(trx);
  } else {
    await sql`
      UPDATE space_custom_field_values
      SET value = COALESCE((SELECT jsonb_agg(item ORDER BY ordinal) FROM jsonb_array_elements_text(value) WITH ORDINALITY AS e(item, ordinal) WHERE item <> ALL(${removed}::text[])), '[]'::jsonb),
        updated_at = now()
      WHERE organization_id = ${organizationId} AND field = ${field.name} AND value ?| ${removed}::text[]`.execute(trx);
  }
}

export type SpaceValueRow = CustomFieldDefinitionRow & { value: CustomFieldValueData };

/** The space's values with their definitions, by field name: one query. */
export async function listSpaceValues(db: Executor, organizationId: string, spaceId: string): Promise<SpaceValueRow[]> {
  return db
    .selectFrom('spaceCustomFieldValues as v')
    .innerJoin('customFieldDefinitions as d', (join) => join.onRef('d.organizationId', '=', 'v.organizationId').onRef('d.name', '=', 'v.field'))
    .where('v.organizationId', '=', organizationId)
    .where('v.spaceId', '=', spaceId)
    .select([...COLUMNS, 'v.value'])
    .orderBy('d.name')
    .execute();
}

export async function upsertSpaceValues(trx: Executor, organizationId: string, spaceId: string, entries: Array<{ field: string; value: CustomFieldValueData }>): Promise<void> {
  if (entries.length === 0) return;
  await trx
    .insertInto('spaceCustomFieldValues')
    .values(entries.map((entry) => ({ organizationId, spaceId, field: entry.field, value: JSON.stringify(entry.value) })))
    .onConflict((oc) => oc.columns(['organizationId', 'spaceId', 'field']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updatedAt: sql<Date>`now()` })))
    .execute();
}

export async function deleteSpaceValues(trx: Executor, organizationId: string, spaceId: string, fields: string[]): Promise<void> {
  if (fields.length === 0) return;
  await trx.deleteFrom('spaceCustomFieldValues').where('organizationId', '=', organizationId).where('spaceId', '=', spaceId).where('field', 'in', fields).execute();
}
