// Requests for one operation of the spec, as fast-check arbitraries: mostly schema-valid (values from
// test/contract/sample.ts, ids from the fixture world so they reach existing resources), and invalid
// in every way a client or an attacker could send: wrong types, missing and extra fields, long and odd
// strings, U+0000, deep nesting, odd numbers, tampered cursors, odd path ids, other media types, and
// the small inputs that are costly to parse (HURTING_SHAPES: deep or super-linear Markdown, nested
// HTML, YAML aliases, archives of deep entries).
import fc from 'fast-check';
import type { OpenApiDocument, SpecOperation } from '../../src/http/operations.js';
import { arbitrary, resolve, sample, wrongTypes, type ArbitraryOptions } from '../contract/sample.js';
import { zip } from '../support/zip.js';

export type Caller = 'owner' | 'outsider' | 'anonymous';

export type FuzzRequest = {
  caller: Caller;
  method: string;
  /** Path and query, already encoded as sent (odd values are sent raw on purpose). */
  url: string;
  contentType?: string;
  body?: string;
  /** Header parameters the operation declares (an `Idempotency-Key`), as sent. */
  headers?: Record<string, string>;
  /** What kind of request this is, for the report of a failure. */
  kind: string;
};

export type FuzzWorld = {
  /** Fixture values by path-parameter name (test/contract/fixtures.ts). */
  params: Record<string, string>;
  /** Every fixture id: values for id-shaped strings, and ids of the wrong kind for path parameters. */
  ids: string[];
  /** Real cursors of real lists, to tamper with. */
  cursors: string[];
};

type Schema = Record<string, any>;

// ---- odd values ----

/**
 * Text spliced into a serialized JSON body as is: numbers JSON.stringify cannot write (overflowing
 * ones, `-0`), nesting deeper than it should be built as objects.
 */
const RAW = '\u0001raw:';
const raw = (text: string) => `${RAW}${text}\u0001`;
const RAW_PATTERN = /"\\u0001raw:((?:[^"\\]|\\.)*?)\\u0001"/g;
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** `value` as JSON text, with the raw markers replaced by their text. */
export function serialize(value: unknown): string {
  return JSON.stringify(value).replace(RAW_PATTERN, (_match, escaped: string) => JSON.parse(`"${escaped}"`) as string);
}

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'x'.repeat(10_000),
  '\ud800',
  '\udfff\ud800',
  '😀'.repeat(300),
  '\u202eevil',
  '\u200b',
  'Ａ',
  'e\u0301',
  '<script>alert(1)</script>',
  "'; DROP TABLE users; --",
  '../../etc/passwd',
  '%00',
  '\\',
  '"',
  '\n\r\t',
  'null',
  '0',
  '-1',
  '1e1000',
  'NaN',
  'true',
];

const ODD_NUMBERS: unknown[] = [
  0,
  -1,
  0.5,
  1e308,
  -1e308,
  5e-324,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  -(2 ** 53),
  raw('-0'),
  raw('1e1000'),
  raw('-1e1000'),
  raw('1E400'),
  raw('1e-400'),
  raw('100000000000000000000000000000000000000000'),
];

