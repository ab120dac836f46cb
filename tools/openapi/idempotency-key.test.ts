// Every write of the contract is safe to retry (packages/server/src/http/idempotency.ts): each POST, PUT,
// PATCH and DELETE that takes a token refers to the one shared `Idempotency-Key` parameter and declares
// the statuses the key can answer (409 while the first request runs, 422 for another request). Checked
// over the bundled contract, which codegen:check keeps equal to spec/, so a new write operation without
// them fails `pnpm test`. The public writes (no token: the SAML form post) take no key.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractDir } from './paths.js';

type Json = Record<string, any>;

const PARAMETER_REF = '#/components/parameters/IdempotencyKey';
const WRITES = ['post', 'put', 'patch', 'delete'] as const;

const contract: Json = JSON.parse(readFileSync(join(contractDir, 'openapi.json'), 'utf8'));

const takesToken = (spec: Json, operation: Json) => ((operation.security ?? spec.security ?? []) as Json[]).some((scheme) => Object.keys(scheme).length > 0);

/** What is missing or wrong, one line per problem, naming the operation. */
export function idempotencyKeyProblems(spec: Json): string[] {
  const problems: string[] = [];
  for (const [path, item] of Object.entries<Json>(spec.paths)) {
    for (const method of WRITES) {
      const operation = item[method];
      if (!operation) continue;
      const name = `${method.toUpperCase()} ${path}`;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])] as Json[];
      const refers = parameters.some((parameter) => parameter.$ref === PARAMETER_REF);
      const inline = parameters.some((parameter) => typeof parameter.name === 'string' && parameter.name.toLowerCase() === 'idempotency-key');
      if (inline) problems.push(`${name}: declares Idempotency-Key inline; refer to components/parameters/IdempotencyKey.yaml`);
      if (!takesToken(spec, operation)) {
        if (refers) problems.push(`${name}: takes no token, so no key (keys are kept per token)`);
        continue;
      }
      if (!refers) problems.push(`${name}: lacks the Idempotency-Key parameter ($ref: components/parameters/IdempotencyKey.yaml)`);
      for (const status of ['409', '422']) {
        if (!operation.responses?.[status]) problems.push(`${name}: does not declare ${status}, which its Idempotency-Key can answer`);
      }
    }
  }
  return problems;
}

describe('Idempotency-Key on every write', () => {
  it('is the one shared parameter, with its limits in the schema', () => {
    const parameter = contract.components.parameters.IdempotencyKey;
    expect(parameter).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false });
    expect(parameter.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 255, pattern: expect.any(String) });
  });

  it('is declared by every POST, PUT, PATCH and DELETE that takes a token, with 409 and 422', () => {
    expect(idempotencyKeyProblems(contract)).toEqual([]);
    const writes = Object.values<Json>(contract.paths).flatMap((item) => WRITES.filter((method) => item[method]));
    expect(writes.length).toBeGreaterThan(90);
  });

  it('fails on a write operation without the key or its statuses, or on a key declared inline', () => {
    const planted = structuredClone(contract);
    const space = planted.paths['/v1/spaces/{spaceId}'];
    space.patch.parameters = space.patch.parameters.filter((parameter: Json) => parameter.$ref !== PARAMETER_REF);
    delete space.delete.responses['422'];
    planted.paths['/v1/orgs'].post.parameters = [{ name: 'idempotency-key', in: 'header', schema: { type: 'string' } }];
    expect(idempotencyKeyProblems(planted).sort()).toEqual([
      'DELETE /v1/spaces/{spaceId}: does not declare 422, which its Idempotency-Key can answer',
      'PATCH /v1/spaces/{spaceId}: lacks the Idempotency-Key parameter ($ref: components/parameters/IdempotencyKey.yaml)',
      'POST /v1/orgs: declares Idempotency-Key inline; refer to components/parameters/IdempotencyKey.yaml',
      'POST /v1/orgs: lacks the Idempotency-Key parameter ($ref: components/parameters/IdempotencyKey.yaml)',
    ]);
  });
});
