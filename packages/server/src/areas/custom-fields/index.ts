import { sql } from 'kysely';
import { customFieldHandlers } from './custom-fields.handlers.js';
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
  events: ['custom-field.created', 'custom-field.updated', 'custom-field.deleted', 'space.custom-fields-updated'],
  tables: {
    customFieldDefinitions: { stays: 'An organization’s own definitions: a transferred space’s values meet the target’s' },
    spaceCustomFieldValues: {
      transfer: {
        moves: {
          why: 'Only the values whose field the target organization defines by the same name, with a type and options the value fits',
          only: (s) => sql<boolean>`EXISTS (
            SELECT 1 FROM custom_field_definitions d WHERE d.organization_id = ${s.to} AND d.name = src.field
              AND CASE d.type
                WHEN 'text' THEN jsonb_typeof(src.value) = 'string'
                WHEN 'number' THEN jsonb_typeof(src.value) = 'number'
                WHEN 'boolean' THEN jsonb_typeof(src.value) = 'boolean'
                WHEN 'tags' THEN jsonb_typeof(src.value) = 'array'
                WHEN 'select:single' THEN jsonb_typeof(src.value) = 'string' AND src.value #>> '{}' = ANY(d.options)
                WHEN 'select:multi' THEN jsonb_typeof(src.value) = 'array'
                  AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(src.value) AS e(item) WHERE e.item <> ALL(d.options))
                ELSE false
              END)`,
        },
      },
      duplicate: { copied: { why: 'A duplicate keeps every value, as it is now', set: () => ({ updatedAt: sql`now()` }) } },
    },
  },
  conflicts: {
    space_custom_field_values_organization_id_space_id_fkey: 'The space was moved or removed meanwhile',
    space_custom_field_values_organization_id_field_fkey: 'A custom field was deleted meanwhile',
  },
});
