import { describe, expect, it } from 'vitest';
import { isStorableText } from './storable-text.js';

describe('isStorableText', () => {
  it('accepts Unicode text, astral characters included', () => {
    for (const text of ['', 'plain', 'é', '😀 emoji', '\uD83D\uDE00']) expect(isStorableText(text), JSON.stringify(text)).toBe(true);
  });

  it('refuses U+0000 and lone surrogates', () => {
    for (const text of ['a\u0000b', 'a\uD800', '\uDC00b', 'x\uDE00\uD83D']) expect(isStorableText(text), JSON.stringify(text)).toBe(false);
  });
});
