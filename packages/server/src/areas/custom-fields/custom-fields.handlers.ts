import { organizationObjectsPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiCustomFieldDefinition, toApiCustomFieldValue } from './custom-field.mapper.js';
import { changeDefinition, createDefinition, setSpaceValues } from './custom-fields.service.js';
import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { actorOf, recordEvent } from '../events/index.js';
import { definitionsQuery, deleteDefinition, findDefinition, listSpaceValues, lockDefinitionForUpdate, type CustomFieldDefinitionRow, type SpaceValueRow } from './custom-fields.repository.js';

/** Records `type` for the definition in `trx` (the change's transaction), as an organization admin sees it. */
async function recordFieldEvent(trx: Executor, app: AppContext, caller: Caller, type: 'custom-field.created' | 'custom-field.updated' | 'custom-field.deleted', organizationId: string, row: CustomFieldDefinitionRow) {
  await recordEvent(trx, { type, organizationId, actor: actorOf(caller, app.urls), data: { object: toApiCustomFieldDefinition(organizationId, row, 'admin', app.urls) } });
}

/** Names of the fields whose value differs between two readings of a space's values (set, changed or removed). */
function changedFields(before: SpaceValueRow[], after: SpaceValueRow[]): string[] {
  const previous = new Map(before.map((row) => [row.name, JSON.stringify(row.value)]));
  const current = new Map(after.map((row) => [row.name, JSON.stringify(row.value)]));
  const names = new Set([...previous.keys(), ...current.keys()]);
  return [...names].filter((name) => previous.get(name) !== current.get(name)).sort();
}

export const customFieldHandlers = {
  async getSpaceCustomFields({ access, app }) {
    const { space, organizationRole } = access;
    const rows = await listSpaceValues(app.db, space.organizationId, space.id);
    return { status: 200, body: rows.map((row) => toApiCustomFieldValue(space.organizationId, row, organizationRole, app.urls)) };
  },

  async updateSpaceCustomFields({ caller, access, body, app }) {
    const { space } = access;
    await inTransaction(app.db, async (trx) => {
      const before = await listSpaceValues(trx, space.organizationId, space.id);
      await setSpaceValues(trx, space.organizationId, space.id, body);
      const after = await listSpaceValues(trx, space.organizationId, space.id);
      const changed = changedFields(before, after);
      if (changed.length === 0) return;
      await recordEvent(trx, {
        type: 'space.custom-fields-updated',
        organizationId: space.organizationId,
        spaceId: space.id,
        actor: actorOf(caller, app.urls),
        data: { values: after.map((row) => toApiCustomFieldValue(space.organizationId, row, 'admin', app.urls)), changed },
      });
    });
    return { status: 204 };
  },

  async listOrganizationCustomFields({ access, query, app }) {
    const organizationId = access.organization.id;
    const page = await organizationObjectsPage(app.db, app.cursors, definitionsQuery(app.db, organizationId), { alias: 'd', operation: 'listOrganizationCustomFields', organizationId, request: query });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiCustomFieldDefinition(organizationId, row, access.role, app.urls)) } };
  },

  async createOrganizationCustomField({ caller, access, body, app }) {
    const row = await inTransaction(app.db, async (trx) => {
      const created = await createDefinition(trx, access.organization.id, body);
      await recordFieldEvent(trx, app, caller, 'custom-field.created', access.organization.id, created);
      return created;
    });
    return { status: 201, body: toApiCustomFieldDefinition(access.organization.id, row, access.role, app.urls) };
  },

  async getOrganizationCustomFieldByName({ access, params, app }) {
    const row = await findDefinition(app.db, access.organization.id, params.fieldName);
    if (!row) throw notFound('Custom field');
    return { status: 200, body: toApiCustomFieldDefinition(access.organization.id, row, access.role, app.urls) };
  },

  async updateOrganizationCustomField({ caller, access, params, body, app }) {
    const row = await inTransaction(app.db, async (trx) => {
      const changed = await changeDefinition(trx, access.organization.id, params.fieldName, body);
      await recordFieldEvent(trx, app, caller, 'custom-field.updated', access.organization.id, changed);
      return changed;
    });
    return { status: 200, body: toApiCustomFieldDefinition(access.organization.id, row, access.role, app.urls) };
  },

  async deleteOrganizationCustomField({ caller, access, params, app }) {
    await inTransaction(app.db, async (trx) => {
      const row = await lockDefinitionForUpdate(trx, access.organization.id, params.fieldName);
      if (!row || !(await deleteDefinition(trx, access.organization.id, params.fieldName))) throw notFound('Custom field');
      await recordFieldEvent(trx, app, caller, 'custom-field.deleted', access.organization.id, row);
    });
    return { status: 204 };
  },
} satisfies AreaHandlers;
