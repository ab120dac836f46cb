import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { hashShareKey } from '../../publication/share-key.js';
import { newShareKey, newVisitorAuthSecret, shareKeyMatches, verifyVisitorToken } from './audience.js';

describe('share keys', () => {
  it('match only their own hash', () => {
    const [a, b] = [newShareKey(), newShareKey()];
    expect(a).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(shareKeyMatches(a, [hashShareKey(b), hashShareKey(a)])).toBe(true);
    expect(shareKeyMatches(b.slice(0, 39), [hashShareKey(b)])).toBe(false);
    expect(shareKeyMatches(a, [])).toBe(false);
    expect(shareKeyMatches(a, [Buffer.alloc(3)])).toBe(false);
  });
});

describe('visitor tokens', () => {
  const secret = newVisitorAuthSecret();
  const key = new TextEncoder().encode(secret);

  it('accepts an HS256 token signed with the secret and gives its claims', async () => {
    const token = await new SignJWT({ plan: 'pro', unsigned: { beta: true } }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key);
    expect(await verifyVisitorToken(secret, token)).toEqual({ ok: true, claims: expect.objectContaining({ plan: 'pro', unsigned: { beta: true } }) });
  });

  it('refuses another secret, another algorithm, an unsigned token, an expired one and garbage', async () => {
    const other = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(newVisitorAuthSecret()));
    expect(await verifyVisitorToken(secret, other)).toEqual({ ok: false, reason: 'invalid' });
    const hs512 = await new SignJWT({}).setProtectedHeader({ alg: 'HS512' }).sign(key);
    expect(await verifyVisitorToken(secret, hs512)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyVisitorToken(secret, new UnsecuredJWT({ plan: 'pro' }).encode())).toEqual({ ok: false, reason: 'invalid' });
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(key);
    expect(await verifyVisitorToken(secret, expired)).toEqual({ ok: false, reason: 'expired' });
    expect(await verifyVisitorToken(secret, 'not.a.token')).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyVisitorToken(secret, 'x'.repeat(10_000))).toEqual({ ok: false, reason: 'invalid' });
  });
});
