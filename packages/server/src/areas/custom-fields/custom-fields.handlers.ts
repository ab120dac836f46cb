import { keysetPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiCustomFieldDefinition, toApiCustomFieldValue } from './custom-field.mapper.js';
import { changeDefinition, createDefinition, setSpaceValues } from './custom-fields.service.js';
import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { actorOf, recordEvent } from '../events/index.js';
import { definitionsQuery, deleteDefinition, findDefinition, listSpaceValues, lockDefinitionForUpdate, type CustomFieldDefinitionRow } from './custom-fields.repository.js';

/** Records `type` for the definition in `trx` (the change's transaction), as an organization admin sees it. */
async function recordFieldEvent(trx: Executor, app: AppContext, caller: Caller, type: 'custom-field.created' | 'custom-field.updated' | 'custom-field.deleted', organizationId: string, row: CustomFieldDefinitionRow) {
  await recordEvent(trx, { type, organizationId, actor: actorOf(caller, app.urls), data: { object: toApiCustomFieldDefinition(organizationId, row, 'admin', app.urls) } });
}

export const customFieldHandlers = {
  async getSpaceCustomFields({ access, app }) {
    const { space, organizationRole } = access;
    const rows = await listSpaceValues(app.db, space.organizationId, space.id);
    return { status: 200, body: rows.map((row) => toApiCustomFieldValue(space.organizationId, row, organizationRole, app.urls)) };
  },

  async updateSpaceCustomFields({ access, body, app }) {
    await setSpaceValues(app.db, access.space.organizationId, access.space.id, body);
    return { status: 204 };
  },

  async listOrganizationCustomFields({ access, query, app }) {
    const organizationId = access.organization.id;
    const page = await keysetPage(app.db, definitionsQuery(app.db, organizationId), {
      keys: [
        { column: 'd.createdAt', direction: 'desc', value: (row) => row.createdAt },
        { column: 'd.id', direction: 'desc', value: (row) => row.id },
      ],
      request: query,
      list: { operation: 'listOrganizationCustomFields', within: organizationId },
      cursors: app.cursors,
    });
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
