// The rules of what is breaking (spec-rules.ts), each planted in a small multi-file spec.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compareSpecs, type Change } from './spec-compare.js';
import { loadSpec } from './spec-source.js';

type Files = Record<string, any>;

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ref = (file: string) => ({ $ref: file });

/** A small spec shaped like ours: openapi.yaml with paths as $refs, one file per component. */
function baseFiles(): Files {
  return {
    'openapi.yaml': {
      openapi: '3.1.0',
      info: { title: 'Things', version: '1.4.0' },
      security: [{ bearerAuth: [] }],
      paths: { '/things': ref('paths/things.yaml'), '/things/{thingId}': ref('paths/thing.yaml') },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    'paths/things.yaml': {
      get: {
        operationId: 'listThings',
        summary: 'List things',
        'x-access': { scope: 'organization', minimum: 'member' },
        parameters: [ref('../components/parameters/Limit.yaml')],
        responses: { '200': { description: 'Things.', ...json(ref('../components/schemas/ThingList.yaml')) } },
      },
      post: {
        operationId: 'createThing',
        summary: 'Create a thing',
        'x-access': { scope: 'organization', minimum: 'create' },
        requestBody: { required: true, ...json(ref('../components/schemas/ThingInput.yaml')) },
        responses: { '201': { description: 'Created.', ...json(ref('../components/schemas/Thing.yaml')) } },
      },
    },
    'paths/thing.yaml': {
      parameters: [ref('../components/parameters/ThingId.yaml')],
      get: {
        operationId: 'getThing',
        'x-sdk-name': 'things.get',
        summary: 'Get a thing',
        description: 'Needs `read` on the thing.',
        'x-access': { scope: 'space', minimum: 'read' },
        parameters: [{ name: 'verbose', in: 'query', required: false, schema: { type: 'boolean' } }],
        responses: {
          '200': { description: 'The thing.', ...json(ref('../components/schemas/Thing.yaml')) },
          '404': ref('../components/responses/NotFound.yaml'),
        },
      },
      patch: {
        operationId: 'updateThing',
        summary: 'Update a thing',
        'x-access': { scope: 'space', minimum: 'edit' },
        requestBody: { required: true, ...json(ref('../components/schemas/ThingInput.yaml')) },
        responses: {
          '200': { description: 'The thing.', ...json(ref('../components/schemas/Thing.yaml')) },
          '404': ref('../components/responses/NotFound.yaml'),
        },
      },
    },
    'components/parameters/Limit.yaml': { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } },
    'components/parameters/ThingId.yaml': { name: 'thingId', in: 'path', required: true, schema: ref('../schemas/Id.yaml') },
    'components/responses/NotFound.yaml': { description: 'Not found.', ...json(ref('../schemas/Error.yaml')) },
    'components/schemas/Id.yaml': { type: 'string', pattern: '^[A-Za-z0-9]{20}$' },
    'components/schemas/Error.yaml': { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    'components/schemas/ThingList.yaml': { type: 'object', required: ['items'], properties: { items: { type: 'array', items: ref('./Thing.yaml') } } },
    'components/schemas/Thing.yaml': {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'name', 'kind'],
      properties: {
        id: ref('./Id.yaml'),
        name: { type: 'string', maxLength: 50, description: 'What the thing is called.' },
        kind: { type: 'string', enum: ['box', 'bag'] },
        color: { type: 'string' },
        shared: ref('./Shared.yaml'),
      },
    },
    'components/schemas/ThingInput.yaml': {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: { type: 'string', maxLength: 50 },
        kind: { type: 'string', enum: ['box', 'bag'], default: 'box' },
        color: { type: 'string' },
        shared: ref('./Shared.yaml'),
      },
    },
    // Used in a request (ThingInput) and in responses (Thing).
    'components/schemas/Shared.yaml': { type: 'object', additionalProperties: false, properties: { note: { type: 'string', maxLength: 200 } } },
  };
}

function load(files: Files) {
  const texts = new Map(Object.entries(files).map(([path, data]) => [path, stringify(data)]));
  return loadSpec((path) => texts.get(path));
}

/** The changes made by `edit` to a copy of the base files. */
function diff(edit: (files: Files) => void): Change[] {
  return compareSpecs(load(baseFiles()), load(edited(edit))).changes;
}

