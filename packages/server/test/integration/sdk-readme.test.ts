// The SDK README's examples (packages/sdk/examples/), run as they are in a process of their own
// (Node.js through tsx, as a user runs them) against this server, with an organization and a space
// made for them. packages/sdk/test/examples.test.ts runs them against a stand-in only to pin the
// exact requests each one sends; what they print here comes from the real server.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { createOrganization, createSpace, createUser } from '../support/factories.js';

const server = useTestServer();
const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL('../../../sdk/', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

/** A user with an organization and a space of their own, and what an example prints with their token and ids. */
async function setUp() {
  const t = server();
  const ada = await createUser(t, { name: 'Ada' });
  const organization = await createOrganization(t, ada, { title: 'Handbook' });
  const space = await createSpace(t, ada, organization, { title: 'Guides' });
  const example = async (name: string): Promise<string[]> => {
    const { stdout } = await run(process.execPath, [tsx, `examples/${name}`], {
      cwd: sdkDir,
      env: { ...process.env, CONTENT_WORKSPACE_URL: t.url, CONTENT_WORKSPACE_TOKEN: ada.token, ORGANIZATION_ID: organization.id, SPACE_ID: space.id },
      timeout: 100_000,
    });
    return stdout.trim().split('\n');
  };
  return { t, ada, organization, space, example };
}

/** The page the change-request and comment examples work on: `getting-started`. */
async function gettingStarted(t: ReturnType<typeof server>, token: string, spaceId: string) {
  const { data, error } = await t.client(token).POST('/v1/spaces/{spaceId}/content', {
    params: { path: { spaceId } },
    body: { changes: [{ type: 'insert_page', title: 'Getting started', markdown: '# Getting started\n\nRun the installer.\n' }] },
  });
  expect(error).toBeUndefined();
  return data!;
}

describe('the SDK README examples against the server', { timeout: 120_000 }, () => {
  it('quick-start.ts reads the user, creates an organization and a space, and reads the space back', async () => {
    const { example } = await setUp();
    const lines = await example('quick-start.ts');
    expect(lines[0]).toBe('Signed in as Ada');
    expect(lines[1]).toMatch(/^Created Handbook \(\S+\) in Docs team$/);
    expect(lines[2]).toBe('Visibility: private');
  });

  it('pagination.ts lists the organizations, then the spaces of one', async () => {
    const { example, organization } = await setUp();
    expect(await example('pagination.ts')).toEqual([`${organization.id} Handbook`, `Spaces of ${organization.id}: Guides`]);
  });

  it('content.ts sends a file and a page using it in one batch', async () => {
    const { example, t, ada, space } = await setUp();
    const [line] = await example('content.ts');
    const [, revision, pageId, fileId] = /^Revision (\S+): page (\S+), file (\S+)$/.exec(line ?? '') ?? [];
    expect(revision).toBeTruthy();
    const { data: page } = await t.client(ada.token).GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId: space.id, pageId: pageId! } } });
    expect(page).toMatchObject({ title: 'Architecture', cover: { ref: { kind: 'file', file: fileId } } });
  });

  it('change-requests.ts opens, edits, renames and merges a change request', async () => {
    const { example, t, ada, space } = await setUp();
    await gettingStarted(t, ada.token, space.id);

    expect(await example('change-requests.ts')).toEqual([expect.stringMatching(/^Merged #1 "Getting started: install first" as revision \S+ \(\S+\)$/)]);
    const { data: page } = await t.client(ada.token).GET('/v1/spaces/{spaceId}/content/path/{pagePath}', {
      params: { path: { spaceId: space.id, pagePath: 'getting-started' }, query: { format: 'markdown' } },
    });
    expect(JSON.stringify(page)).toContain('Run `pnpm install` first.');
  });

  it('comments.ts comments on a page, replies, reacts and resolves', async () => {
    const { example, t, ada, space } = await setUp();
    await gettingStarted(t, ada.token, space.id);

    // The only comment is resolved, so the list of open ones prints nothing.
    expect(await example('comments.ts')).toEqual(['resolved by Ada, 1 reply, 👍']);
  });

  it('errors.ts handles a 404 and reports the issues of a 400', async () => {
    const { example } = await setUp();
    const lines = await example('errors.ts');
    expect(lines[0]).toBe('No such space');
    expect(lines[1]).toMatch(/^Invalid \/body\/label: /);
  });

  it('retries.ts creates and revokes a token, then creates one space in two runs of a job with its own key', async () => {
    const { example } = await setUp();
    const lines = await example('retries.ts');
    expect(lines[0]).toMatch(/^Created and revoked token \S+$/);
    const spaceId = /^Run 1: space (\S+)$/.exec(lines[1] ?? '')?.[1];
    expect(spaceId).toBeTruthy();
    expect(lines[2]).toBe(`Run 2: space ${spaceId}, the first run’s answer replayed`);
  });

  it('path-client.ts reads an organization and lists the tokens with the path-based client', async () => {
    const { example, t, ada, organization } = await setUp();
    const { data } = await t.client(ada.token).GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: organization.id } } });
    // The factory's user has one token, labelled "test".
    expect(await example('path-client.ts')).toEqual([`Handbook is on the ${data!.plan} plan`, 'Token test']);
  });
});
