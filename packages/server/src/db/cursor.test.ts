import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCursorCodec } from './cursor.js';
import { HttpError } from '../errors.js';

const codec = createCursorCodec(randomBytes(32));

function expect400(action: () => unknown) {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    return;
  }
  throw new Error('expected a 400');
}

describe('cursors', () => {
  it('round-trip the keys of the query they were made for', () => {
    const cursor = codec.encode('listSpaces:org1', ['2026-01-01T00:00:00.000Z', 'abc'], 40);
    expect(codec.decode('listSpaces:org1', cursor)).toEqual({ keys: ['2026-01-01T00:00:00.000Z', 'abc'], offset: 40 });
  });

  it('refuse another query, a tampered payload, another key and garbage', () => {
    const cursor = codec.encode('listSpaces:org1', ['x']);
    expect400(() => codec.decode('listSpaces:org2', cursor));
    const [body, signature] = cursor.split('.');
    const tampered = Buffer.from(JSON.stringify({ v: 1, k: ['y'], q: JSON.parse(Buffer.from(body!, 'base64url').toString()).q })).toString('base64url');
    expect400(() => codec.decode('listSpaces:org1', `${tampered}.${signature}`));
    expect400(() => createCursorCodec(randomBytes(32)).decode('listSpaces:org1', cursor));
    for (const garbage of ['', 'abc', 'a.b.c', '.', `${body}.`]) expect400(() => codec.decode('listSpaces:org1', garbage));
  });
});