const ODD_STRUCTURES: unknown[] = [
  null,
  true,
  false,
  [],
  ['x'],
  {},
  { unexpected: true },
  raw(nestedArrays(65)),
  raw(nestedArrays(3000)),
  raw(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`),
  Array.from({ length: 2000 }, () => 'x'),
  Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])),
  JSON.parse('{"__proto__":{"admin":true}}'),
  { constructor: { prototype: { admin: true } } },
];

/** An OpenAPI document of ~11 KB whose YAML aliases expand to ~1 GB (issue 25, item 1). */
function aliasBomb(): string {
  const lines = ['openapi: 3.1.0', 'info: {title: Aliases, version: "1"}', 'paths: {}', `x-s: &s "${'x'.repeat(10_000)}"`];
  for (let level = 0; level < 8; level++) lines.push(`x-${level}: &l${level} [${Array(10).fill(level === 0 ? '*s' : `*l${level - 1}`).join(', ')}]`);
  return lines.join('\n');
}

/**
 * Small inputs that once held the event loop for seconds or minutes, or overflowed its stack (issue 25),
 * by the kind of field they are aimed at. Sized to cost a parse worker at most about its deadline, so
 * the fuzz stays within CI time; test/hostile/hostile-inputs.test.ts sends the full-size ones.
 */
const HURTING_SHAPES = {
  markdown: [
    '>'.repeat(20_000),
    '- '.repeat(5_000) + 'x',
    '*a'.repeat(10_000),
    '[a`'.repeat(3_000),
    `${'<div>'.repeat(5_000)}deep`,
    `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    '> - '.repeat(3_000) + 'x',
  ],
  yaml: [aliasBomb(), `${'- '.repeat(5_000)}x`, `${'['.repeat(5_000)}${']'.repeat(5_000)}`, `${'{a: '.repeat(3_000)}1${'}'.repeat(3_000)}`],
  archive: [
    zip([{ name: 'quotes.md', data: '>'.repeat(100_000) }]),
    zip([{ name: `${'a/'.repeat(300)}page.md`, data: '# Deep' }]),
    zip([{ name: 'slow.md', data: `# Slow\n\n${'*a'.repeat(50_000)}` }]),
    zip([{ name: 'SUMMARY.md', data: `# Summary\n\n${'  '.repeat(2_000)}* [a](a.md)\n${Array.from({ length: 2_000 }, (_, i) => `${'  '.repeat(i)}* [p${i}](p${i}.md)`).join('\n')}` }]),
    zip([{ name: '.gitbook.yaml', data: aliasBomb() }, { name: 'README.md', data: '# Readme' }]),
  ].map((archive) => archive.toString('base64')),
} as const;

/** The shapes aimed at a string field, by its name: Markdown for bodies, YAML for documents' text, zips for archives. */
function hurtingShapesFor(key: string | number | undefined): readonly string[] {
  if (key === 'markdown' || key === 'description') return HURTING_SHAPES.markdown;
  if (key === 'text') return [...HURTING_SHAPES.yaml, ...HURTING_SHAPES.markdown];
  if (key === 'base64') return HURTING_SHAPES.archive;
  return [...HURTING_SHAPES.markdown, ...HURTING_SHAPES.yaml];
}

/** The names of the string fields costly inputs are aimed at first (the parsers' inputs). */
const PARSED_FIELDS = new Set(['markdown', 'text', 'base64', 'description']);

/**
 * `body` (a fresh copy) with a costly shape in one of its string fields: a field a parser reads when
 * the body has one (`markdown`, `text`, `base64`), any string otherwise, a new member failing both.
 */
function withHurtingShape(body: unknown, pick: number, shape: number): { body: unknown; kind: string } {
  const root = structuredClone(body);
  const strings = locations(root).filter((at) => at.parent && typeof at.value === 'string');
  const parsed = strings.filter((at) => PARSED_FIELDS.has(String(at.key)));
  const candidates = parsed.length ? parsed : strings;
  if (!candidates.length) return mutate(root, 0, 'add', HURTING_SHAPES.markdown[shape % HURTING_SHAPES.markdown.length]);
  const at = candidates[pick % candidates.length]!;
  const shapes = hurtingShapesFor(at.key);
  const value = shapes[shape % shapes.length]!;
  (at.parent as Record<string | number, unknown>)[at.key!] = value;
  return { body: root, kind: `costly shape #${shape % shapes.length} (${value.length} chars) at ${describePath(root, at)}` };
}

function oddValue(ids: string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...ODD_STRINGS),
    fc.constantFrom(...ODD_NUMBERS),
    fc.constantFrom(...ODD_STRUCTURES),
    fc.constantFrom(...ids),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.double(),
    fc.integer(),
  );
}

// ---- bodies ----

type Location = { parent: Record<string, unknown> | unknown[] | undefined; key: string | number | undefined; value: unknown };

/** Every node of a JSON value (the root first), iteratively. */
function locations(root: unknown): Location[] {
  const found: Location[] = [{ parent: undefined, key: undefined, value: root }];
  for (let index = 0; index < found.length; index++) {
    const { value } = found[index]!;
    if (Array.isArray(value)) value.forEach((item, key) => found.push({ parent: value, key, value: item }));
    else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) found.push({ parent: value as Record<string, unknown>, key, value: item });
  }
  return found;
}

