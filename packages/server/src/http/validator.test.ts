import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it, vi } from 'vitest';
import { loadSpec, type OpenApiDocument } from './operations.js';
import { createValidator } from './validator.js';

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
