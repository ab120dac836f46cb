import { describe, expect, it } from 'vitest';
import { forbiddenValues, jsonDepth, MAX_JSON_DEPTH } from './input-rules.js';

const depth = (text: string) => jsonDepth(Buffer.from(text, 'utf8'));

describe('jsonDepth', () => {
  it('counts nested arrays and objects', () => {
    expect(depth('1')).toBe(0);
    expect(depth('{"a":[1,{"b":[]}],"c":{}}')).toBe(4);
  });

  it('skips strings, escaped quotes and backslashes included', () => {
    expect(depth('{"a":"[[[{{{"}')).toBe(1);
    expect(depth(String.raw`{"a":"\"[[[","b":"\\","c":[[]]}`)).toBe(3);
    expect(depth(String.raw`["\\\"[[", []]`)).toBe(2);
  });

  it('stops past the limit without walking the rest', () => {
    expect(depth('['.repeat(1_000_000))).toBe(MAX_JSON_DEPTH + 1);
  });

  it('reads an unterminated string as the end of the text', () => {
    expect(depth('[["abc')).toBe(2);
  });
});

describe('forbiddenValues', () => {
  it('finds U+0000 in strings and keys and non-finite numbers, with JSON Pointer paths', () => {
    const body = { title: 'a\u0000', list: [1, Infinity, { 'x/y~\u0000': 'ok' }], fine: 'text', n: -Infinity, nan: NaN };
    expect(forbiddenValues(body, '/body')).toEqual(
      expect.arrayContaining([
        { path: '/body/title', message: 'must not contain the character U+0000' },
        { path: '/body/list/1', message: 'must be a finite number' },
        { path: '/body/list/2/x~1y~0\\u0000', message: 'names a property with the character U+0000' },
        { path: '/body/n', message: 'must be a finite number' },
        { path: '/body/nan', message: 'must be a finite number' },
      ]),
    );
    expect(forbiddenValues(body, '/body')).toHaveLength(5);
  });

  it('accepts what is clean, and walks deep values without recursion', () => {
    expect(forbiddenValues({ a: ['x', 1.5, null, true, { b: '' }] }, '/body')).toEqual([]);
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(forbiddenValues(deep, '/body')).toHaveLength(1);
  });

  it('reports at most 20 issues', () => {
    expect(forbiddenValues(Array.from({ length: 100 }, () => '\u0000'), '/body')).toHaveLength(20);
  });
});