type Mutation = 'replace' | 'delete' | 'add';

/**
 * `body` (a fresh copy) with one of its strings or numbers made odd in its own type: U+0000 spliced
 * into a string or an odd string in its place, an odd number for a number. Bodies without such a leaf
 * get the odd value as a member.
 */
function mutateLeaf(body: unknown, pick: number, oddString: string, splice: boolean, oddNumber: unknown): { body: unknown; kind: string } {
  const root = structuredClone(body);
  const leaves = locations(root).filter((at) => at.parent && (typeof at.value === 'string' || typeof at.value === 'number'));
  if (!leaves.length) return mutate(root, 0, 'add', oddString);
  const at = leaves[pick % leaves.length]!;
  const path = describePath(root, at);
  const parent = at.parent as Record<string | number, unknown>;
  if (typeof at.value === 'number') {
    parent[at.key!] = oddNumber;
    return { body: root, kind: `odd number at ${path}` };
  }
  const text = at.value as string;
  const middle = Math.floor(text.length / 2);
  parent[at.key!] = splice ? `${text.slice(0, middle)}\u0000${text.slice(middle)}` : oddString;
  return { body: root, kind: splice ? `U+0000 in the string at ${path}` : `odd string at ${path}` };
}

/** `body` (a fresh copy) with one node replaced by `odd`, removed, or given an extra member. */
function mutate(body: unknown, pick: number, how: Mutation, odd: unknown): { body: unknown; kind: string } {
  const root = structuredClone(body);
  const all = locations(root);
  const at = all[pick % all.length]!;
  const path = describePath(root, at);
  if (how === 'add' && at.value && typeof at.value === 'object') {
    if (Array.isArray(at.value)) at.value.push(odd);
    else (at.value as Record<string, unknown>).unexpectedField = odd;
    return { body: root, kind: `extra member at ${path}` };
  }
  if (how === 'delete' && at.parent) {
    if (Array.isArray(at.parent)) at.parent.splice(at.key as number, 1);
    else delete at.parent[at.key as string];
    return { body: root, kind: `${path} removed` };
  }
  if (!at.parent) return { body: odd, kind: 'body replaced by an odd value' };
  (at.parent as Record<string | number, unknown>)[at.key!] = odd;
  return { body: root, kind: `odd value at ${path}` };
}

function describePath(root: unknown, at: Location): string {
  if (!at.parent) return '/';
  const segments: Array<string | number> = [];
  // Walk down from the root to find the chain of keys (bodies are small: this stays cheap).
  const search = (node: unknown, trail: Array<string | number>): boolean => {
    if (node === at.parent) {
      segments.push(...trail, at.key!);
      return true;
    }
    if (node && typeof node === 'object') return Object.entries(node).some(([key, item]) => search(item, [...trail, Array.isArray(node) ? Number(key) : key]));
    return false;
  };
  search(root, []);
  return `/${segments.join('/')}`;
}

const RAW_BODIES = [
  '{"unterminated": ',
  ' ',
  'null',
  '[]',
  '"text"',
  '0',
  '{"a":1,"a":2}',
  '\ufeff{}',
  '{"__proto__":{"admin":true}}',
  nestedArrays(5000),
  '['.repeat(100_000),
  `{"x":"${'\\'.repeat(3)}"}`,
];

const OTHER_MEDIA_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=utf-32',
  'multipart/form-data; boundary=x',
  'application/merge-patch+json',
  'application/xml',
];

type BodyPart = { contentType?: string; body?: string; kind: string };

