// Processing against local fixtures: a small HTTP server serves good, multi-file, slow, failing and
// garbage documents; references that would read the server's disk are refused without touching it.
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_EXPANSION, processOpenAPISource, type ProcessLimits, type ProcessOutcome } from './openapi-processing.js';
import { parseYaml as fixturesParse } from '@redocly/openapi-core';
import { startFixtureServer, type FixtureServer } from '../../../test/support/openapi-fixtures.js';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures.close();
});

const limits = (overrides: Partial<ProcessLimits> = {}): ProcessLimits => ({
  outbound: { allowPrivate: true, timeoutMs: 2000, maxBytes: 1024 * 1024 },
  maxFiles: 20,
  timeoutMs: 10_000,
  ...overrides,
});

function failure(outcome: ProcessOutcome) {
  if (outcome.ok) throw new Error('expected a failure');
  return outcome;
}

function success(outcome: ProcessOutcome) {
  if (!outcome.ok) throw new Error(`expected a success, got ${outcome.code}: ${JSON.stringify(outcome.errors)}`);
  return { filesystem: JSON.parse(outcome.filesystem), bundle: JSON.parse(outcome.bundle), contentHash: outcome.contentHash };
}

/** 90 levels of arrays, three times, each holding the one before through an alias: 270 levels once expanded. */
function deepThroughAliases(): string {
  const lines = ['openapi: 3.1.0', 'info: {title: x, version: "1"}', 'paths: {}'];
  let inner = '1';
  for (const name of ['a', 'b', 'c']) {
    lines.push(`x-${name}: &${name} ${'['.repeat(90)}${inner}${']'.repeat(90)}`);
    inner = `*${name}`;
  }
  return lines.join('\n');
}

const MINIMAL_31 = 'openapi: 3.1.0\ninfo: {title: Pets, version: 1.0.0}\npaths: {}\n';

