// Writes of custom fields, each in one transaction: definitions (their number capped per organization,
// options kept consistent with the values that use them) and a space's values (all or nothing).
import type { components } from '@content-workspace/contract';
import { inTransaction, type Executor } from '../../db/database.js';
import type { CustomFieldValueData } from '../../db/schema.js';
import { badRequest, conflict, notFound, type ErrorIssue } from '../../errors.js';
import { checkOptionsForType, SELECT_TYPES, valueProblem } from './custom-field-values.js';
import {
  countDefinitions,
  deleteSpaceValues,
  dropOptionsFromValues,
  insertDefinition,
  lockDefinitionForUpdate,
  lockDefinitions,
  lockOrganizationDefinitions,
  updateDefinition,
  upsertSpaceValues,
  type CustomFieldDefinitionRow,
  type DefinitionValues,
} from './custom-fields.repository.js';

type CreateBody = components['schemas']['CreateCustomFieldDefinitionRequest'];
type UpdateBody = components['schemas']['UpdateCustomFieldDefinitionRequest'];
type ValuesBody = components['schemas']['UpdateSpaceCustomFieldsRequest'];

/** An organization's definitions are few: a space's values are read and written whole. */
export const MAX_DEFINITIONS = 100;

export async function createDefinition(db: Executor, organizationId: string, body: CreateBody): Promise<CustomFieldDefinitionRow> {
  checkOptionsForType(body.type, body.options, '/body/options');
  return inTransaction(db, async (trx) => {
    await lockOrganizationDefinitions(trx, organizationId);
    if ((await countDefinitions(trx, organizationId)) >= MAX_DEFINITIONS) {
      throw conflict(`The organization already has ${MAX_DEFINITIONS} custom fields, the most it may have`);
    }
    const row = await insertDefinition(trx, organizationId, {
      name: body.name,
      type: body.type,
      title: body.title ?? null,
      description: body.description ?? null,
      placeholder: body.placeholder ?? null,
      options: body.options ?? null,
    });
    if (!row) throw conflict(`A custom field named "${body.name}" already exists`);
    return row;
  });
}

/** Sets the fields given; removed options leave the values that used them, in the same transaction. */
export async function changeDefinition(db: Executor, organizationId: string, name: string, body: UpdateBody): Promise<CustomFieldDefinitionRow> {
  return inTransaction(db, async (trx) => {
    const current = await lockDefinitionForUpdate(trx, organizationId, name);
    if (!current) throw notFound('Custom field');
    if (body.options !== undefined) checkOptionsForType(current.type, body.options, '/body/options');
    const values: DefinitionValues = {};
    if (body.title !== undefined) values.title = body.title;
    if (body.description !== undefined) values.description = body.description;
    if (body.placeholder !== undefined) values.placeholder = body.placeholder;
    if (body.options !== undefined) values.options = body.options;
    const updated = await updateDefinition(trx, organizationId, name, values);
    if (body.options !== undefined && SELECT_TYPES.has(current.type)) {
      const kept = new Set(body.options);
      await dropOptionsFromValues(trx, organizationId, current, (current.options ?? []).filter((option) => !kept.has(option)));
    }
    return updated;
  });
}

/**
 * Sets and removes (`null`) a space's values, all or none: every unknown name and every value its field
 * refuses is listed in one 400 (`/body/values/{name}/value`), and nothing is written.
 */
export async function setSpaceValues(db: Executor, organizationId: string, spaceId: string, body: ValuesBody): Promise<void> {
  const entries = Object.entries(body.values);
  await inTransaction(db, async (trx) => {
    // Locked, so that no option removal or deletion slips between the check and the write.
    const fields = new Map((await lockDefinitions(trx, organizationId, entries.map(([name]) => name))).map((row) => [row.name, row]));
    const issues: ErrorIssue[] = [];
    const set: Array<{ field: string; value: CustomFieldValueData }> = [];
    const removed: string[] = [];
    for (const [name, { value }] of entries) {
      const path = `/body/values/${name}`;
      const field = fields.get(name);
      if (!field) {
        issues.push({ path, message: `"${name}" is not a custom field of the organization` });
      } else if (value === null) {
        removed.push(name);
      } else {
        const problem = valueProblem(field, value);
        if (problem) issues.push({ path: `${path}/value`, message: problem });
        else set.push({ field: name, value });
      }
    }
    if (issues.length) throw badRequest(issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '), issues);
    await upsertSpaceValues(trx, organizationId, spaceId, set);
    await deleteSpaceValues(trx, organizationId, spaceId, removed);
  });
}
