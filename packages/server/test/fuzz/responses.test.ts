// The fuzz suite's judge must be able to fail: each promise of the spec it checks, broken once.
import { describe, expect, it } from 'vitest';
import { listOperations, loadSpec } from '../../src/http/operations.js';
import { createResponseChecker } from './responses.js';

const spec = loadSpec();
const checker = createResponseChecker(spec);
const operation = (id: string) => listOperations(spec).find((candidate) => candidate.operationId === id)!;
const json = (status: number, body: unknown) => ({ status, contentType: 'application/json; charset=utf-8', text: JSON.stringify(body) });

describe('createResponseChecker', () => {
  const user = { object: 'user', id: 'ABCDEFGHIJKLMNOPQRST', displayName: 'Ada', email: 'ada@example.com', urls: { location: 'http://api.test/v1/users/ABCDEFGHIJKLMNOPQRST' } };

  it('accepts what the spec declares', () => {
    expect(checker.problems(operation('getAuthenticatedUser'), json(200, user))).toEqual([]);
    expect(checker.problems(operation('getAuthenticatedUser'), json(401, { error: { code: 401, message: 'Missing bearer token' } }))).toEqual([]);
    expect(checker.problems(operation('deleteSpaceById'), { status: 205, contentType: null, text: '' })).toEqual([]);
  });

  it('refuses a 5xx, an undeclared status, a body off its schema, a wrong error code, a body where none is declared', () => {
    const problems = (status: number, body: unknown, id = 'getAuthenticatedUser') => checker.problems(operation(id), json(status, body));
    expect(problems(500, { error: { code: 500, message: 'Internal server error' } })).toEqual([expect.stringMatching(/^answered 500/)]);
    expect(problems(404, { error: { code: 404, message: 'Not found' } })).toEqual([expect.stringMatching(/does not declare/)]);
    expect(problems(200, { ...user, email: 42 })).toEqual([expect.stringMatching(/body the spec does not allow/)]);
    expect(problems(200, { ...user, extra: true })).toEqual([expect.stringMatching(/body the spec does not allow/)]);
    expect(problems(400, { error: { code: 404, message: 'x' } })).toEqual([expect.stringMatching(/is not the status 400/)]);
    expect(problems(205, {}, 'deleteSpaceById')).toEqual([expect.stringMatching(/declares none/)]);
    expect(checker.problems(operation('getAuthenticatedUser'), { status: 200, contentType: 'text/html', text: '<p>' })).toEqual([expect.stringMatching(/not JSON/)]);
  });
});
