import { hash } from 'node:crypto';
import { newId } from '../ids.js';

export const TOKEN_PREFIX = 'cw_';

/** A new token secret: `cw_` and 40 base62 characters (~238 bits). */
export function newTokenSecret(): string {
  return TOKEN_PREFIX + newId(40);
}

/** Tokens are stored only as their SHA-256: a database leak does not leak usable tokens. */
export function hashToken(secret: string): Buffer {
  // The one-shot hash: no Hash object per request (half the time of createHash on every API call).
  return hash('sha256', secret, 'buffer');
}

export function looksLikeToken(value: string): boolean {
  return value.startsWith(TOKEN_PREFIX) && value.length > TOKEN_PREFIX.length && value.length <= 200;
}

