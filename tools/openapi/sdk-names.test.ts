// The SDK names declared in the contract (x-sdk-name): every operation has one, no two alike, each a
// verb of the small set in sdk-operations.ts, and codegen refuses a contract that breaks any of that.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './paths.js';
import { namedOperations, SDK_VERBS, type NamedOperation } from './sdk-operations.js';
import type { OpenApiDocument } from './bundle.js';

const contract = JSON.parse(readFileSync(join(repoRoot, 'packages/contract/openapi.json'), 'utf8')) as OpenApiDocument;

describe('the SDK names of the contract', () => {
  const operations = namedOperations(contract);

  it('name every operation, none twice', () => {
    const count = Object.values(contract.paths as Record<string, Record<string, unknown>>).reduce(
      (sum, item) => sum + ['get', 'put', 'post', 'delete', 'patch'].filter((method) => item[method]).length,
      0,
    );
    expect(operations).toHaveLength(count);
    expect(new Set(operations.map(({ sdkName }) => sdkName)).size).toBe(count);
  });

  it('give the five usual operations of a resource their usual verbs', () => {
    const byId = new Map(operations.map((operation) => [operation.operationId, operation.sdkName]));
    expect(byId.get('listSpacesInOrganization')).toBe('spaces.list');
    expect(byId.get('getSpaceById')).toBe('spaces.get');
    expect(byId.get('createSpace')).toBe('spaces.create');
    expect(byId.get('updateSpaceById')).toBe('spaces.update');
    expect(byId.get('deleteSpaceById')).toBe('spaces.delete');
    expect(byId.get('mergeChangeRequest')).toBe('changeRequests.merge');
    expect(byId.get('listCommentsInChangeRequest')).toBe('changeRequests.comments.list');
    expect(byId.get('applyChangeRequestContentChanges')).toBe('changeRequests.content.apply');
    expect(byId.get('applySpaceContentChanges')).toBe('spaces.content.apply');
  });

  it('use only the SDK verbs, reading verbs for reads and writing verbs for writes', () => {
    const verbOf = ({ name }: NamedOperation) => /^[a-z]+/.exec(name)![0];
    for (const operation of operations) {
      const verbs: readonly string[] = operation.method === 'get' ? SDK_VERBS.read : SDK_VERBS.write;
      expect(verbs, `${operation.sdkName} (${operation.operationId})`).toContain(verbOf(operation));
    }
  });
});

describe('codegen of the SDK names', () => {
  const document = (paths: Record<string, unknown>) => ({ openapi: '3.1.0', paths });
  const get = (operationId: string, sdkName?: string) => ({ get: { operationId, ...(sdkName ? { 'x-sdk-name': sdkName } : {}) } });
  const post = (operationId: string, sdkName: string) => ({ post: { operationId, 'x-sdk-name': sdkName } });

  it('refuses an operation without a name, or with a malformed one', () => {
    expect(() => namedOperations(document({ '/a': get('getA') }))).toThrow('getA (GET /a) has no x-sdk-name');
    expect(() => namedOperations(document({ '/a': get('getA', 'get') }))).toThrow('is not <group>[.<group>…].<method>');
    expect(() => namedOperations(document({ '/a': get('getA', 'Things.get') }))).toThrow('is not <group>[.<group>…].<method>');
    expect(() => namedOperations(document({ '/a': get('getA', 'client.get') }))).toThrow('`client` is a property');
  });

  it('refuses two operations of one name, and a name that is also a group', () => {
    expect(() => namedOperations(document({ '/a': get('getA', 'things.get'), '/b': get('getB', 'things.get') }))).toThrow(
      'getA and getB are both named things.get',
    );
    expect(() => namedOperations(document({ '/a': get('listA', 'things.comments'), '/b': get('listB', 'things.comments.list') }))).toThrow(
      'listA',
    );
  });

  it('refuses a verb outside the set, a reading verb on a write and a writing verb on a read', () => {
    expect(() => namedOperations(document({ '/a': get('fetchA', 'things.fetch') }))).toThrow('"fetch", which is not one of the SDK\'s verbs');
    expect(() => namedOperations(document({ '/a': post('getA', 'things.getNew') }))).toThrow('uses a reading verb for a POST operation');
    expect(() => namedOperations(document({ '/a': get('deleteA', 'things.delete') }))).toThrow('uses a writing verb for a GET operation');
  });

  it('refuses a path parameter named like an argument key', () => {
    expect(() => namedOperations(document({ '/a/{body}': get('getA', 'things.get') }))).toThrow('the path parameter {body} clashes');
  });

  it('accepts a verb followed by a qualifier', () => {
    expect(namedOperations(document({ '/a': get('getA', 'things.pages.getByPath') }))[0]).toMatchObject({
      groups: ['things', 'pages'],
      name: 'getByPath',
    });
  });
});
