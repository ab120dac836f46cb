// The README's examples are the files in examples/: the README must show each one whole, and each
// one must run, against a stand-in API over real HTTP, and print what the README promises.
import { readFileSync, readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contractProblems } from './support/contract.js';
import { startFakeApi } from './support/fake-api.js';
import type { TestServer } from './support/server.js';

const examplesDir = new URL('../examples/', import.meta.url);
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const examples = readdirSync(examplesDir).filter((name) => name.endsWith('.ts'));

// A fresh stand-in API for each example, so none depends on what another one created. Each of its
// answers is checked against the contract: it may only say what the real server may say.
let api: TestServer & { token: string };
let answers: Promise<string[]>[] = [];
beforeEach(async () => {
  answers = [];
  const fetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const copy = response.clone();
    answers.push(
      copy.text().then((text) => contractProblems(request.method, request.url, copy.status, text === '' ? undefined : JSON.parse(text))),
    );
    return response;
  });
  api = await startFakeApi();
  vi.stubEnv('CONTENT_WORKSPACE_URL', api.url);
  vi.stubEnv('CONTENT_WORKSPACE_TOKEN', api.token);
  // The ids of the stand-in's organization and space; packages/server/test/integration/sdk-readme.test.ts
  // runs the same examples against the real server with ids it made.
  vi.stubEnv('ORGANIZATION_ID', 'o1');
  vi.stubEnv('SPACE_ID', 's1');
});
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await api.close();
  expect((await Promise.all(answers)).flat()).toEqual([]);
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
    expect(examples.sort()).toEqual([
      'change-requests.ts',
      'comments.ts',
      'content.ts',
      'errors.ts',
      'pagination.ts',
      'path-client.ts',
      'quick-start.ts',
      'retries.ts',
      'search.ts',
      // Run against the real server by packages/server/test/integration/sdk-webhook-receiver.test.ts.
      'webhook-receiver.ts',
    ]);
  });

  it.each(examples)('shows examples/%s whole, in a ts block', (name) => {
    const body = readFileSync(new URL(name, examplesDir), 'utf8').trim();
    expect(readme).toContain('```ts\n' + body + '\n```');
  });
});

describe('examples', () => {
  const sent = () => api.requests.map((request) => `${request.method} ${request.url}`);

  it('quick-start.ts reads the user, creates an organization and a space, and reads the space back', async () => {
    expect(await run('quick-start.ts')).toEqual(['Signed in as Ada', 'Created Handbook (s2) in Docs team', 'Visibility: private']);
    expect(sent()).toEqual(['GET /v1/user', 'POST /v1/orgs', 'POST /v1/orgs/n1/spaces', 'GET /v1/spaces/s2']);
  });

  it('pagination.ts lists every organization across pages, then the spaces of one', async () => {
    expect(await run('pagination.ts')).toEqual(['o1 Handbook', 'o2 API docs', 'o3 Blog', 'Spaces of o1: Guides']);
    expect(sent()).toEqual(['GET /v1/orgs?limit=100', 'GET /v1/orgs?limit=100&page=2', 'GET /v1/orgs/o1/spaces']);
  });

  it('content.ts sends a file and a page using it in one batch', async () => {
    expect(await run('content.ts')).toEqual(['Revision r2: page p2, file f1']);
    expect(sent()).toEqual(['POST /v1/spaces/s1/content']);
    const { changes } = JSON.parse(api.requests[0]!.body) as { changes: Record<string, unknown>[] };
    expect(changes.map((change) => change.type)).toEqual(['insert_file', 'insert_page']);
    expect(Buffer.from(String(changes[0]!.base64), 'base64').toString()).toMatch(/^<svg /);
    expect(changes[1]!.cover).toEqual({ ref: { kind: 'file', file: { ref: 'diagram' } } });
  });

  it('change-requests.ts opens, edits, renames, updates and merges a change request', async () => {
    expect(await run('change-requests.ts')).toEqual([
      'Updated from the space: update',
      'Merged #1 "Getting started: install first" as revision r5 (merge)',
    ]);
    expect(sent()).toEqual([
      'GET /v1/spaces/s1/content/path/getting-started',
      'POST /v1/spaces/s1/change-requests',
      'POST /v1/spaces/s1/change-requests/cr1/content',
      'PATCH /v1/spaces/s1/change-requests/cr1',
      'GET /v1/spaces/s1/change-requests/cr1',
      'POST /v1/spaces/s1/change-requests/cr1/update',
      'POST /v1/spaces/s1/change-requests/cr1/merge',
    ]);
  });

  it('comments.ts comments on a page, replies, reacts, resolves, then lists the open comments of the page', async () => {
    expect(await run('comments.ts')).toEqual(['resolved by Ada, 1 reply, 👍', 'Grace on Run the installer with the default options.: Which options?']);
    expect(sent()).toEqual([
      'GET /v1/spaces/s1/content/path/getting-started',
      'POST /v1/spaces/s1/comments',
      'POST /v1/spaces/s1/comments/c1/replies',
      'PUT /v1/spaces/s1/comments/c1',
      'PUT /v1/spaces/s1/comments/c1',
      'GET /v1/spaces/s1/comments?status=open&targetPage=p1',
    ]);
  });

  it('errors.ts handles a 404 and reports the issues of a 400', async () => {
    expect(await run('errors.ts')).toEqual(['No such space', 'Invalid /body/label: must not be empty']);
  });

  it('retries.ts creates and revokes a token, then creates one space in two runs of a job with its own key', async () => {
    expect(await run('retries.ts')).toEqual(['Created and revoked token t3', 'Run 1: space s2', 'Run 2: space s2, the first run’s answer replayed']);
    expect(sent()).toEqual(['POST /v1/user/tokens', 'DELETE /v1/user/tokens/t3', 'POST /v1/orgs/o1/spaces', 'POST /v1/orgs/o1/spaces']);
    const keys = api.requests.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys.slice(2)).toEqual(['report-space-nightly-2026-11-28', 'report-space-nightly-2026-11-28']);
  });

  it('search.ts searches a space, then the organization across pages of results', async () => {
    expect(await run('search.ts')).toEqual([
      '2 pages match',
      'Getting started (http://app.test/s/s1/getting-started)',
      '  Install: Run the installer with the default options.',
      'Upgrade (http://app.test/s/s1/upgrade)',
      '  Upgrade: Stop the server, install the new version.',
      'Guides: Install the server, Upgrade an installation',
      'Operations: Back up an installation',
      'Release notes: Installer 2.0',
    ]);
    expect(sent()).toEqual(['GET /v1/spaces/s1/search?query=install%20-docker', 'GET /v1/orgs/o1/search?query=instal', 'GET /v1/orgs/o1/search?query=instal&page=2']);
  });

  it('path-client.ts reads an organization and lists the tokens with the path-based client', async () => {
    expect(await run('path-client.ts')).toEqual(['Handbook is on the enterprise plan', 'Token ci', 'Token laptop']);
    expect(sent()).toEqual(['GET /v1/orgs/o1', 'GET /v1/user/tokens']);
  });
});
