import { expect, it } from 'vitest';
import { newId } from './ids.js';

it('ids are 20 characters of [A-Za-z0-9] and do not repeat', () => {
  const ids = Array.from({ length: 2000 }, () => newId());
  for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
  expect(new Set(ids).size).toBe(ids.length);
});
