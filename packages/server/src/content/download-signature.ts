// Signed, expiring download addresses (`GET /files/{signature}`): the token is the credential. It
// carries what serving needs (space, blob hash, content type, name, expiry), authenticated by an HMAC
// with the server's `fileSignature` key, so serving needs no lookup of the revision that listed it.
// Expiries are rounded up to the hour, so reads within one hour hand out the same address (cacheable
// by clients) and each address stays valid between one and two hours.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type DownloadTicket = { spaceId: string; blobHash: string; contentType: string; name: string; expiresAt: number };

type Payload = { s: string; h: string; t: string; n: string; e: number };

const HOUR = 3600;
const MAC_BYTES = 32;

const mac = (key: Buffer, payload: Buffer) => createHmac('sha256', key).update('file-download:v1:').update(payload).digest();

export function signDownload(key: Buffer, file: Omit<DownloadTicket, 'expiresAt'>, nowMs = Date.now()): string {
  const expiresAt = (Math.floor(nowMs / 1000 / HOUR) + 2) * HOUR;
  const payload: Payload = { s: file.spaceId, h: file.blobHash, t: file.contentType, n: file.name, e: expiresAt };
  const bytes = Buffer.from(JSON.stringify(payload));
  return Buffer.concat([mac(key, bytes), bytes]).toString('base64url');
}

export type Verified = { status: 'valid'; ticket: DownloadTicket } | { status: 'expired' } | { status: 'invalid' };

export function verifyDownload(key: Buffer, token: string, nowMs = Date.now()): Verified {
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
  if (parsed.e * 1000 <= nowMs) return { status: 'expired' };
  return { status: 'valid', ticket: { spaceId: parsed.s, blobHash: parsed.h, contentType: parsed.t, name: parsed.n, expiresAt: parsed.e } };
}
