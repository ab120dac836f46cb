import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { createErrorMiddleware } from './error-middleware.js';

const errorMiddleware = createErrorMiddleware({ team_members_organization_id_user_id_fkey: 'The member was removed meanwhile' });
import { notFound } from '../errors.js';

function render(error: unknown): { status: number; body: unknown; headers: Record<string, string> } {
  const out = { status: 0, body: undefined as unknown, headers: {} as Record<string, string> };
  const res = {
    headersSent: false,
    set(headers: Record<string, string>) {
      Object.assign(out.headers, headers);
      return this;
    },
    status(code: number) {
      out.status = code;
      return this;
    },
    json(body: unknown) {
      out.body = body;
      return this;
    },
  } as unknown as Response;
  const req = { headers: {}, log: { debug() {}, warn() {}, error() {} } } as unknown as Request;
  errorMiddleware(error, req, res, () => {});
  return out;
}

describe('errorMiddleware', () => {
  it('renders HttpErrors in the error shape', () => {
    expect(render(notFound('Space'))).toMatchObject({ status: 404, body: { error: { code: 404, message: 'Space not found' } } });
  });

  it('turns database races into a 409 and anything unknown into a bare 500', () => {
    for (const race of [{ code: '23503', constraint: 'team_members_organization_id_user_id_fkey' }, { code: '40001' }, { code: '40P01' }]) {
      const { status, body } = render(Object.assign(new Error('database detail that must not leak'), race));
      expect(status).toBe(409);
      expect(JSON.stringify(body)).not.toContain('must not leak');
    }
    // A constraint no area names is a bug, not a race.
    for (const unknown of [{ code: '23505', constraint: 'space_head_pages_path_key' }, { code: '23503' }]) {
      expect(render(Object.assign(new Error('database detail that must not leak'), unknown))).toEqual({ status: 500, body: { error: { code: 500, message: 'Internal server error' } }, headers: {} });
    }
    expect(render(new Error('secret internals'))).toEqual({ status: 500, body: { error: { code: 500, message: 'Internal server error' } }, headers: {} });
  });

  it('maps body-parser and validator errors', () => {
    expect(render(Object.assign(new Error('x'), { status: 400, type: 'entity.parse.failed' })).body).toEqual({ error: { code: 400, message: 'The body is not valid JSON' } });
    expect(render(Object.assign(new Error('x'), { status: 413, type: 'entity.too.large' })).status).toBe(413);
    const validation = render(Object.assign(new Error('x'), { status: 400, errors: [{ path: '/params/spaceId', message: 'must match pattern' }] }));
    expect(validation.body).toEqual({ error: { code: 400, message: '/path/spaceId must match pattern', issues: [{ path: '/path/spaceId', message: 'must match pattern' }] } });
    expect(render(Object.assign(new Error('x'), { status: 401, errors: [{ message: 'Authorization header required' }] }))).toMatchObject({
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer' },
      body: { error: { code: 401, message: 'Missing bearer token' } },
    });
  });

  it('answers a lost or unreachable database with 503 and Retry-After, in the error shape, without details', () => {
    const lost = [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ];
    for (const error of lost) {
      expect(render(error)).toEqual({
        status: 503,
        headers: { 'Retry-After': '2' },
        body: { error: { code: 503, message: 'The database is unavailable; retry shortly' } },
      });
    }
  });
});
