// The contract sweep: every operation of the bundled spec, with no code per operation.
// - without a token: 401 (operations declared without bearer security are checked by their own tests);
// - as an outsider, on the owner's resources: exactly 404 (they do not exist for a stranger), and
//   nothing of the owner's in the answer;
// - malformed path parameters, unknown or invalid query parameters, a malformed Idempotency-Key,
//   malformed bodies: 400;
// - never a 500.
// A check that does not apply to an operation (no body, no `limit`) is not registered for it, so the
// run reports no skipped tests.
import { beforeAll, describe, expect, it } from 'vitest';
import { operationAccess } from '@content-workspace/contract';
import { listOperations, loadSpec, type SpecOperation } from '../../src/http/operations.js';
import { useTestServer } from '../support/harness.js';
import { buildSweepWorld, fixtureFor, type SweepWorld } from './fixtures.js';
import { resolve, sample, wrongTypes } from './sample.js';

const spec = loadSpec();
const operations = listOperations(spec);

/**
 * Operations any authenticated user may call (declared with scope `user`): the outsider check only
 * requires that they answer without a 5xx and without revealing the owner's resources.
 */
const OPEN_TO_ANY_USER = new Set(Object.entries(operationAccess).filter(([, access]) => access.scope === 'user').map(([id]) => id));

const server = useTestServer();
let world: SweepWorld;
// The world calls some thirty operations for the first time (each compiles its validators): on a loaded
// two-core machine that is past the default minute, as for the fuzz suite's world.
beforeAll(async () => {
  world = await buildSweepWorld(server());
}, 240_000);

function pathParams(operation: SpecOperation): Array<Record<string, any>> {
  return operation.definition.parameters.map((p: Record<string, any>) => resolve(spec, p)).filter((p: any) => p.in === 'path');
}

function headerParams(operation: SpecOperation): Array<Record<string, any>> {
  return operation.definition.parameters.map((p: Record<string, any>) => resolve(spec, p)).filter((p: any) => p.in === 'header');
}

function queryParams(operation: SpecOperation): Array<Record<string, any>> {
  return operation.definition.parameters.map((p: Record<string, any>) => resolve(spec, p)).filter((p: any) => p.in === 'query');
}

/** The operation's request body: its (first) media type and schema. */
function requestBody(operation: SpecOperation): { mediaType: string; schema: Record<string, any> } | undefined {
  const body = operation.definition.requestBody && resolve(spec, operation.definition.requestBody);
  const [mediaType, content] = Object.entries<Record<string, any>>(body?.content ?? {})[0] ?? [];
  return mediaType && content ? { mediaType, schema: content.schema } : undefined;
}

const FORM = 'application/x-www-form-urlencoded';

/** The schema of a JSON request body. */
function bodySchema(operation: SpecOperation): Record<string, any> | undefined {
  const body = requestBody(operation);
  return body?.mediaType === 'application/json' ? body.schema : undefined;
}

function urlFor(operation: SpecOperation, overrides: Record<string, string> = {}, query = ''): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(overrides[name] ?? fixtureFor(world, operation.path, name)),
  );
  // Required query parameters (a search's `query`) get a valid sample, so each case tests one thing.
  const given = new URLSearchParams(query);
  const required = queryParams(operation)
    .filter((param) => param.required && !given.has(param.name))
    .map((param) => `${param.name}=${encodeURIComponent(String(sample(spec, param.schema)))}`);
  const all = [query.replace(/^\?/, ''), ...required].filter(Boolean).join('&');
  return `${server().url}${path}${all ? `?${all}` : ''}`;
}

