// Signed, expiring addresses of a version's bundled document (`GET /openapi/{signature}`): the token is
// the credential, so an API reference page or a tool can load the document without the API token. It
// names the organization and the version, and its expiry, under an HMAC with the server's
// `openapiSignature` key. Expiries are rounded up to the hour, as for file downloads
// (content/download-signature.ts): reads within one hour hand out the same address, valid one to two
// hours.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type VersionTicket = { organizationId: string; versionId: string; expiresAt: number };

type Payload = { o: string; v: string; e: number };

const HOUR = 3600;
const MAC_BYTES = 32;

const mac = (key: Buffer, payload: Buffer) => createHmac('sha256', key).update('openapi-version:v1:').update(payload).digest();

export function signVersion(key: Buffer, version: Omit<VersionTicket, 'expiresAt'>, nowMs = Date.now()): string {
  const payload: Payload = { o: version.organizationId, v: version.versionId, e: (Math.floor(nowMs / 1000 / HOUR) + 2) * HOUR };
  const bytes = Buffer.from(JSON.stringify(payload));
  return Buffer.concat([mac(key, bytes), bytes]).toString('base64url');
}

export type VerifiedVersion = { status: 'valid'; ticket: VersionTicket } | { status: 'expired' } | { status: 'invalid' };

export function verifyVersion(key: Buffer, token: string, nowMs = Date.now()): VerifiedVersion {
  const raw = Buffer.from(token, 'base64url');
  if (raw.length <= MAC_BYTES) return { status: 'invalid' };
  const payload = raw.subarray(MAC_BYTES);
  if (!timingSafeEqual(raw.subarray(0, MAC_BYTES), mac(key, payload))) return { status: 'invalid' };
  let parsed: Payload;
  try {
    parsed = JSON.parse(payload.toString('utf8')) as Payload;
  } catch {
    return { status: 'invalid' };
  }
  if (typeof parsed.o !== 'string' || typeof parsed.v !== 'string' || typeof parsed.e !== 'number') return { status: 'invalid' };
  if (parsed.e * 1000 <= nowMs) return { status: 'expired' };
  return { status: 'valid', ticket: { organizationId: parsed.o, versionId: parsed.v, expiresAt: parsed.e } };
}
