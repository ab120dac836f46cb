import { customFieldHandlers } from './custom-fields.handlers.js';
import { copySpaceValues, copyValuesToOrganization } from './custom-fields.repository.js';
import { defineArea } from '../area.js';

/**
 * Custom fields: the organization's definitions (its own rows, which stay behind in a transfer) and
 * the spaces' values. A transferred space keeps the values whose field the target organization defines
 * by the same name, with a type and options the value fits; a duplicate keeps them all; a purge removes
 * them with the space (cascade).
 */
export const customFieldsArea = defineArea({
  name: 'custom-fields',
  handlers: customFieldHandlers,
  tables: ['custom_field_definitions', 'space_custom_field_values'],
  transfer: [async (trx, scope) => copyValuesToOrganization(trx, scope.from, scope.to, scope.spaceIds)],
  purge: 'none',
  duplicate: [async (trx, scope) => copySpaceValues(trx, scope.organizationId, scope.sourceSpaceId, scope.copySpaceId)],
  conflicts: {
    space_custom_field_values_organization_id_space_id_fkey: 'The space was moved or removed meanwhile',
    space_custom_field_values_organization_id_field_fkey: 'A custom field was deleted meanwhile',
  },
});