describe('processOpenAPISource', () => {
  it('accepts OpenAPI 3.0, 3.1 and Swagger 2.0 given as text, YAML or JSON', async () => {
    const documents = [
      MINIMAL_31,
      JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: {} }),
      'swagger: "2.0"\ninfo: {title: Pets, version: "1"}\npaths: {}\n',
    ];
    for (const text of documents) {
      const { filesystem, bundle } = success(await processOpenAPISource({ text }, limits()));
      const entry = text.startsWith('{') ? 'openapi.json' : 'openapi.yaml';
      const parsed = text.startsWith('{') ? JSON.parse(text) : fixturesParse(text);
      expect(filesystem).toEqual({ entrypoint: entry, files: { [entry]: parsed } });
      // An OpenAPI 3 bundle adds the (empty) components where external references would go.
      expect(bundle).toEqual(text.includes('swagger') ? parsed : { ...parsed, components: {} });
    }
  });

  it('refuses any other document with PARSE_ERROR and where it is wrong', async () => {
    const cases: Array<[string, string, string]> = [
      ['openapi: 3.2.0\ninfo: {title: x, version: "1"}\npaths: {}\n', 'OpenAPI "3.2.0" is not supported: the document must be an OpenAPI 3.0, 3.1 or Swagger 2.0 document', 'openapi.yaml#/openapi'],
      ['swagger: "1.2"\n', 'Swagger "1.2" is not supported: the document must be an OpenAPI 3.0, 3.1 or Swagger 2.0 document', 'openapi.yaml#/swagger'],
      ['asyncapi: 2.6.0\ninfo: {title: x, version: "1"}\nchannels: {}\n', 'the document is not an OpenAPI 3.0, 3.1 or Swagger 2.0 document: it has no `openapi` or `swagger` version', 'openapi.yaml#/'],
      ['- a list\n', 'the document is not an OpenAPI 3.0, 3.1 or Swagger 2.0 document: it is not an object', 'openapi.yaml#/'],
    ];
    for (const [text, message, location] of cases) {
      expect(failure(await processOpenAPISource({ text }, limits()))).toEqual({ ok: false, code: 'PARSE_ERROR', errors: [{ message, location }] });
    }
  });

  it('reports a syntax error with its line and column', async () => {
    const outcome = failure(await processOpenAPISource({ text: 'openapi: 3.1.0\ninfo: {title: x\n' }, limits()));
    expect(outcome.code).toBe('PARSE_ERROR');
    expect(outcome.errors).toEqual([{ message: expect.stringMatching(/^not JSON or YAML: /), location: expect.stringMatching(/^openapi\.yaml:\d+:\d+$/) }]);
  });

  it('reports every structural error with its JSON pointer, the first 20 only', async () => {
    const paths = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`/p${i}`, { get: { responses: { '200': { description: 'ok' } }, bogus: i } }]));
    const outcome = failure(await processOpenAPISource({ text: JSON.stringify({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths }) }, limits()));
    expect(outcome.code).toBe('PARSE_ERROR');
    expect(outcome.errors).toHaveLength(20);
    expect(outcome.errors[0]).toEqual({ message: 'Property `bogus` is not expected here.', location: 'openapi.json#/paths/~1p0/get/bogus' });
  });

  it('fetches a url source and every file it references, keeps each file parsed and bundles them', async () => {
    const url = fixtures.url('/multi/openapi.yaml');
    const { filesystem, bundle, contentHash } = success(await processOpenAPISource({ url }, limits()));
    expect(filesystem).toEqual({
      entrypoint: url,
      files: {
        [url]: fixtures.parsed('/multi/openapi.yaml'),
        [fixtures.url('/multi/schemas/pet.yaml')]: fixtures.parsed('/multi/schemas/pet.yaml'),
        [fixtures.url('/multi/schemas/owner.json')]: fixtures.parsed('/multi/schemas/owner.json'),
        [fixtures.url('/shared/error.yaml')]: fixtures.parsed('/shared/error.yaml'),
      },
    });
    expect(contentHash).toMatch(/^[0-9a-f]{64}$/);
    // One document: external references inlined as components, internal ones kept.
    expect(bundle.components.schemas).toEqual({
      pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, owner: { $ref: '#/components/schemas/owner' } } },
      owner: { type: 'object', properties: { email: { type: 'string', format: 'email' } } },
      error: { type: 'object', properties: { message: { type: 'string' } } },
    });
    expect(bundle.paths['/pets'].get.responses['200'].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/pet' } });
    expect(JSON.stringify(bundle)).not.toContain('.yaml');
  });

  it('gives the same hash to the same content, another to another', async () => {
    const first = success(await processOpenAPISource({ url: fixtures.url('/multi/openapi.yaml') }, limits()));
    const again = success(await processOpenAPISource({ url: fixtures.url('/multi/openapi.yaml') }, limits()));
    const other = success(await processOpenAPISource({ text: MINIMAL_31 }, limits()));
    expect(again.contentHash).toBe(first.contentHash);
    expect(other.contentHash).not.toBe(first.contentHash);
  });

  it('FETCH_TIMEOUT for a source that answers too slowly', async () => {
    const url = fixtures.url('/slow');
    expect(failure(await processOpenAPISource({ url }, limits({ outbound: { allowPrivate: true, timeoutMs: 300, maxBytes: 1024 * 1024 } })))).toEqual({
      ok: false,
      code: 'FETCH_TIMEOUT',
      errors: [{ message: `${url}: no complete answer within 300 ms`, location: url }],
    });
  });

  it('FETCH_TIMEOUT for a referenced file that answers too slowly, at the place of the reference', async () => {
    const url = fixtures.url('/refs-slow.yaml');
    const outcome = failure(await processOpenAPISource({ url }, limits({ outbound: { allowPrivate: true, timeoutMs: 300, maxBytes: 1024 * 1024 } })));
    expect(outcome).toEqual({
      ok: false,
      code: 'FETCH_TIMEOUT',
      errors: [{ message: `Can't resolve $ref: ${fixtures.url('/slow')}: no complete answer within 300 ms`, location: `${url}#/components/schemas/slow` }],
    });
  });

  it('FETCH_ERROR for an error status, a refused address, an unreachable server', async () => {
    const status = fixtures.url('/fail');
    expect(failure(await processOpenAPISource({ url: status }, limits()))).toEqual({
      ok: false,
      code: 'FETCH_ERROR',
      errors: [{ message: `${status}: the server answered 500`, location: status }],
    });
    const guarded = failure(await processOpenAPISource({ url: status }, limits({ outbound: { allowPrivate: false, timeoutMs: 2000, maxBytes: 1024 } })));
    expect(guarded).toMatchObject({ code: 'FETCH_ERROR', errors: [{ message: expect.stringContaining('is an address that may not be fetched'), location: status }] });
    const closed = http.createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const unreachable = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/openapi.yaml`;
    await new Promise((resolve) => closed.close(resolve));
    expect(failure(await processOpenAPISource({ url: unreachable }, limits()))).toMatchObject({
      code: 'FETCH_ERROR',
      errors: [{ message: expect.stringContaining('ECONNREFUSED'), location: unreachable }],
    });
    const refs = failure(await processOpenAPISource({ url: fixtures.url('/refs-missing.yaml') }, limits()));
    expect(refs).toMatchObject({ code: 'FETCH_ERROR', errors: [{ message: `Can't resolve $ref: ${fixtures.url('/missing.yaml')}: the server answered 404` }] });
  });

  it('PARSE_ERROR for a source that serves garbage', async () => {
    const url = fixtures.url('/garbage');
    const outcome = failure(await processOpenAPISource({ url }, limits()));
    expect(outcome.code).toBe('PARSE_ERROR');
    expect(outcome.errors[0]!.location.startsWith(url)).toBe(true);
  });

  it('caps the referenced files, their bytes together and the time of the whole processing', async () => {
    const many = failure(await processOpenAPISource({ url: fixtures.url('/multi/openapi.yaml') }, limits({ maxFiles: 2 })));
    expect(many.code).toBe('FETCH_ERROR');
    expect(many.errors.map((error) => error.message)).toContain("Can't resolve $ref: more than 2 files (the entry and the files it references)");
    const large = failure(await processOpenAPISource({ url: fixtures.url('/multi/openapi.yaml') }, limits({ outbound: { allowPrivate: true, timeoutMs: 2000, maxBytes: 600 } })));
    expect(large.code).toBe('FETCH_ERROR');
    expect(large.errors.some((error) => error.message.includes("the spec's files together are larger than 600 bytes"))).toBe(true);
    const late = failure(await processOpenAPISource({ url: fixtures.url('/refs-slow.yaml') }, limits({ timeoutMs: 400 })));
    expect(late.code).toBe('FETCH_TIMEOUT');
  });

  it('never reads the disk for local references: /etc/passwd, file:///etc/passwd, ../../package.json', async () => {
    const readFile = vi.spyOn(fs.promises, 'readFile');
    const lstat = vi.spyOn(fs, 'lstatSync');
    const readSync = vi.spyOn(fs, 'readFileSync');
    try {
      const text = [
        'openapi: 3.1.0',
        'info: {title: x, version: "1"}',
        'paths: {}',
        'components:',
        '  schemas:',
        "    a: {$ref: '/etc/passwd'}",
        "    b: {$ref: 'file:///etc/passwd'}",
        "    c: {$ref: '../../package.json'}",
        "    d: {$ref: 'file:///etc/passwd#/root'}",
      ].join('\n');
      const outcome = failure(await processOpenAPISource({ text }, limits()));
      expect(outcome.code).toBe('PARSE_ERROR');
      expect(outcome.errors.map((error) => error.location)).toEqual([
        'openapi.yaml#/components/schemas/a',
        'openapi.yaml#/components/schemas/b',
        'openapi.yaml#/components/schemas/c',
        'openapi.yaml#/components/schemas/d',
      ]);
      expect(outcome.errors[0]!.message).toBe(
        'Can\'t resolve $ref: "/etc/passwd" is not an http or https address: references to local files are never read, and a spec given as text can reference other files only by absolute address',
      );
      // A spec fetched by url: `file:` stays refused; a path resolves against the url (its server's file).
      const byUrl = failure(await processOpenAPISource({ url: fixtures.url('/refs-local.yaml') }, limits()));
      expect(byUrl.errors).toEqual([
        { message: `Can't resolve $ref: ${fixtures.url('/etc/passwd')}: the server answered 404`, location: `${fixtures.url('/refs-local.yaml')}#/components/schemas/a` },
        expect.objectContaining({ message: expect.stringContaining('"file:///etc/passwd" is not an http or https address'), location: `${fixtures.url('/refs-local.yaml')}#/components/schemas/b` }),
        { message: `Can't resolve $ref: ${fixtures.url('/package.json')}: the server answered 404`, location: `${fixtures.url('/refs-local.yaml')}#/components/schemas/c` },
      ]);
      expect(JSON.stringify([outcome, byUrl])).not.toMatch(/root:x:0|"name": ?"content-workspace/);
      const diskReads = [...readFile.mock.calls, ...readSync.mock.calls, ...lstat.mock.calls].map((call) => String(call[0]));
      expect(diskReads.filter((path) => /passwd|package\.json/.test(path))).toEqual([]);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('refuses what a JSON document cannot hold, and YAML alias bombs', async () => {
    const bomb = ['openapi: 3.1.0', 'info: {title: x, version: "1"}', 'paths: {}', 'x-a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]'];
    for (let level = 0; level < 8; level++) bomb.push(`x-${level}: &l${level} [${Array(10).fill(level === 0 ? '*a' : `*l${level - 1}`).join(', ')}]`);
    // Few values, each a long string used through aliases: 10,000 uses of 10 KB, 100 MB as JSON from a 10 KB file.
    const stringBomb = ['openapi: 3.1.0', 'info: {title: x, version: "1"}', 'paths: {}', `x-s: &s "${'x'.repeat(10_000)}"`];
    for (let level = 0; level < 4; level++) stringBomb.push(`x-${level}: &l${level} [${Array(10).fill(level === 0 ? '*s' : `*l${level - 1}`).join(', ')}]`);
    const expanded = `the parsed files together expand to more than ${MAX_EXPANSION * limits().outbound.maxBytes} bytes as JSON (YAML aliases included)`;
    const cases: Array<[string, string]> = [
      [bomb.join('\n'), expanded],
      [stringBomb.join('\n'), expanded],
      [`${MINIMAL_31}x-max: .inf\n`, 'a number is not finite (.inf or .nan)'],
      [`${MINIMAL_31}x-nul: "a\\0b"\n`, 'a string holds U+0000 or a lone surrogate (not storable Unicode text)'],
      [`${MINIMAL_31}x-lone: "a\\ud800b"\n`, 'a string holds U+0000 or a lone surrogate (not storable Unicode text)'],
      [`${MINIMAL_31}x-bin: !!binary aGVsbG8=\n`, 'a value of YAML type Uint8Array has no JSON equivalent'],
      [deepThroughAliases(), 'values are nested more than 200 levels deep'],
    ];
    for (const [text, problem] of cases) {
      expect(failure(await processOpenAPISource({ text }, limits()))).toEqual({ ok: false, code: 'PARSE_ERROR', errors: [{ message: `openapi.yaml: ${problem}`, location: 'openapi.yaml' }] });
    }
    // Written out, the YAML parser stops at 100 levels itself.
    const deep = failure(await processOpenAPISource({ text: `${MINIMAL_31}x-deep: ${'['.repeat(150)}${']'.repeat(150)}\n` }, limits()));
    expect(deep.errors).toEqual([{ message: expect.stringContaining('nesting exceeded maxDepth'), location: expect.stringMatching(/^openapi\.yaml:4:\d+$/) }]);
  });
});
