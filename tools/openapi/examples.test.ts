// Every request body and every successful JSON response of the contract carries an example, and every
// example in it matches its schema (ajv, JSON Schema 2020-12, over the bundled contract that
// codegen:check keeps equal to spec/). Examples also follow the API's conventions, so the reference
// and the SDK's docs show what the server really sends.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { contractDir } from './paths.js';

type Json = Record<string, any>;

const spec: Json = JSON.parse(readFileSync(join(contractDir, 'openapi.json'), 'utf8'));
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
// ajv-formats is CommonJS: under NodeNext its default import is the module, the plugin its `default`.
addFormats.default(ajv);
ajv.addFormat('binary', true);
ajv.addSchema({ ...spec, $id: 'contract' });

function resolve(kind: string, value: Json | undefined): Json | undefined {
  let current = value;
  for (let hops = 0; current?.$ref && hops < 16; hops++) current = spec.components[kind][String(current.$ref).split('/').pop()!];
  return current;
}

/** The examples of a media type: its own, else its schema's (following $refs). */
function examplesOf(media: Json): Array<{ name: string; value: unknown }> {
  const found: Array<{ name: string; value: unknown }> = [];
  if (media.example !== undefined) found.push({ name: 'example', value: media.example });
  for (const [name, example] of Object.entries((media.examples ?? {}) as Json)) found.push({ name: `examples.${name}`, value: (example as Json).value });
  if (found.length) return found;
  const schema = resolve('schemas', media.schema);
  (schema?.examples ?? []).forEach((value: unknown, index: number) => found.push({ name: `schema examples[${index}]`, value }));
  if (schema?.example !== undefined) found.push({ name: 'schema example', value: schema.example });
  return found;
}

/** A validator for a schema of the contract (a `$ref` into it, or an inline schema within it). */
function validatorFor(schema: Json) {
  if (typeof schema.$ref === 'string') return ajv.getSchema(`contract${schema.$ref}`)!;
  return ajv.compile({ $ref: 'contract#/$defs/inline', $defs: { inline: schema } });
}

type Place = { where: string; media: Json };

/** Every request body and 2xx JSON response of every operation. */
function places(): { required: Place[] } {
  const required: Place[] = [];
  for (const [path, item] of Object.entries(spec.paths as Json)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const name = `${method.toUpperCase()} ${path} (${operation.operationId})`;
      const body = resolve('requestBodies', operation.requestBody);
      for (const [mediaType, media] of Object.entries((body?.content ?? {}) as Json)) required.push({ where: `${name} request body ${mediaType}`, media });
      for (const [status, raw] of Object.entries(operation.responses as Json)) {
        if (!status.startsWith('2')) continue;
        const media = resolve('responses', raw)?.content?.['application/json'];
        if (media) required.push({ where: `${name} ${status} response`, media });
      }
    }
  }
  return { required };
}

/** Every example written on a component schema, anywhere. */
function schemaExamples(): Array<{ where: string; schema: Json; value: unknown }> {
  const out: Array<{ where: string; schema: Json; value: unknown }> = [];
  for (const [name, schema] of Object.entries(spec.components.schemas as Json)) {
    (schema.examples ?? []).forEach((value: unknown, index: number) => out.push({ where: `#/components/schemas/${name} examples[${index}]`, schema: { $ref: `#/components/schemas/${name}` }, value }));
    if (schema.example !== undefined) out.push({ where: `#/components/schemas/${name} example`, schema: { $ref: `#/components/schemas/${name}` }, value: schema.example });
  }
  return out;
}

function problems(schema: Json, value: unknown): string[] {
  const validate = validatorFor(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error: ErrorObject) => `${error.instancePath || '/'} ${error.message}`);
}

describe('examples in the contract', () => {
  it('every request body and every 2xx JSON response has one', () => {
    const missing = places().required.filter((place) => examplesOf(place.media).length === 0).map((place) => place.where);
    expect(missing).toEqual([]);
  });

  it('each one matches its schema', () => {
    const invalid: string[] = [];
    for (const place of places().required) {
      for (const example of examplesOf(place.media)) {
        for (const problem of problems(place.media.schema, example.value)) invalid.push(`${place.where} ${example.name}: ${problem}`);
      }
    }
    for (const example of schemaExamples()) for (const problem of problems(example.schema, example.value)) invalid.push(`${example.where}: ${problem}`);
    expect(invalid).toEqual([]);
  });

  it('they follow the API conventions: 20-character ids, ISO timestamps with milliseconds, addresses of a local server', () => {
    const wrong: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (Array.isArray(value)) return value.forEach((item, index) => walk(item, `${path}/${index}`));
      if (!value || typeof value !== 'object') return;
      for (const [key, item] of Object.entries(value)) {
        const at = `${path}/${key}`;
        if (typeof item === 'string') {
          if (key === 'documentId') {
            if (!/^[0-9a-f]{64}$/.test(item)) wrong.push(`${at}: content hash ${item}`);
          } else if (/\/features\/\d+$/.test(path)) {
            // A site feature's `id` is its name (the seed's `features: [{id, plan, frozen}]`).
            if (!/^[a-z]+(-[a-z]+)*$/.test(item) && key === 'id') wrong.push(`${at}: feature ${item}`);
          } else if (key === 'id' || /[a-z]Id$/.test(key)) {
            // An invite's id is its secret: 32 characters rather than 20.
            const length = /^#\/components\/schemas\/Invite(List)? /.test(path) ? 32 : 20;
            if (!new RegExp(`^[A-Za-z0-9]{${length}}$`).test(item)) wrong.push(`${at}: id ${item}`);
          }
          if (/At$|Date$/.test(key) && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(item)) wrong.push(`${at}: timestamp ${item}`);
          if ((path.endsWith('/urls') || key === 'downloadURL') && !item.startsWith('http://localhost:8080/')) wrong.push(`${at}: address ${item}`);
        }
        walk(item, at);
      }
    };
    for (const example of schemaExamples()) walk(example.value, example.where);
    expect(wrong).toEqual([]);
  });

  it('catches a missing or wrong example (the checks can fail)', () => {
    const space = { $ref: '#/components/schemas/Space' };
    const good = spec.components.schemas.Space.examples[0];
    expect(problems(space, good)).toEqual([]);
    expect(problems(space, { ...good, emoji: undefined, visibility: 'everyone' })).toEqual(expect.arrayContaining([expect.stringContaining("must have required property 'emoji'"), expect.stringContaining('/visibility must be equal to one of the allowed values')]));
    expect(examplesOf({ schema: { $ref: '#/components/schemas/Next' } })).toEqual([]);
  });
});
