// Opaque list cursors: base64url JSON of the last row's sort values and a hash of the query they
// belong to, HMAC-signed so a client can neither forge one nor reuse one on another query (400).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../errors.js';

export type CursorValue = string | number | boolean | null;

type Payload = { v: 1; k: CursorValue[]; q: string; o?: number };

export type CursorCodec = {
  encode(query: string, keys: CursorValue[], offset?: number): string;
  /** The values of a cursor made for `query`; a 400 for anything else. */
  decode(query: string, cursor: string): { keys: CursorValue[]; offset: number };
};

const hashQuery = (query: string) => createHash('sha256').update(query).digest('base64url').slice(0, 16);

export function createCursorCodec(key: Buffer): CursorCodec {
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, 12);
  const invalid = () => badRequest('Invalid page cursor', [{ path: '/query/page', message: 'is not a cursor of this list' }]);
  return {
    encode(query, keys, offset) {
      const payload: Payload = { v: 1, k: keys, q: hashQuery(query), ...(offset === undefined ? {} : { o: offset }) };
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${body}.${sign(body).toString('base64url')}`;
    },
    decode(query, cursor) {
      const [body, signature, extra] = cursor.split('.');
      if (!body || !signature || extra !== undefined) throw invalid();
      const expected = sign(body);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
      let payload: Payload;
      try {
        payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
      } catch {
        throw invalid();
      }
      if (payload.v !== 1 || payload.q !== hashQuery(query) || !Array.isArray(payload.k)) throw invalid();
      return { keys: payload.k, offset: payload.o ?? 0 };
    },
  };
}
