import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signDownload, verifyDownload } from './download-signature.js';

const key = randomBytes(32);
const file = { spaceId: 'space1', blobHash: 'ab'.repeat(32), contentType: 'image/png', name: 'logo.png' };
const now = Date.parse('2026-05-01T10:20:00Z');

describe('download signatures', () => {
  it('verify with the key, stay valid one to two hours, and are stable within the hour', () => {
    const token = signDownload(key, file, now);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(signDownload(key, file, now + 30 * 60_000)).toBe(token);
    expect(verifyDownload(key, token, now)).toEqual({ status: 'valid', ticket: { ...file, expiresAt: Date.parse('2026-05-01T12:00:00Z') / 1000 } });
    expect(verifyDownload(key, token, Date.parse('2026-05-01T11:59:59Z')).status).toBe('valid');
    expect(verifyDownload(key, token, Date.parse('2026-05-01T12:00:00Z'))).toEqual({ status: 'expired' });
  });

  it('refuse another key, an altered payload and garbage', () => {
    const token = signDownload(key, file, now);
    expect(verifyDownload(randomBytes(32), token, now)).toEqual({ status: 'invalid' });
    const raw = Buffer.from(token, 'base64url');
    raw[raw.length - 5]! ^= 1;
    expect(verifyDownload(key, raw.toString('base64url'), now)).toEqual({ status: 'invalid' });
    expect(verifyDownload(key, 'abc', now)).toEqual({ status: 'invalid' });
  });
});