function jsonBody(spec: OpenApiDocument, schema: Schema, options: ArbitraryOptions): fc.Arbitrary<BodyPart> {
  const valid = arbitrary(spec, schema, options);
  const json = 'application/json';
  const wrongTyped = (wrongTypes(spec, schema).length ? fc.constantFrom(...wrongTypes(spec, schema)) : fc.constant(null)).map((body) => ({
    contentType: json,
    body: serialize(body),
    kind: 'body of a wrong type',
  }));
  return fc.oneof(
    { weight: 6, arbitrary: valid.map((body) => ({ contentType: json, body: serialize(body), kind: 'valid body' })) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.nat(), fc.oneof(fc.constantFrom(...ODD_STRINGS), fc.string({ unit: 'binary', maxLength: 20 })), fc.boolean(), fc.constantFrom(...ODD_NUMBERS))
        .map(([body, pick, oddString, splice, oddNumber]) => {
          const mutated = mutateLeaf(body, pick, oddString, splice, oddNumber);
          return { contentType: json, body: serialize(mutated.body), kind: mutated.kind };
        }),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.nat(), fc.constantFrom<Mutation>('replace', 'replace', 'delete', 'add'), oddValue(options.ids))
        .map(([body, pick, how, odd]) => {
          const mutated = mutate(body, pick, how, odd);
          return { contentType: json, body: serialize(mutated.body), kind: mutated.kind };
        }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.nat(), fc.nat()).map(([body, pick, shape]) => {
        const hurt = withHurtingShape(body, pick, shape);
        return { contentType: json, body: serialize(hurt.body), kind: hurt.kind };
      }),
    },
    { weight: 1, arbitrary: wrongTyped },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((body) => ({ contentType: json, body, kind: 'malformed JSON text' })) },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.constantFrom(...OTHER_MEDIA_TYPES, undefined)).map(([body, contentType]) => ({
        ...(contentType ? { contentType } : {}),
        body: serialize(body),
        kind: `valid body as ${contentType ?? 'no media type'}`,
      })),
    },
  );
}

function formBody(spec: OpenApiDocument, schema: Schema, options: ArbitraryOptions): fc.Arbitrary<BodyPart> {
  const form = 'application/x-www-form-urlencoded';
  const encode = (fields: Record<string, unknown>) => new URLSearchParams(Object.entries(fields).map(([key, value]): [string, string] => [key, String(value)])).toString();
  const valid = arbitrary(spec, schema, options) as fc.Arbitrary<Record<string, unknown>>;
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((fields) => ({ contentType: form, body: encode(fields), kind: 'valid form' })) },
    {
      weight: 4,
      arbitrary: fc.tuple(valid, fc.constantFrom(...ODD_STRINGS), fc.boolean()).map(([fields, odd, extra]) => {
        const key = extra ? 'unexpectedField' : (Object.keys(fields)[0] ?? 'unexpectedField');
        return { contentType: form, body: encode({ ...fields, [key]: odd }), kind: `odd form field ${key}` };
      }),
    },
    { weight: 1, arbitrary: valid.map((fields) => ({ contentType: 'application/json', body: serialize(fields), kind: 'form sent as JSON' })) },
    { weight: 1, arbitrary: fc.constantFrom('%zz', 'a=%00', '&&&=', 'x'.repeat(5000)).map((body) => ({ contentType: form, body, kind: 'malformed form' })) },
  );
}

/** A body for an operation that takes none: a client sending one anyway. */
const unexpectedBody: fc.Arbitrary<BodyPart> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({ kind: 'no body' }) },
  { weight: 1, arbitrary: fc.constantFrom('{}', '{"unexpected":1}', '{"unterminated": ', nestedArrays(5000)).map((body) => ({ contentType: 'application/json', body, kind: 'a body where none is taken' })) },
  { weight: 1, arbitrary: fc.constant({ contentType: 'text/plain', body: 'text', kind: 'a text body where none is taken' }) },
);

// ---- parameters ----

const ODD_PATH_SEGMENTS = [
  'bad%20id!',
  '%00',
  'a%00b',
  'x'.repeat(300),
  '0',
  '1',
  '2147483648',
  '99999999999999999999',
  '-1',
  '%zz',
  '%2F',
  'a%2Fb',
  '%C3%A9',
  '%E2%80%AE',
  '_',
  '-',
  '%20',
  'null',
  'undefined',
];

function pathValue(name: string, world: FuzzWorld): fc.Arbitrary<{ segment: string; odd: boolean }> {
  const fixture = world.params[name];
  return fc.oneof(
    ...(fixture ? [{ weight: 12, arbitrary: fc.constant({ segment: encodeURIComponent(fixture), odd: false }) }] : []),
    { weight: 1, arbitrary: fc.constantFrom(...world.ids).map((id) => ({ segment: encodeURIComponent(id), odd: id !== fixture })) },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{20}$/).map((id) => ({ segment: id, odd: true })) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_PATH_SEGMENTS).map((segment) => ({ segment, odd: true })) },
  );
}

