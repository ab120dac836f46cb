// The rules of custom field values, by type (docs/decisions.md, "Organization settings"): the one place that decides whether a value
// fits a definition, used when a space's values are set and when a transfer carries values to another
// organization's definitions. Lengths count characters (code points), as the contract's JSON Schema does.
import type { CustomFieldType, CustomFieldValueData } from '../../db/schema.js';
import { isStorableText } from '../../db/storable-text.js';
import { invalidField } from '../../errors.js';

export const MAX_TEXT_LENGTH = 256;
export const MAX_TAGS = 100;

export const SELECT_TYPES: ReadonlySet<CustomFieldType> = new Set(['select:single', 'select:multi']);

export type FieldRule = { type: CustomFieldType; options: readonly string[] | null };

const length = (text: string) => [...text].length;

function distinctStrings(value: unknown[], what: string): string | undefined {
  if (!value.every((item) => typeof item === 'string')) return `must be an array of strings (${what})`;
  if (new Set(value).size !== value.length) return `must not repeat a value (${what})`;
  return undefined;
}

/** Strings jsonb refuses (db/storable-text.ts). */
function unstorable(value: unknown): boolean {
  const strings: string[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  return strings.some((text) => !isStorableText(text));
}

/** Why `value` does not fit the field, or undefined when it does. */
export function valueProblem(field: FieldRule, value: unknown): string | undefined {
  if (unstorable(value)) return 'must be Unicode text without U+0000 or lone surrogates';
  const options = field.options ?? [];
  switch (field.type) {
    case 'text':
      return typeof value === 'string' && length(value) <= MAX_TEXT_LENGTH ? undefined : `must be a string of at most ${MAX_TEXT_LENGTH} characters (text)`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a finite number (number)';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false (boolean)';
    case 'tags': {
      if (!Array.isArray(value)) return 'must be an array of strings (tags)';
      if (value.length > MAX_TAGS) return `must have at most ${MAX_TAGS} tags (tags)`;
      const problem = distinctStrings(value, 'tags');
      if (problem) return problem;
      return (value as string[]).every((tag) => tag.length > 0 && length(tag) <= MAX_TEXT_LENGTH)
        ? undefined
        : `must hold tags of 1 to ${MAX_TEXT_LENGTH} characters (tags)`;
    }
    case 'select:single':
      return typeof value === 'string' && options.includes(value) ? undefined : `must be one of the options ${JSON.stringify(options)} (select:single)`;
    case 'select:multi': {
      if (!Array.isArray(value)) return 'must be an array of options (select:multi)';
      const problem = distinctStrings(value, 'select:multi');
      if (problem) return problem;
      const unknown = (value as string[]).find((item) => !options.includes(item));
      return unknown === undefined ? undefined : `"${unknown}" is not one of the options ${JSON.stringify(options)} (select:multi)`;
    }
  }
}

/** The value, checked against its field; a 400 naming `path` otherwise. */
export function checkValue(field: FieldRule, value: unknown, path: string): CustomFieldValueData {
  const problem = valueProblem(field, value);
  if (problem) throw invalidField(path, problem);
  return value as CustomFieldValueData;
}

/** `options` are required for the select types and refused for the others (`path` names them in the 400). */
export function checkOptionsForType(type: CustomFieldType, options: readonly string[] | undefined, path: string): void {
  if (SELECT_TYPES.has(type) && options === undefined) throw invalidField(path, `is required for a ${type} field`);
  if (!SELECT_TYPES.has(type) && options !== undefined) throw invalidField(path, `only select fields have options, not a ${type} field`);
}
