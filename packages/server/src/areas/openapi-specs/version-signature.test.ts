import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signDownload } from '../../content/download-signature.js';
import { signVersion, verifyVersion } from './version-signature.js';

const key = randomBytes(32);
const version = { organizationId: 'PBifsGYSqrl0NCy7tAjg', versionId: 'e9W02Ex39qYH4RfJLMR7' };
const NOW = Date.UTC(2026, 10, 24, 14, 20);

describe('version signatures', () => {
  it('round-trips, valid for one to two hours, the same address within an hour', () => {
    const token = signVersion(key, version, NOW);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    const expiresAt = Date.UTC(2026, 10, 24, 16) / 1000;
    expect(verifyVersion(key, token, NOW)).toEqual({ status: 'valid', ticket: { ...version, expiresAt } });
    expect(signVersion(key, version, NOW + 30 * 60_000)).toBe(token);
    expect(verifyVersion(key, token, expiresAt * 1000 - 1).status).toBe('valid');
    expect(verifyVersion(key, token, expiresAt * 1000)).toEqual({ status: 'expired' });
  });

  it('refuses a token altered, made with another key, or made for a file download', () => {
    const token = signVersion(key, version, NOW);
    const raw = Buffer.from(token, 'base64url');
    raw[raw.length - 3]! ^= 1;
    expect(verifyVersion(key, raw.toString('base64url'), NOW)).toEqual({ status: 'invalid' });
    expect(verifyVersion(randomBytes(32), token, NOW)).toEqual({ status: 'invalid' });
    expect(verifyVersion(key, 'short', NOW)).toEqual({ status: 'invalid' });
    const file = signDownload(key, { spaceId: 's', blobHash: 'h', contentType: 'application/json', name: 'x.json' }, NOW);
    expect(verifyVersion(key, file, NOW)).toEqual({ status: 'invalid' });
  });
});
