// Minimal valid values for JSON schemas of the bundled spec: the sweep sends them so that a request
// passes validation and reaches the handler's access checks.
import { newId } from '../../src/ids.js';
import type { OpenApiDocument } from '../../src/http/operations.js';

type Schema = Record<string, any>;

export function resolve(spec: OpenApiDocument, schema: Schema): Schema {
  let current = schema;
  while (current?.$ref) {
    const path = (current.$ref as string).replace(/^#\//, '').split('/');
    current = path.reduce((node: any, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  }
  return current;
}

const PATTERN_CANDIDATES = ['abc', 'example.com', 'abc123', 'a-b-c', 'https://example.com/x', 'ABCDEFGHIJKLMNOPQRST'];

function sampleString(schema: Schema): string {
  if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
  if (schema.format === 'uri') return 'https://example.com/resource';
  if (schema.format === 'email') return 'someone@example.com';
  const min = schema.minLength ?? 1;
  const max = schema.maxLength ?? 1000;
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    if (pattern.source === '^[A-Za-z0-9_-]+$') return newId();
    const found = PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate) && candidate.length >= min && candidate.length <= max);
    if (found) return found;
    throw new Error(`No sample for pattern ${schema.pattern}: add a candidate in test/contract/sample.ts`);
  }
  return 'x'.repeat(Math.max(min, Math.min(3, max)));
}

/** A minimal value valid against `schema` (required properties only). */
export function sample(spec: OpenApiDocument, input: Schema): unknown {
  const schema = resolve(spec, input);
  if (schema.const !== undefined) return schema.const;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((value: unknown) => value !== null);
  if (schema.allOf) {
    const parts = schema.allOf.map((part: Schema) => sample(spec, part));
    return parts.every((part: unknown) => typeof part === 'object' && part !== null && !Array.isArray(part)) ? Object.assign({}, ...parts) : parts[0];
  }
  if (schema.oneOf) return sample(spec, schema.oneOf.find((option: Schema) => resolve(spec, option).type !== 'null'));
  if (schema.anyOf) return sample(spec, schema.anyOf.find((option: Schema) => resolve(spec, option).type !== 'null'));
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? []) value[key] = sample(spec, schema.properties?.[key] ?? {});
      const extra = schema.minProperties ?? 0;
      for (const key of Object.keys(schema.properties ?? {})) {
        if (Object.keys(value).length >= extra) break;
        value[key] = sample(spec, schema.properties[key]);
      }
      return value;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(spec, schema.items ?? {}));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      return sampleString(schema);
    default:
      return {};
  }
}

/** The JSON types `schema` accepts (following refs and xOf), or undefined when it accepts any. */
function acceptedTypes(spec: OpenApiDocument, input: Schema): Set<string> | undefined {
  const schema = resolve(spec, input);
  const parts = schema.oneOf ?? schema.anyOf ?? schema.allOf;
  if (parts) {
    const sets = parts.map((part: Schema) => acceptedTypes(spec, part));
    if (sets.some((set: Set<string> | undefined) => set === undefined)) return undefined;
    return new Set(sets.flatMap((set: Set<string>) => [...set]));
  }
  if (schema.type) return new Set([schema.type].flat());
  if (schema.const !== undefined) return new Set([typeof schema.const]);
  if (schema.enum) return new Set(schema.enum.map((value: unknown) => (value === null ? 'null' : typeof value)));
  return undefined;
}

/**
 * Values of a JSON type `schema` does not accept, including ones a lax validator would coerce
 * (a number for a string, a string for a number or boolean).
 */
export function wrongTypes(spec: OpenApiDocument, input: Schema): unknown[] {
  const types = acceptedTypes(spec, input);
  if (!types) return [];
  const candidates: Array<[string[], unknown]> = [
    [['object'], { unexpected: true }],
    [['number', 'integer'], 12345],
    [['string'], '12345'],
    [['string'], 'true'],
    [['array'], ['x']],
  ];
  return candidates.filter(([names]) => !names.some((name) => types.has(name))).map(([, value]) => value);
}
