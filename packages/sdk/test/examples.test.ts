// The README's examples are the files in examples/: the README must show each one whole, and each
// one must run, against a stand-in API over real HTTP, and print what the README promises.
import { readFileSync, readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeApi } from './support/fake-api.js';
import type { TestServer } from './support/server.js';

const examplesDir = new URL('../examples/', import.meta.url);
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const examples = readdirSync(examplesDir).filter((name) => name.endsWith('.ts'));

// A fresh stand-in API for each example, so none depends on what another one created.
let api: TestServer & { token: string };
beforeEach(async () => {
  api = await startFakeApi();
  vi.stubEnv('CONTENT_WORKSPACE_URL', api.url);
  vi.stubEnv('CONTENT_WORKSPACE_TOKEN', api.token);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await api.close();
});

/** Runs an example module and returns what it printed. */
async function run(name: string): Promise<string[]> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await import(`../examples/${name}`);
    return log.mock.calls.map((args) => args.join(' '));
  } finally {
    log.mockRestore();
  }
}

describe('README', () => {
  it('has examples to show', () => {
    expect(examples.sort()).toEqual(['errors.ts', 'pagination.ts', 'quick-start.ts', 'retries.ts']);
  });

  it.each(examples)('shows examples/%s whole, in a ts block', (name) => {
    const body = readFileSync(new URL(name, examplesDir), 'utf8').trim();
    expect(readme).toContain('```ts\n' + body + '\n```');
  });
});

describe('examples', () => {
  it('quick-start.ts reads the user, creates an organization and reads it back', async () => {
    expect(await run('quick-start.ts')).toEqual(['Signed in as Ada', 'Created Docs team (n1)', 'Its plan: enterprise']);
  });

  it('pagination.ts lists every organization across pages, then the newest tokens', async () => {
    const printed = await run('pagination.ts');
    expect(printed).toEqual(['o1 Handbook', 'o2 API docs', 'o3 Blog', 'Newest tokens: ci, laptop']);
    expect(api.requests.map((request) => request.url)).toEqual([
      '/v1/orgs?limit=100',
      '/v1/orgs?limit=100&page=2',
      '/v1/user/tokens',
    ]);
  });

  it('errors.ts handles a 404 and reports the issues of a 400', async () => {
    expect(await run('errors.ts')).toEqual(['No such organization', 'Invalid /body/label: must not be empty']);
  });

  it('retries.ts creates and revokes a token', async () => {
    expect(await run('retries.ts')).toEqual(['Created and revoked token t3']);
    expect(api.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /v1/user/tokens',
      'DELETE /v1/user/tokens/t3',
    ]);
  });
});
