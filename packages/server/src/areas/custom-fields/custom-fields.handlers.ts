import { keysetPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiCustomFieldDefinition, toApiCustomFieldValue } from './custom-field.mapper.js';
import { definitionsQuery, deleteDefinition, findDefinition, listSpaceValues } from './custom-fields.repository.js';
import { changeDefinition, createDefinition, setSpaceValues } from './custom-fields.service.js';

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

  async createOrganizationCustomField({ access, body, app }) {
    const row = await createDefinition(app.db, access.organization.id, body);
    return { status: 201, body: toApiCustomFieldDefinition(access.organization.id, row, access.role, app.urls) };
  },

  async getOrganizationCustomFieldByName({ access, params, app }) {
    const row = await findDefinition(app.db, access.organization.id, params.fieldName);
    if (!row) throw notFound('Custom field');
    return { status: 200, body: toApiCustomFieldDefinition(access.organization.id, row, access.role, app.urls) };
  },

  async updateOrganizationCustomField({ access, params, body, app }) {
    const row = await changeDefinition(app.db, access.organization.id, params.fieldName, body);
    return { status: 200, body: toApiCustomFieldDefinition(access.organization.id, row, access.role, app.urls) };
  },

  async deleteOrganizationCustomField({ access, params, app }) {
    if (!(await deleteDefinition(app.db, access.organization.id, params.fieldName))) throw notFound('Custom field');
    return { status: 204 };
  },
} satisfies AreaHandlers;
