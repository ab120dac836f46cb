import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './errors.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('recognises a database that went away or cannot be reached', () => {
    for (const code of ['57P01', '57P02', '57P03', '53300', '08006', '08001', '08P01', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    }
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable',
      'Client was closed and is not queryable',
      'Cannot use a pool after calling end on the pool',
    ]) {
      expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
    }
    // Node's failed connect to several addresses, and an error wrapping another.
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED')], 'connect failed'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('query failed', { cause: withCode('57P01') }))).toBe(true);
  });

  it('leaves the statement’s own failures alone', () => {
    for (const code of ['23505', '23503', '40001', '42P01', '22P02', '57014', 'ERR_INVALID_ARG_TYPE', '0800']) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(false);
    }
    expect(isDatabaseUnavailable(new Error('syntax error at or near "Connection terminated"'))).toBe(false);
    for (const value of [undefined, null, 'Connection terminated', 42]) expect(isDatabaseUnavailable(value)).toBe(false);
  });
});