async function call(operation: SpecOperation, init: { token?: string; url?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.rawBody !== undefined || init.body !== undefined) {
    // A form operation gets its valid body as a form (the media type is checked before the input).
    const form = init.rawBody === undefined && requestBody(operation)?.mediaType === FORM;
    headers['content-type'] = form ? FORM : 'application/json';
    body = init.rawBody ?? (form ? new URLSearchParams(init.body as Record<string, string>).toString() : JSON.stringify(init.body));
  }
  const url = init.url ?? urlFor(operation);
  const response = await fetch(url, { method: operation.method.toUpperCase(), headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  // Every answer's status is one its operation declares (the spec tells the truth: docs/architecture.md, "Packages and the contract pipeline").
  expect(declaredStatuses(operation), `${operation.method.toUpperCase()} ${url} answered ${response.status}, undeclared`).toContain(String(response.status));
  return { status: response.status, text, json: text ? (JSON.parse(text) as any) : undefined };
}

/** The statuses the operation declares, as the spec's keys (`"200"`, `"404"`, …). */
function declaredStatuses(operation: SpecOperation): string[] {
  return Object.keys(operation.definition.responses ?? {});
}

function validBody(operation: SpecOperation): unknown {
  const body = requestBody(operation);
  return body ? sample(spec, body.schema) : undefined;
}

function expectErrorBody(result: { status: number; json: any }, status: number) {
  expect(result.json).toMatchObject({ error: { code: status, message: expect.any(String) } });
}

it('every path parameter of the spec has a fixture in the sweep world', () => {
  const missing = operations.flatMap((operation) =>
    pathParams(operation)
      .map((param) => param.name as string)
      .filter((name) => {
        try {
          fixtureFor(world, operation.path, name);
          return false;
        } catch {
          return true;
        }
      })
      .map((name) => `${operation.path} {${name}}`),
  );
  expect(missing).toEqual([]);
});

it('the spec has operations, each with a unique operationId', () => {
  const ids = operations.map((operation) => operation.operationId);
  expect(ids.length).toBeGreaterThan(0);
  expect(new Set(ids).size).toBe(ids.length);
});

/** `it`, registered only where the check applies to the operation. */
const itWhere = (applies: boolean) => (applies ? it : (_name: string, _check: () => Promise<void>) => undefined);

describe.each(operations.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const))('%s', (_name, operation) => {
  itWhere(operation.requiresAuth)('401 without a token', async () => {
    const result = await call(operation, { body: validBody(operation) });
    expect(result.status).toBe(401);
    expectErrorBody(result, 401);
  });

  itWhere(operation.requiresAuth)('an outsider gets 404 and sees nothing of the owner', async () => {
    const result = await call(operation, { token: world.outsider.token, body: validBody(operation) });
    expect(result.status).toBeLessThan(500);
    const ownerValues = Object.values(world.params).filter((value) => value !== world.params.emailDomain);
    for (const value of ownerValues) expect(result.text).not.toContain(value);
    if (!OPEN_TO_ANY_USER.has(operation.operationId)) {
      expect(result.status, result.text).toBe(404);
      expectErrorBody(result, 404);
    }
  });

  it.each(pathParams(operation).map((param) => [param.name as string, param] as const))('400 for a malformed path parameter %s', async (name, param) => {
    const schema = resolve(spec, param.schema);
    const bad = schema.pattern ? 'bad id!' : 'x'.repeat((schema.maxLength ?? 2048) + 1);
    const result = await call(operation, { token: world.owner.token, url: urlFor(operation, { [name]: bad }), body: validBody(operation) });
    expect(result.status).toBe(400);
    expect(result.json.error.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: `/path/${name}` })]));
  });

  it('400 for an unknown query parameter', async () => {
    const result = await call(operation, { token: world.owner.token, url: urlFor(operation, {}, '?unknownParameter=1'), body: validBody(operation) });
    expect(result.status).toBe(400);
    expectErrorBody(result, 400);
  });

  itWhere(headerParams(operation).some((param) => param.name === 'Idempotency-Key'))('400 for a malformed Idempotency-Key', async () => {
    const result = await call(operation, { token: world.owner.token, body: validBody(operation), headers: { 'idempotency-key': 'two words' } });
    expect(result.status, result.text).toBe(400);
    expect(result.json.error.issues).toEqual([expect.objectContaining({ path: '/headers/idempotency-key' })]);
  });

  itWhere(queryParams(operation).some((param) => param.name === 'limit'))('400 for an out-of-range limit', async () => {
    for (const limit of ['0', '1001', 'ten']) {
      const result = await call(operation, { token: world.owner.token, url: urlFor(operation, {}, `?limit=${limit}`) });
      expect(result.status).toBe(400);
      expect(result.json.error.issues).toEqual([expect.objectContaining({ path: '/query/limit' })]);
    }
  });

  itWhere(bodySchema(operation) !== undefined)('400 for malformed bodies, never 500', async () => {
    const schema = resolve(spec, bodySchema(operation)!);
    const cases: Array<{ rawBody?: string; body?: unknown }> = [{ rawBody: '{"unterminated": ' }, { body: [] }, { body: 'text' }];
    if (schema.additionalProperties === false) cases.push({ body: { ...(validBody(operation) as object), unknownField: 1 } });
    for (const [key, property] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
      for (const wrong of wrongTypes(spec, property)) cases.push({ body: { ...(validBody(operation) as object), [key]: wrong } });
    }
    for (const body of cases) {
      const result = await call(operation, { token: world.owner.token, ...body });
      expect(result.status, `body ${JSON.stringify(body)}`).toBe(400);
      expectErrorBody(result, 400);
    }
  });

  itWhere(requestBody(operation)?.mediaType === FORM)('400 for malformed forms, 415 for JSON, never 500', async () => {
    const schema = resolve(spec, requestBody(operation)!.schema);
    const cases: unknown[] = [{}];
    if (schema.additionalProperties === false) cases.push({ ...(validBody(operation) as object), unknownField: '1' });
    for (const body of cases) {
      const result = await call(operation, { body });
      expect(result.status, `form ${JSON.stringify(body)}`).toBe(400);
      expectErrorBody(result, 400);
    }
    const json = await call(operation, { rawBody: JSON.stringify(validBody(operation)) });
    expect(json.status).toBe(415);
    expectErrorBody(json, 415);
  });
});
