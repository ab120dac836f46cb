import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new opaque id: 20 characters of [A-Za-z0-9] (~119 bits). */
export function newId(length = 20): string {
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps the draw uniform.
  let id = '';
  while (id.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) id += ALPHABET[byte % 62];
      if (id.length === length) break;
    }
  }
  return id;
}
