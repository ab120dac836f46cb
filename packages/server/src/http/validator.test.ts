import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it, vi } from 'vitest';
import { loadSpec, type OpenApiDocument } from './operations.js';
import { createValidator, pathOnlyOperations } from './validator.js';

/**
 * What the validator's first step answers for one request: the validator is set up on first use, and a
 * document it refuses fails that step.
 */
async function firstStep(spec: OpenApiDocument): Promise<{ status: number; text: string }> {
  const validator = createValidator(spec, { validateResponses: false, validateApiSpec: true });
  const app = express();
  app.use(validator.match[0]!);
  app.use((_req, res) => void res.send('set up'));
  app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(500).send(error.message));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/spaces/x`);
    return { status: response.status, text: await response.text() };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

// Servers skip the validator's check of the document against the OpenAPI meta-schema (compiling the
// meta-schema was a second of every start, 115 times in a test run): the bundled spec is checked here, once.
describe('the bundled spec against the OpenAPI meta-schema', () => {
  it('is a valid OpenAPI document', async () => {
    await expect(firstStep(loadSpec())).resolves.toEqual({ status: 200, text: 'set up' });
  });

  it('the check refuses a document that is not (so the test above can fail)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // the validator prints what it refused
    const broken = structuredClone(loadSpec());
    broken.paths['/v1/spaces/{spaceId}']!.get.responses = 'none';
    const { status, text } = await firstStep(broken);
    expect(status).toBe(500);
    expect(text).toMatch(/apiDoc was invalid/);
  });
});

// The request check is skipped for a request that gives only its path, on the operations that such a
// request can call (validator.ts): never where a body, a header, a required or defaulted query
// parameter, or a path parameter the access gate does not check as the validator does, could matter.
describe('the operations whose request check a path alone makes empty', () => {
  const spec = loadSpec();
  const pathOnly = pathOnlyOperations(spec);

  it('include the reads by id, with their optional scalar query parameters (getSpaceById: shareKey)', () => {
    expect(pathOnly.has('GET /v1/spaces/{spaceId}')).toBe(true);
    expect(pathOnly.has('GET /v1/collections/{collectionId}')).toBe(true);
  });

  it('leave out bodies, defaulted query parameters (a list’s limit) and header parameters (Idempotency-Key)', () => {
    expect(pathOnly.has('PATCH /v1/spaces/{spaceId}')).toBe(false);
    expect(pathOnly.has('GET /v1/orgs/{organizationId}/spaces')).toBe(false);
    expect(pathOnly.has('DELETE /v1/spaces/{spaceId}')).toBe(false);
  });

  it('leave out an operation once one of its path parameters has a format, or a query parameter a default', () => {
    const changed = structuredClone(spec);
    changed.components!.parameters!.SpaceId!.schema = { type: 'string', format: 'uuid' };
    expect(pathOnlyOperations(changed).has('GET /v1/spaces/{spaceId}')).toBe(false);
    const defaulted = structuredClone(spec);
    const parameters = defaulted.paths['/v1/spaces/{spaceId}']!.get.parameters as Array<Record<string, any>>;
    parameters.find((parameter) => parameter.name === 'shareKey')!.schema.default = 'none';
    expect(pathOnlyOperations(defaulted).has('GET /v1/spaces/{spaceId}')).toBe(false);
  });
});
