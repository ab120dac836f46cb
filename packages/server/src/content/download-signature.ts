// Signed, expiring download addresses (`GET /files/{signature}`, and `GET /pdf/{signature}` through
// the generic `signTicket`): the token is the credential. It carries what serving needs (for a file:
// space, blob hash, content type, name, expiry), authenticated by an HMAC with the server's
// `fileSignature` key under a purpose of its own (a file token never passes as another kind), so
// serving needs no lookup of the revision that listed it. Expiries are rounded up to the hour, so
// reads within one hour hand out the same address (cacheable by clients) and each address stays
// valid between one and two hours.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type DownloadTicket = { spaceId: string; blobHash: string; contentType: string; name: string; expiresAt: number };

type Payload = { s: string; h: string; t: string; n: string; e: number };

const HOUR = 3600;
const MAC_BYTES = 32;

const mac = (key: Buffer, purpose: string, payload: Buffer) => createHmac('sha256', key).update(`${purpose}:v1:`).update(payload).digest();

/** A token for `payload` (with its expiry as `e`, epoch seconds), valid one to two hours. */
export function signTicket<P extends object>(key: Buffer, purpose: string, payload: P, nowMs = Date.now()): string {
  const expiresAt = (Math.floor(nowMs / 1000 / HOUR) + 2) * HOUR;
  const bytes = Buffer.from(JSON.stringify({ ...payload, e: expiresAt }));
  return Buffer.concat([mac(key, purpose, bytes), bytes]).toString('base64url');
}

export type VerifiedTicket<P> = { status: 'valid'; payload: P & { e: number } } | { status: 'expired' } | { status: 'invalid' };

/** The payload of a token signed for `purpose`: invalid when forged or altered, expired past its expiry. */
export function verifyTicket<P extends object>(key: Buffer, purpose: string, token: string, nowMs = Date.now()): VerifiedTicket<P> {
  const raw = Buffer.from(token, 'base64url');
  if (raw.length <= MAC_BYTES) return { status: 'invalid' };
  const payload = raw.subarray(MAC_BYTES);
  if (!timingSafeEqual(raw.subarray(0, MAC_BYTES), mac(key, purpose, payload))) return { status: 'invalid' };
  let parsed: P & { e: number };
  try {
    parsed = JSON.parse(payload.toString('utf8')) as P & { e: number };
  } catch {
    return { status: 'invalid' };
  }
  if (typeof parsed?.e !== 'number') return { status: 'invalid' };
  if (parsed.e * 1000 <= nowMs) return { status: 'expired' };
  return { status: 'valid', payload: parsed };
}

export function signDownload(key: Buffer, file: Omit<DownloadTicket, 'expiresAt'>, nowMs = Date.now()): string {
  return signTicket<Omit<Payload, 'e'>>(key, 'file-download', { s: file.spaceId, h: file.blobHash, t: file.contentType, n: file.name }, nowMs);
}

export type Verified = { status: 'valid'; ticket: DownloadTicket } | { status: 'expired' } | { status: 'invalid' };

export function verifyDownload(key: Buffer, token: string, nowMs = Date.now()): Verified {
  const verified = verifyTicket<Payload>(key, 'file-download', token, nowMs);
  if (verified.status !== 'valid') return verified;
  const parsed = verified.payload;
  return { status: 'valid', ticket: { spaceId: parsed.s, blobHash: parsed.h, contentType: parsed.t, name: parsed.n, expiresAt: parsed.e } };
}