function edited(edit: (files: Files) => void): Files {
  const files = baseFiles();
  edit(files);
  return files;
}

/** The 1-based line of the first line of a file (as `load` writes it) that starts with `prefix` after its indentation. */
function lineOf(files: Files, file: string, prefix: string): number {
  const index = stringify(files[file]).split('\n').findIndex((line) => line.trimStart().startsWith(prefix));
  if (index < 0) throw new Error(`${prefix} not in ${file}`);
  return index + 1;
}

const brief = (changes: Change[]) => changes.map((change) => ({ rule: change.rule, severity: change.severity, at: change.at }));

describe('spec diff rules', () => {
  it('finds no change between equal specs', () => {
    expect(diff(() => {})).toEqual([]);
  });

  it.each<[string, (files: Files) => void, Array<{ rule: string; severity: string; at: string }>]>([
    ['a removed operation is breaking', (f) => delete f['paths/thing.yaml'].patch, [{ rule: 'operation-removed', severity: 'breaking', at: 'PATCH /things/{thingId}' }]],
    [
      'an added operation is not',
      (f) => (f['paths/thing.yaml'].delete = { operationId: 'deleteThing', summary: 'Delete', responses: { '204': { description: 'Gone.' } } }),
      [{ rule: 'operation-added', severity: 'non-breaking', at: 'DELETE /things/{thingId}' }],
    ],
    [
      'a field removed from a response is breaking',
      (f) => delete f['components/schemas/Thing.yaml'].properties.color,
      [{ rule: 'property-removed', severity: 'breaking', at: '#/components/schemas/Thing/properties/color' }],
    ],
    [
      'a response field made optional is breaking',
      (f) => (f['components/schemas/Thing.yaml'].required = ['id', 'kind']),
      [{ rule: 'property-made-optional', severity: 'breaking', at: '#/components/schemas/Thing/properties/name' }],
    ],
    [
      'a request field made optional is not',
      (f) => (f['components/schemas/ThingInput.yaml'].required = []),
      [{ rule: 'property-made-optional', severity: 'non-breaking', at: '#/components/schemas/ThingInput/properties/name' }],
    ],
    [
      'a request field made required is breaking',
      (f) => f['components/schemas/ThingInput.yaml'].required.push('color'),
      [{ rule: 'property-made-required', severity: 'breaking', at: '#/components/schemas/ThingInput/properties/color' }],
    ],
    [
      'a response field made required is not',
      (f) => f['components/schemas/Thing.yaml'].required.push('color'),
      [{ rule: 'property-made-required', severity: 'non-breaking', at: '#/components/schemas/Thing/properties/color' }],
    ],
    [
      'a field of a schema used both ways is judged by the stricter direction',
      (f) => (f['components/schemas/Shared.yaml'].required = ['note']),
      [{ rule: 'property-made-required', severity: 'breaking', at: '#/components/schemas/Shared/properties/note' }],
    ],
    [
      'a response field made nullable is breaking',
      (f) => (f['components/schemas/Thing.yaml'].properties.color.type = ['string', 'null']),
      [{ rule: 'nullable-added', severity: 'breaking', at: '#/components/schemas/Thing/properties/color' }],
    ],
    [
      'a request field made nullable is not',
      (f) => (f['components/schemas/ThingInput.yaml'].properties.color.type = ['string', 'null']),
      [{ rule: 'nullable-added', severity: 'non-breaking', at: '#/components/schemas/ThingInput/properties/color' }],
    ],
    [
      'a type change is breaking',
      (f) => (f['components/schemas/Thing.yaml'].properties.color = { type: 'integer' }),
      [{ rule: 'type-changed', severity: 'breaking', at: '#/components/schemas/Thing/properties/color' }],
    ],
    [
      'a narrowed limit in a request is breaking',
      (f) => (f['components/schemas/ThingInput.yaml'].properties.name.maxLength = 40),
      [{ rule: 'limit-narrowed', severity: 'breaking', at: '#/components/schemas/ThingInput/properties/name/maxLength' }],
    ],
    [
      'a widened limit in a request is not',
      (f) => (f['components/schemas/ThingInput.yaml'].properties.name.maxLength = 80),
      [{ rule: 'limit-widened', severity: 'non-breaking', at: '#/components/schemas/ThingInput/properties/name/maxLength' }],
    ],
    [
      'a narrowed limit of a parameter component is breaking',
      (f) => (f['components/parameters/Limit.yaml'].schema.maximum = 50),
      [{ rule: 'limit-narrowed', severity: 'breaking', at: '#/components/parameters/Limit/schema/maximum' }],
    ],
    [
      'a removed enum value is breaking',
      (f) => (f['components/schemas/ThingInput.yaml'].properties.kind.enum = ['box']),
      [{ rule: 'enum-value-removed', severity: 'breaking', at: '#/components/schemas/ThingInput/properties/kind/enum/bag' }],
    ],
    [
      'an enum value added to a request is not breaking',
      (f) => f['components/schemas/ThingInput.yaml'].properties.kind.enum.push('crate'),
      [{ rule: 'enum-value-added', severity: 'non-breaking', at: '#/components/schemas/ThingInput/properties/kind/enum/crate' }],
    ],
    [
      'an enum value added to a response is breaking',
      (f) => f['components/schemas/Thing.yaml'].properties.kind.enum.push('crate'),
      [{ rule: 'enum-value-added', severity: 'breaking', at: '#/components/schemas/Thing/properties/kind/enum/crate' }],
    ],
    [
      'a changed default of a request field is breaking',
      (f) => (f['components/schemas/ThingInput.yaml'].properties.kind.default = 'bag'),
      [{ rule: 'default-changed', severity: 'breaking', at: '#/components/schemas/ThingInput/properties/kind/default' }],
    ],
    [
      'an optional field added to a request is not breaking',
      (f) => (f['components/schemas/ThingInput.yaml'].properties.size = { type: 'integer' }),
      [{ rule: 'property-added', severity: 'non-breaking', at: '#/components/schemas/ThingInput/properties/size' }],
    ],
    [
      'a required field added to a request is breaking',
      (f) => {
        f['components/schemas/ThingInput.yaml'].properties.size = { type: 'integer' };
        f['components/schemas/ThingInput.yaml'].required.push('size');
      },
      [{ rule: 'required-property-added', severity: 'breaking', at: '#/components/schemas/ThingInput/properties/size' }],
    ],
    [
      'a new required parameter is breaking',
      (f) => f['paths/thing.yaml'].get.parameters.push({ name: 'lang', in: 'query', required: true, schema: { type: 'string' } }),
      [{ rule: 'required-parameter-added', severity: 'breaking', at: 'GET /things/{thingId}#/parameters/query/lang' }],
    ],
    [
      'a new optional parameter is not',
      (f) => f['paths/thing.yaml'].get.parameters.push({ name: 'lang', in: 'query', required: false, schema: { type: 'string' } }),
      [{ rule: 'parameter-added', severity: 'non-breaking', at: 'GET /things/{thingId}#/parameters/query/lang' }],
    ],
    [
      'a removed parameter is breaking',
      (f) => (f['paths/thing.yaml'].get.parameters = []),
      [{ rule: 'parameter-removed', severity: 'breaking', at: 'GET /things/{thingId}#/parameters/query/verbose' }],
    ],
    [
      'a parameter made required is breaking',
      (f) => (f['paths/thing.yaml'].get.parameters[0].required = true),
      [{ rule: 'parameter-made-required', severity: 'breaking', at: 'GET /things/{thingId}#/parameters/query/verbose' }],
    ],
    [
      'a changed success status is breaking',
      (f) => {
        const responses = f['paths/things.yaml'].post.responses;
        responses['200'] = responses['201'];
        delete responses['201'];
      },
      [
        { rule: 'success-response-removed', severity: 'breaking', at: 'POST /things#/responses/201' },
        { rule: 'success-response-added', severity: 'breaking', at: 'POST /things#/responses/200' },
      ],
    ],
    [
      'a newly documented error response is not breaking',
      (f) => (f['paths/things.yaml'].get.responses['429'] = { description: 'Slow down.' }),
      [{ rule: 'error-response-added', severity: 'non-breaking', at: 'GET /things#/responses/429' }],
    ],
    [
      'a stricter access rule is breaking',
      (f) => (f['paths/thing.yaml'].get['x-access'].minimum = 'comment'),
      [{ rule: 'access-stricter', severity: 'breaking', at: 'GET /things/{thingId}#/x-access' }],
    ],
    [
      'a looser access rule is not',
      (f) => (f['paths/thing.yaml'].patch['x-access'].minimum = 'comment'),
      [{ rule: 'access-looser', severity: 'non-breaking', at: 'PATCH /things/{thingId}#/x-access' }],
    ],
    [
      'an access rule moved to another scope or named rule cannot be ranked: breaking',
      (f) => (f['paths/thing.yaml'].get['x-access'] = { scope: 'space', minimum: 'read', rule: ['sso-enforced', 'unlocked'] }),
      [{ rule: 'access-changed', severity: 'breaking', at: 'GET /things/{thingId}#/x-access' }],
    ],
    [
      'a named rule added with another minimum cannot be ranked: breaking',
      (f) => (f['paths/things.yaml'].post['x-access'] = { scope: 'organization', minimum: 'admin', rule: ['create-in-parent'] }),
      [{ rule: 'access-changed', severity: 'breaking', at: 'POST /things#/x-access' }],
    ],
    [
      'an operation made public is looser',
      (f) => (f['paths/thing.yaml'].get['x-access'] = { scope: 'public' }),
      [{ rule: 'access-looser', severity: 'non-breaking', at: 'GET /things/{thingId}#/x-access' }],
    ],
    [
      'a token made optional is not breaking',
      (f) => (f['paths/thing.yaml'].get.security = [{ bearerAuth: [] }, {}]),
      [{ rule: 'security-removed', severity: 'non-breaking', at: 'GET /things/{thingId}#/security' }],
    ],
    [
      'a changed operationId is breaking (the SDK is named after it)',
      (f) => (f['paths/thing.yaml'].get.operationId = 'getThingById'),
      [{ rule: 'operation-id-changed', severity: 'breaking', at: 'GET /things/{thingId}#/operationId' }],
    ],
    [
      'a changed SDK name is breaking (calls by the old name stop compiling)',
      (f) => (f['paths/thing.yaml'].get['x-sdk-name'] = 'things.getById'),
      [{ rule: 'sdk-name-changed', severity: 'breaking', at: 'GET /things/{thingId}#/x-sdk-name' }],
    ],
    [
      'a removed SDK name is breaking',
      (f) => delete f['paths/thing.yaml'].get['x-sdk-name'],
      [{ rule: 'sdk-name-changed', severity: 'breaking', at: 'GET /things/{thingId}#/x-sdk-name' }],
    ],
    [
      'an SDK name declared where there was none is the baseline, not breaking',
      (f) => (f['paths/things.yaml'].get['x-sdk-name'] = 'things.list'),
      [{ rule: 'sdk-name-declared', severity: 'non-breaking', at: 'GET /things#/x-sdk-name' }],
    ],
    [
      'a changed schema of an error response component reaches the operations using it',
      (f) => delete f['components/schemas/Error.yaml'].properties.message,
      [{ rule: 'property-removed', severity: 'breaking', at: '#/components/schemas/Error/properties/message' }],
    ],
  ])('%s', (_name, edit, expected) => {
    expect(brief(diff(edit))).toEqual(expected);
  });

  it('a token required where none was is breaking', () => {
    const open = edited((f) => (f['paths/thing.yaml'].get.security = []));
    expect(brief(compareSpecs(load(open), load(baseFiles())).changes)).toEqual([{ rule: 'security-added', severity: 'breaking', at: 'GET /things/{thingId}#/security' }]);
  });

  it('names every operation a changed schema reaches, through lists, responses and parameters', () => {
    const [thing] = diff((f) => (f['components/schemas/Thing.yaml'].required = ['id', 'kind']));
    expect(thing!.operations).toEqual([
      { key: 'GET /things', operationId: 'listThings', via: '200 response › ThingList › Thing' },
      { key: 'GET /things/{thingId}', operationId: 'getThing', via: '200 response › Thing' },
      { key: 'PATCH /things/{thingId}', operationId: 'updateThing', via: '200 response › Thing' },
      { key: 'POST /things', operationId: 'createThing', via: '201 response › Thing' },
    ]);
    const [id] = diff((f) => (f['components/schemas/Id.yaml'].pattern = '^[a-z]{20}$'));
    expect(id).toMatchObject({ rule: 'pattern-changed', severity: 'breaking', at: '#/components/schemas/Id/pattern', before: '^[A-Za-z0-9]{20}$', after: '^[a-z]{20}$' });
    expect(id!.operations.map((operation) => `${operation.key} (${operation.via})`)).toEqual([
      'GET /things (200 response › ThingList › Thing › Id)',
      'GET /things/{thingId} (parameters › ThingId › Id)',
      'PATCH /things/{thingId} (parameters › ThingId › Id)',
      'POST /things (201 response › Thing › Id)',
    ]);
    const [error] = diff((f) => delete f['components/schemas/Error.yaml'].properties.message);
    expect(error!.operations.map((operation) => operation.via)).toEqual(['404 response › NotFound › Error', '404 response › NotFound › Error']);
  });

  it('reports changed descriptions with their old and new text and their line', () => {
    const changes = diff((f) => (f['components/schemas/Thing.yaml'].properties.name.description = 'Its name.'));
    expect(changes.map((change) => change.operations.length)).toEqual([4]);
    expect(changes).toEqual([
      expect.objectContaining({
        rule: 'description-changed',
        severity: 'info',
        at: '#/components/schemas/Thing/properties/name/description',
        before: 'What the thing is called.',
        after: 'Its name.',
        location: { file: 'spec/components/schemas/Thing.yaml', line: lineOf(baseFiles(), 'components/schemas/Thing.yaml', 'description:'), side: 'head' },
      }),
    ]);
  });

  it('points at the changed line of the spec file, or at the base when the thing is gone', () => {
    const makeOptional = (f: Files) => (f['components/schemas/Thing.yaml'].required = ['id', 'kind']);
    const [optional] = diff(makeOptional);
    expect(optional!.location).toEqual({ file: 'spec/components/schemas/Thing.yaml', line: lineOf(edited(makeOptional), 'components/schemas/Thing.yaml', 'name:'), side: 'head' });
    const [removed] = diff((f) => delete f['paths/thing.yaml'].patch);
    expect(removed!.location).toEqual({ file: 'spec/paths/thing.yaml', line: lineOf(baseFiles(), 'paths/thing.yaml', 'patch:'), side: 'base' });
  });

  it('reports a changed meaning of a named access rule with its text and the operations naming it', () => {
    const withRule = (text: string) => (f: Files) => {
      f['openapi.yaml']['x-access-rules'] = { unlocked: text };
      f['paths/thing.yaml'].patch['x-access'].rule = 'unlocked';
    };
    const base = edited(withRule('Refused while the thing is locked.'));
    const head = edited(withRule('Refused while the thing or its parent is locked.'));
    expect(compareSpecs(load(base), load(head)).changes).toEqual([
      expect.objectContaining({
        rule: 'description-changed',
        at: '#/x-access-rules/unlocked',
        before: 'Refused while the thing is locked.',
        after: 'Refused while the thing or its parent is locked.',
        operations: [{ key: 'PATCH /things/{thingId}', operationId: 'updateThing', via: 'x-access rule unlocked' }],
      }),
    ]);
  });

  it('reports an x-access change with both rules, stricter or looser', () => {
    const [stricter] = diff((f) => (f['paths/thing.yaml'].get['x-access'].minimum = 'admin'));
    expect(stricter).toMatchObject({
      rule: 'access-stricter',
      message: 'access changed from `read` on the space to `admin` on the space',
      before: { scope: 'space', minimum: 'read' },
      after: { scope: 'space', minimum: 'admin' },
    });
    const [undeclared] = diff((f) => delete f['paths/thing.yaml'].get['x-access']);
    expect(undeclared).toMatchObject({ rule: 'access-undeclared', severity: 'breaking' });
    // The lead's change: operations that described their access in prose now declare it.
    const before = edited((f) => delete f['paths/thing.yaml'].get['x-access']);
    const [declared] = compareSpecs(load(before), load(baseFiles())).changes;
    expect(declared).toMatchObject({ rule: 'access-declared', severity: 'non-breaking', message: 'access declared: `read` on the space' });
  });
});
