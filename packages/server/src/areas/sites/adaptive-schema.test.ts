import { describe, expect, it } from 'vitest';
import { checkAdaptiveSchema, declaresClaim, DRAFT_07, emptyAdaptiveSchema } from './adaptive-schema.js';

const valid = {
  $schema: DRAFT_07,
  $id: 'https://example.com/claims',
  type: 'object',
  properties: {
    isBetaUser: { type: 'boolean', description: 'In the beta programme' },
    plan: { type: 'string', enum: ['free', 'pro'] },
    seats: { type: 'integer', minimum: 0 },
    roles: { type: 'array', items: { type: 'string', enum: ['admin', 'editor'] } },
    org: { type: 'object', properties: { tier: { type: 'string', enum: ['gold'] } }, additionalProperties: false, required: ['tier'] },
    unsigned: { type: 'object', properties: { preview: { type: 'boolean', description: 'Asked for the preview' } }, additionalProperties: false },
  },
  required: ['plan'],
  additionalProperties: false,
};

const withProperty = (name: string, claim: unknown) => ({ ...valid, properties: { ...valid.properties, [name]: claim } });

describe('checkAdaptiveSchema', () => {
  it('accepts the seed’s shape with every kind of claim, and the empty schema', () => {
    expect(checkAdaptiveSchema(valid)).toEqual({ ok: true, schema: valid });
    expect(checkAdaptiveSchema(emptyAdaptiveSchema('x')).ok).toBe(true);
  });

  it.each([
    ['not an object', [], '/body/jsonSchema', 'must be an object'],
    ['another draft', { ...valid, $schema: 'https://json-schema.org/draft/2020-12/schema' }, '/body/jsonSchema/$schema', `must be "${DRAFT_07}"`],
    ['invalid JSON Schema', { ...valid, required: 'plan' }, '/body/jsonSchema/required', 'is not valid JSON Schema draft-07: must be array'],
    ['invalid JSON Schema deep inside', withProperty('x', { type: 'boolean', title: 3 }), '/body/jsonSchema/properties/x/title', 'is not valid JSON Schema draft-07: must be string'],
    ['not an object schema', { ...valid, type: 'array' }, '/body/jsonSchema/type', 'must be "object"'],
    ['open to other claims', { ...valid, additionalProperties: true }, '/body/jsonSchema/additionalProperties', 'must be false'],
    ['an unknown keyword at the root', { ...valid, allOf: [{}] }, '/body/jsonSchema/allOf', 'is not allowed here (allowed: $schema, $id, type, title, description, properties, required, additionalProperties)'],
    ['a claim of no type', withProperty('x', { description: 'x' }), '/body/jsonSchema/properties/x/type', 'must be one of boolean, string, number, integer, array, object'],
    ['a claim of several types', withProperty('x', { type: ['string', 'null'] }), '/body/jsonSchema/properties/x/type', 'must be one of boolean, string, number, integer, array, object'],
    ['a text claim without enum', withProperty('x', { type: 'string' }), '/body/jsonSchema/properties/x/enum', 'a text claim lists its values in `enum`'],
    ['a text enum of numbers', withProperty('x', { type: 'string', enum: ['a', 2] }), '/body/jsonSchema/properties/x/enum/1', 'must be a string'],
    ['a pattern', withProperty('x', { type: 'string', enum: ['a'], pattern: '^a' }), '/body/jsonSchema/properties/x/pattern', 'is not allowed here (allowed: type, title, description, enum, default)'],
    ['a reference', withProperty('x', { $ref: '#/definitions/y' }), '/body/jsonSchema/properties/x/type', 'must be one of boolean, string, number, integer, array, object'],
    ['arrays of objects', withProperty('x', { type: 'array', items: { type: 'object', properties: {}, additionalProperties: false } }), '/body/jsonSchema/properties/x/items/type', 'arrays hold booleans, texts or numbers'],
    ['arrays of arrays', withProperty('x', { type: 'array', items: { type: 'array', items: { type: 'boolean' } } }), '/body/jsonSchema/properties/x/items/type', 'arrays of arrays are not supported'],
    ['an open object claim', withProperty('x', { type: 'object', properties: {} }), '/body/jsonSchema/properties/x/additionalProperties', 'must be false'],
    [
      'objects three levels deep',
      withProperty('a', { type: 'object', additionalProperties: false, properties: { b: { type: 'object', additionalProperties: false, properties: { c: { type: 'object', additionalProperties: false, properties: {} } } } } }),
      '/body/jsonSchema/properties/a/properties/b/properties/c/type',
      'objects nest at most 2 levels',
    ],
    ['required naming nothing', { ...valid, required: ['nobody'] }, '/body/jsonSchema/required/0', 'names no declared claim ("nobody")'],
    ['an unsigned claim not boolean', withProperty('unsigned', { type: 'object', additionalProperties: false, properties: { p: { type: 'string', enum: ['a'], description: 'x' } } }), '/body/jsonSchema/properties/unsigned/properties/p/type', 'unsigned claims are booleans'],
    ['an unsigned claim without description', withProperty('unsigned', { type: 'object', additionalProperties: false, properties: { p: { type: 'boolean' } } }), '/body/jsonSchema/properties/unsigned/properties/p/description', 'an unsigned claim needs a description'],
    ['unsigned not an object', withProperty('unsigned', { type: 'boolean' }), '/body/jsonSchema/properties/unsigned/type', 'must be "object"'],
    ['a slash in a claim name', withProperty('a/b', { type: 'number' , pattern: 'x'}), '/body/jsonSchema/properties/a~1b/pattern', 'is not allowed here (allowed: type, title, description, minimum, maximum, default)'],
    ['too many claims', { ...valid, required: undefined, properties: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`c${i}`, { type: 'boolean' }])) }, '/body/jsonSchema/properties/c100', 'a schema declares at most 100 claims'],
  ])('refuses %s', (_name, document, path, message) => {
    expect(checkAdaptiveSchema(document, '/body/jsonSchema')).toEqual({ ok: false, path, message });
  });

  it('does not let __proto__ or constructor claims reach the prototype', () => {
    const hostile = JSON.parse(`{"$schema":"${DRAFT_07}","type":"object","additionalProperties":false,"properties":{"__proto__":{"type":"boolean"},"constructor":{"type":"boolean"}}}`);
    expect(checkAdaptiveSchema(hostile).ok).toBe(true);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});

describe('declaresClaim', () => {
  it('walks declared objects and stops at values', () => {
    const schema = valid as never;
    expect(declaresClaim(schema, ['plan'])).toBe(true);
    expect(declaresClaim(schema, ['plan', 'length'])).toBe(true);
    expect(declaresClaim(schema, ['roles', 0])).toBe(true);
    expect(declaresClaim(schema, ['org', 'tier'])).toBe(true);
    expect(declaresClaim(schema, ['org', 'size'])).toBe(false);
    expect(declaresClaim(schema, ['unsigned', 'preview'])).toBe(true);
    expect(declaresClaim(schema, ['unsigned', 'other'])).toBe(false);
    expect(declaresClaim(schema, ['missing'])).toBe(false);
    expect(declaresClaim(schema, ['constructor'])).toBe(false);
    expect(declaresClaim(schema, [])).toBe(true);
  });
});
