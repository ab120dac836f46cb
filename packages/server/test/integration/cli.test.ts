// The CLI against the test database, as an operator would run it.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';

const server = useTestServer();
const bin = fileURLToPath(new URL('../../bin/content-workspace.js', import.meta.url));

async function cli(...args: string[]): Promise<{ lines: string[]; code: number; stderr: string }> {
  const databaseUrl = server().databaseUrl;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    });
    return { lines: stdout.trim().split('\n'), code: 0, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { lines: e.stdout.trim().split('\n'), code: e.code, stderr: e.stderr };
  }
}

// Each run starts a Node process that compiles the CLI with tsx: seconds each on a busy 2-core machine.
describe('content-workspace admin', { timeout: 120_000 }, () => {
  it('bootstrap creates a user, an organization and a working token; run again, only a new token', async () => {
    const t = server();
    const first = await cli('admin', 'bootstrap', '--email', 'root@example.com', '--name', 'Root', '--org', 'Root org');
    expect(first.code).toBe(0);
    const token = first.lines.at(-1)!;
    expect(token).toMatch(/^cw_/);
    const { data: orgs } = await t.client(token).GET('/v1/orgs');
    expect(orgs?.items.map((o) => [o.title, o.permissions.admin])).toEqual([['Root org', true]]);
    // The same services, so the same event as the API's creation: the organization, by the user (no token).
    const organization = orgs!.items[0]!;
    const { data: events } = await t.client(token).GET('/v1/orgs/{organizationId}/events', { params: { path: { organizationId: organization.id } } });
    expect(events?.items.map((event) => [event.type, event.actor, event.data])).toEqual([
      // Addresses are the CLI's own configuration's (no PUBLIC_URL here), not the test server's.
      [
        'organization.created',
        { type: 'user', user: expect.objectContaining({ email: 'root@example.com' }) },
        { object: { ...(await t.client(token).GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: organization.id } } })).data, urls: expect.objectContaining({ location: expect.stringMatching(`/v1/orgs/${organization.id}$`) }) } },
      ],
    ]);

    const second = await cli('admin', 'bootstrap', '--email', 'root@example.com');
    expect(second.lines.at(-1)).not.toBe(token);
    expect((await t.client(second.lines.at(-1)).GET('/v1/orgs')).data?.count).toBe(1);
  });

  it('create-user and token issue tokens; token fails clearly for an unknown user', async () => {
    const t = server();
    const created = await cli('admin', 'create-user', '--email', 'writer@example.com', '--name', 'Writer');
    const me = await t.client(created.lines.at(-1)).GET('/v1/user');
    expect(me.data).toMatchObject({ email: 'writer@example.com', displayName: 'Writer' });
    const issued = await cli('admin', 'token', '--email', 'WRITER@example.com');
    expect((await t.client(issued.lines.at(-1)).GET('/v1/user')).data?.id).toBe(me.data?.id);
    const unknown = await cli('admin', 'token', '--email', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user with e-mail nobody@example.com');
  });

  it('rotate-keys replaces stored keys and refuses unknown kinds', async () => {
    const t = server();
    const before = await t.db.selectFrom('serverKeys').select(['kind', 'material']).where('kind', '=', 'jwt').executeTakeFirstOrThrow();
    const rotated = await cli('admin', 'rotate-keys', 'jwt');
    expect(rotated.lines.at(-1)).toBe('Rotated: jwt');
    const after = await t.db.selectFrom('serverKeys').select(['kind', 'material']).where('kind', '=', 'jwt').executeTakeFirstOrThrow();
    expect(after.material).not.toBe(before.material);
    const bad = await cli('admin', 'rotate-keys', 'nope');
    expect(bad.code).toBe(1);
  });
});
