// Valid values for JSON schemas of the bundled spec: minimal ones (`sample`), which the sweep sends so
// that a request passes validation and reaches the handler's access checks, and fast-check arbitraries
// of them (`arbitrary`) for the fuzz suite.
import fc from 'fast-check';
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

const PATTERN_CANDIDATES = ['abc', 'example.com', 'abc123', 'a-b-c', 'https://example.com/x', 'ABCDEFGHIJKLMNOPQRST', 'text/plain', '0123456789abcdef', 'docs.example.com', '#336699', 'example.com/docs', '/old-page'];

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

// ---- Schema-valid values as fast-check arbitraries (the fuzz suite, test/fuzz/) ----

export type ArbitraryOptions = {
  /** Values for strings of the id pattern: the fixture ids, so valid requests reach existing resources. */
  ids: string[];
  /** The fixture ids that fit a property or parameter by its name (`team` → the team's id), preferred. */
  idsFor?: (name: string) => string[];
  /** Addresses for `format: uri` strings (the server may fetch them: keep them local and refused). */
  uris?: string[];
};

const ID_PATTERN = '^[A-Za-z0-9_-]+$';
/** Nesting past which a recursive schema gets its minimal sample instead of more generated levels. */
const MAX_ARBITRARY_DEPTH = 8;

const codePoints = (text: string) => [...text].length;

function stringArbitrary(schema: Schema, options: ArbitraryOptions, name: string | undefined): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 60, Math.max(min, 60));
  const fits = (text: string) => codePoints(text) >= min && codePoints(text) <= (schema.maxLength ?? Infinity);
  if (schema.format === 'date-time') {
    return fc.integer({ min: 1, max: 3650 }).map((days) => new Date(Date.now() + days * 86_400_000).toISOString());
  }
  if (schema.format === 'uri') return fc.constantFrom(...(options.uris ?? ['http://127.0.0.1:9/resource']));
  if (schema.format === 'email') return fc.constantFrom('someone@example.com', 'owner@sweep.test', 'a.b+c@sub.example.org');
  if (schema.contentEncoding === 'base64') return fc.uint8Array({ maxLength: 96 }).map((bytes) => Buffer.from(bytes).toString('base64'));
  if (schema.pattern === ID_PATTERN) {
    const fitting = (name && options.idsFor?.(name)) || [];
    return fc.oneof(
      ...(fitting.length ? [{ weight: 6, arbitrary: fc.constantFrom(...fitting) }] : []),
      { weight: 2, arbitrary: fc.constantFrom(...options.ids) },
      { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{20}$/) },
    );
  }
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    // stringMatching covers the pattern's own anchors; the length limits are checked after.
    return fc.oneof(fc.constant(sampleString(schema)), fc.stringMatching(pattern).filter((text) => fits(text) && pattern.test(text)));
  }
  return fc
    .oneof(fc.string({ minLength: min, maxLength: max }), fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }))
    .filter((text) => fits(text) && !text.includes('\u0000'));
}

function objectArbitrary(spec: OpenApiDocument, schema: Schema, options: ArbitraryOptions, depth: number, name: string | undefined): fc.Arbitrary<unknown> {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const required: string[] = schema.required ?? [];
  const known = Object.keys(properties).length
    ? fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, arbitrary(spec, property, options, depth + 1, key)])),
        { requiredKeys: required.filter((key) => key in properties) },
      )
    : fc.constant({});
  const extra =
    typeof schema.additionalProperties === 'object'
      ? fc.dictionary(
          schema.propertyNames ? (arbitrary(spec, schema.propertyNames, options, depth + 1, name) as fc.Arbitrary<string>) : fc.string({ minLength: 1, maxLength: 10 }),
          arbitrary(spec, schema.additionalProperties, options, depth + 1, name),
          { maxKeys: 3 },
        )
      : fc.constant({});
  const minimum = sample(spec, schema) as Record<string, unknown>;
  return fc.tuple(known, extra).map(([values, more]) => {
    const value: Record<string, unknown> = { ...more, ...(values as object) };
    // minProperties: top up from the minimal sample, which satisfies it; maxProperties: drop optional ones.
    for (const [key, fill] of Object.entries(minimum)) if (Object.keys(value).length < (schema.minProperties ?? 0) && !(key in value)) value[key] = fill;
    for (const key of Object.keys(value).reverse()) if (Object.keys(value).length > (schema.maxProperties ?? Infinity) && !required.includes(key)) delete value[key];
    return value;
  });
}

/**
 * Values valid against `schema` (best effort: branches of a `oneOf` may overlap, cross-field rules are
 * the server's), from its minimal sample up to every optional property. `name` is the property or
 * parameter the value is for (ids are chosen by it).
 */
export function arbitrary(spec: OpenApiDocument, input: Schema, options: ArbitraryOptions, depth = 0, name?: string): fc.Arbitrary<unknown> {
  const schema = resolve(spec, input);
  if (depth > MAX_ARBITRARY_DEPTH) return fc.constant(sample(spec, schema));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (schema.allOf) {
    return fc.tuple(...schema.allOf.map((part: Schema) => arbitrary(spec, part, options, depth + 1, name))).map((parts) =>
      parts.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part)) ? Object.assign({}, ...parts) : parts[0],
    );
  }
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches) return fc.oneof(...branches.map((branch: Schema) => arbitrary(spec, branch, options, depth + 1, name)));
  const types: string[] = schema.type === undefined ? ['object'] : [schema.type].flat();
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'integer':
          return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
        case 'number':
          return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
        case 'string':
          return stringArbitrary(schema, options, name);
        case 'array': {
          const minLength = schema.minItems ?? 0;
          // Short lists: each item can be wrong in its own way, and one wrong item fails the whole request.
          const constraints = { minLength, maxLength: Math.min(schema.maxItems ?? 3, Math.max(minLength, 3)) };
          const items = arbitrary(spec, schema.items ?? {}, options, depth + 1, name);
          return schema.uniqueItems ? fc.uniqueArray(items, { ...constraints, selector: (item) => JSON.stringify(item) }) : fc.array(items, constraints);
        }
        default:
          return objectArbitrary(spec, schema, options, depth, name);
      }
    }),
  );
}