const ODD_QUERY_VALUES = [
  '',
  '%20',
  'ten',
  'Infinity',
  '-Infinity',
  '1e1000',
  'NaN',
  '-1',
  '0',
  '1001',
  '1.5',
  '0x10',
  '%00',
  'a%00b',
  'x'.repeat(3000),
  '%zz',
  '%E2%80%AE',
  'true',
  'null',
];

/** A real cursor, tampered with (or of another list): every one must be a 400, never a 500. */
function tamperedCursor(cursors: string[]): fc.Arbitrary<string> {
  const real = cursors.length ? fc.constantFrom(...cursors) : fc.constant('eyJ4IjoxfQ');
  return fc.oneof(
    real,
    fc.tuple(real, fc.nat(), fc.constantFrom('A', '_', '-', '0', '%00', '.')).map(([cursor, at, char]) => {
      const index = at % Math.max(cursor.length, 1);
      return cursor.slice(0, index) + char + cursor.slice(index + 1);
    }),
    real.map((cursor) => cursor.slice(0, Math.floor(cursor.length / 2))),
    real.map((cursor) => `${cursor}x`),
    fc.constantFrom('eyJ4IjoxfQ', 'e30', 'W10', 'bnVsbA', 'eyJrIjpbbnVsbCwxZTEwMDBdfQ', Buffer.from('{"k":["x\u0000"],"q":"y"}').toString('base64url')),
    fc.base64String({ minLength: 4, maxLength: 80 }).map((text) => encodeURIComponent(text)),
  );
}

function queryValue(spec: OpenApiDocument, param: Schema, world: FuzzWorld, options: ArbitraryOptions): fc.Arbitrary<string[] | undefined> {
  const schema = resolve(spec, param.schema ?? {});
  const encode = (value: unknown) => encodeURIComponent(String(value));
  // A valid `page` is a cursor the server made for this very list: none is known ahead, so it is left out.
  const values = arbitrary(spec, schema, options, 0, param.name).map((value) => (Array.isArray(value) ? value.map(encode) : [encode(value)]));
  const valid = param.name === 'page' ? fc.constant(undefined) : values;
  const odd = fc.oneof(
    fc.constantFrom(...ODD_QUERY_VALUES).map((value) => [value]),
    values.map((list) => list.map((value) => `${value}%00`)),
    fc.tuple(fc.constantFrom(...ODD_QUERY_VALUES), fc.constantFrom(...ODD_QUERY_VALUES)).map(([a, b]) => [a, b]),
    ...(param.name === 'page' ? [tamperedCursor(world.cursors).map((cursor) => [cursor])] : []),
  );
  return fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 4, arbitrary: valid }, { weight: 2, arbitrary: odd });
}

/**
 * A header parameter's value (the writes' `Idempotency-Key`): often absent; valid, now and then from a
 * pool of three of the operation's own, so that its requests reuse keys (replays, and the same key with
 * another request: 422); or odd.
 */
function headerValue(spec: OpenApiDocument, operation: SpecOperation, param: Schema, options: ArbitraryOptions): fc.Arbitrary<string | undefined> {
  const schema = resolve(spec, param.schema ?? {});
  const pool = fc.constantFrom('a', 'b', 'c').map((name) => `fuzz-${operation.operationId}-${name}`);
  const valid = fc.oneof({ weight: 1, arbitrary: pool }, { weight: 4, arbitrary: arbitrary(spec, schema, options).map(String) });
  const odd = fc.constantFrom('', ' ', 'two words', 'x'.repeat(256), 'caf\u00e9', '\t', 'null', ',', 'a,b');
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 6, arbitrary: valid }, { weight: 1, arbitrary: odd });
}

// ---- the request ----

function parametersOf(spec: OpenApiDocument, operation: SpecOperation, where: 'path' | 'query' | 'header'): Schema[] {
  return (operation.definition.parameters as Schema[]).map((param) => resolve(spec, param)).filter((param) => param.in === where);
}

