import { describe, expect, it } from 'vitest';
import { type HttpError } from '../../errors.js';
import { checkOptionsForType, checkValue, valueProblem, type FieldRule } from './custom-field-values.js';

const text: FieldRule = { type: 'text', options: null };
const number: FieldRule = { type: 'number', options: null };
const boolean: FieldRule = { type: 'boolean', options: null };
const tags: FieldRule = { type: 'tags', options: null };
const single: FieldRule = { type: 'select:single', options: ['a', 'b'] };
const multi: FieldRule = { type: 'select:multi', options: ['a', 'b', 'c'] };

describe('valueProblem', () => {
  it('accepts what each type wants', () => {
    const fits: Array<[FieldRule, unknown]> = [
      [text, ''],
      [text, 'é'.repeat(256)],
      [text, '😀'.repeat(256)],
      [number, 0],
      [number, -1.5e300],
      [boolean, false],
      [tags, []],
      [tags, ['x', 'y'.repeat(256)]],
      [tags, Array.from({ length: 100 }, (_, i) => `t${i}`)],
      [single, 'b'],
      [multi, []],
      [multi, ['c', 'a']],
    ];
    for (const [field, value] of fits) expect(valueProblem(field, value), `${field.type} ${JSON.stringify(value)}`).toBeUndefined();
  });

  it('refuses values of another type, too long, repeated or outside the options', () => {
    const refused: Array<[FieldRule, unknown, string]> = [
      [text, 1, 'must be a string of at most 256 characters (text)'],
      [text, 'x'.repeat(257), 'must be a string of at most 256 characters (text)'],
      [number, '1', 'must be a finite number (number)'],
      [number, Infinity, 'must be a finite number (number)'],
      [number, Number.NaN, 'must be a finite number (number)'],
      [boolean, 'true', 'must be true or false (boolean)'],
      [tags, 'x', 'must be an array of strings (tags)'],
      [tags, ['x', 1], 'must be an array of strings (tags)'],
      [tags, ['x', 'x'], 'must not repeat a value (tags)'],
      [tags, [''], 'must hold tags of 1 to 256 characters (tags)'],
      [tags, ['y'.repeat(257)], 'must hold tags of 1 to 256 characters (tags)'],
      [tags, Array.from({ length: 101 }, (_, i) => `t${i}`), 'must have at most 100 tags (tags)'],
      [single, 'c', 'must be one of the options ["a","b"] (select:single)'],
      [single, ['a'], 'must be one of the options ["a","b"] (select:single)'],
      [multi, 'a', 'must be an array of options (select:multi)'],
      [multi, ['a', 'a'], 'must not repeat a value (select:multi)'],
      [multi, ['a', 'd'], '"d" is not one of the options ["a","b","c"] (select:multi)'],
      [text, 'a\ud800', 'must be Unicode text without U+0000 or lone surrogates'],
      [text, 'a\u0000', 'must be Unicode text without U+0000 or lone surrogates'],
      [tags, ['ok', '\udc00'], 'must be Unicode text without U+0000 or lone surrogates'],
    ];
    for (const [field, value, message] of refused) expect(valueProblem(field, value), `${field.type} ${JSON.stringify(value)}`).toBe(message);
  });

  it('checkValue answers a 400 naming the path', () => {
    expect(checkValue(single, 'a', '/body/values/kind/value')).toBe('a');
    try {
      checkValue(single, 'z', '/body/values/kind/value');
      expect.unreachable();
    } catch (error) {
      expect((error as HttpError).status).toBe(400);
      expect((error as HttpError).issues).toEqual([{ path: '/body/values/kind/value', message: 'must be one of the options ["a","b"] (select:single)' }]);
    }
  });
});

describe('checkOptionsForType', () => {
  it('wants options for the select types only', () => {
    expect(() => checkOptionsForType('select:single', ['a'], '/body/options')).not.toThrow();
    expect(() => checkOptionsForType('text', undefined, '/body/options')).not.toThrow();
    expect(() => checkOptionsForType('select:multi', undefined, '/body/options')).toThrow('/body/options: is required for a select:multi field');
    expect(() => checkOptionsForType('tags', ['a'], '/body/options')).toThrow('/body/options: only select fields have options, not a tags field');
  });
});
