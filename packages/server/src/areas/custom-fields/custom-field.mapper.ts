import type { OrganizationRole } from '../../access/permissions.js';
import { permissions } from '../permissions-objects.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';
import type { CustomFieldDefinitionRow, SpaceValueRow } from './custom-fields.repository.js';

/** The definition as a caller with organization role `role` sees it; unset fields are absent. */
export function toApiCustomFieldDefinition(organizationId: string, row: CustomFieldDefinitionRow, role: OrganizationRole, urls: Urls): Schemas['CustomFieldDefinition'] {
  return {
    id: row.id,
    name: row.name,
    ...(row.title !== null ? { title: row.title } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    type: row.type,
    ...(row.placeholder !== null ? { placeholder: row.placeholder } : {}),
    ...(row.options !== null ? { options: row.options } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    urls: { location: urls.api(`/v1/orgs/${organizationId}/custom-fields/${row.name}`) },
    permissions: permissions().customField(role),
  };
}

export function toApiCustomFieldValue(organizationId: string, row: SpaceValueRow, role: OrganizationRole, urls: Urls): Schemas['CustomFieldValue'] {
  return { customField: toApiCustomFieldDefinition(organizationId, row, role, urls), value: row.value };
}