function bodyOf(spec: OpenApiDocument, operation: SpecOperation): { mediaType: string; schema: Schema } | undefined {
  const body = operation.definition.requestBody && resolve(spec, operation.definition.requestBody);
  const [mediaType, content] = Object.entries<Schema>(body?.content ?? {})[0] ?? [];
  return mediaType && content ? { mediaType, schema: content.schema } : undefined;
}

/**
 * Which fixture fits a property or parameter, by its name: `team` → `teamId`, and the names that do
 * not say their kind. Only a preference: any other id (of the wrong kind) is sent too.
 */
const FIXTURES_BY_NAME: Record<string, string[]> = {
  parent: ['collectionId', 'pageId'],
  owner: ['userId'],
  contributor: ['userId'],
  members: ['userId'],
  memberships: ['userId'],
  add: ['userId'],
  remove: ['userId'],
  defaultTeam: ['teamId'],
};

export function requestArbitrary(spec: OpenApiDocument, operation: SpecOperation, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const options: ArbitraryOptions = {
    ids: world.ids,
    idsFor: (name) => (FIXTURES_BY_NAME[name] ?? [`${name}Id`]).map((param) => world.params[param]).filter((id): id is string => id !== undefined),
    uris: ['http://127.0.0.1:9/resource'],
  };
  const caller: fc.Arbitrary<Caller> = operation.requiresAuth
    ? fc.constantFrom<Caller>('owner', 'owner', 'owner', 'owner', 'owner', 'owner', 'owner', 'owner', 'outsider', 'anonymous')
    : fc.constantFrom<Caller>('anonymous', 'anonymous', 'owner');

  const pathParams = parametersOf(spec, operation, 'path');
  const path = fc.tuple(...pathParams.map((param) => pathValue(param.name, world))).map((values) => {
    let index = 0;
    const url = operation.path.replace(/\{[^}]+\}/g, () => values[index++]!.segment);
    return { url, odd: values.filter((value) => value.odd).length };
  });

  const queryParams = parametersOf(spec, operation, 'query');
  const query = fc
    .tuple(
      fc.tuple(...queryParams.map((param) => queryValue(spec, param, world, options))),
      fc.oneof({ weight: 9, arbitrary: fc.constant([] as string[]) }, { weight: 1, arbitrary: fc.constantFrom(['unknownParameter=1'], ['limit[x]=1'], ['%00=1'], ['page[]=a']) }),
    )
    .map(([values, extra]) => {
      const pairs = queryParams.flatMap((param, index) => (values[index] ?? []).map((value) => `${encodeURIComponent(param.name)}=${value}`));
      return [...pairs, ...extra].join('&');
    });

  const headerParams = parametersOf(spec, operation, 'header');
  const headers = fc.tuple(...headerParams.map((param) => headerValue(spec, operation, param, options))).map((values) =>
    Object.fromEntries(headerParams.flatMap((param, index) => (values[index] === undefined ? [] : [[param.name as string, values[index]!]]))),
  );

  const body = bodyOf(spec, operation);
  const bodyPart: fc.Arbitrary<BodyPart> = !body
    ? unexpectedBody
    : body.mediaType === 'application/json'
      ? jsonBody(spec, body.schema, options)
      : formBody(spec, body.schema, options);

  return fc.tuple(caller, path, query, headers, bodyPart).map(([who, { url, odd }, search, sent, part]) => {
    const method = operation.method.toUpperCase();
    // GET and DELETE bodies are not read by the server (and fetch refuses to send one with GET).
    const sendsBody = part.body !== undefined && method !== 'GET';
    return {
      caller: who,
      method,
      url: search ? `${url}?${search}` : url,
      ...(sendsBody && part.contentType ? { contentType: part.contentType } : {}),
      ...(sendsBody ? { body: part.body } : {}),
      ...(Object.keys(sent).length ? { headers: sent } : {}),
      kind: [who, odd ? `${odd} odd path id(s)` : 'fixture ids', search ? 'query' : '', Object.keys(sent).join(' '), sendsBody ? part.kind : 'no body'].filter(Boolean).join(', '),
    };
  });
}

/** The minimal valid body, for requests a test makes outside the property (world checks). */
export function minimalBody(spec: OpenApiDocument, operation: SpecOperation): unknown {
  const body = bodyOf(spec, operation);
  return body ? sample(spec, body.schema) : undefined;
}
