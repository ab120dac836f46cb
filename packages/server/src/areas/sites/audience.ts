// The credentials of a site's audience: share-link keys (random, shown once, stored as SHA-256 and
// compared in constant time) and the visitor-auth secret (an HS256 key the server keeps to verify the
// JWTs visitors present; shown once, rotatable).
import { timingSafeEqual } from 'node:crypto';
import { jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';
import { hashShareKey } from '../../publication/share-key.js';
import { newId } from '../../ids.js';

/** A new share-link key: 40 base62 characters (~238 bits). */
export const newShareKey = (): string => newId(40);

/**
 * Whether `key` is one of the keys hashed in `hashes`. Every hash is compared, with timingSafeEqual,
 * whatever matched earlier: the time taken says nothing about the stored keys.
 */
export function shareKeyMatches(key: string, hashes: readonly Buffer[]): boolean {
  const presented = hashShareKey(key);
  let matched = false;
  for (const hash of hashes) matched = (hash.length === presented.length && timingSafeEqual(hash, presented)) || matched;
  return matched;
}

/** A new visitor-auth secret: 64 base62 characters (~381 bits); HS256 uses its UTF-8 bytes. */
export const newVisitorAuthSecret = (): string => newId(64);

export type VisitorTokenResult = { ok: true; claims: JWTPayload } | { ok: false; reason: 'expired' | 'invalid' };

/**
 * Verifies a visitor's JWT against the site's secret: HS256 only (no `none`, no other algorithm),
 * signature, and `exp`/`nbf` when present. Its payload becomes the visitor's claims.
 */
export async function verifyVisitorToken(secret: string, token: string): Promise<VisitorTokenResult> {
  if (token.length > 8192) return { ok: false, reason: 'invalid' };
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] });
    return { ok: true, claims: payload };
  } catch (error) {
    return { ok: false, reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
}
