// The SDK README's webhook receiver (packages/sdk/examples/webhook-receiver.ts) run as it is, in a
// process of its own, receiving this server's deliveries: it verifies them with `webhooks.verify`
// and prints what the README says; a forged delivery gets a 400.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../fault/child-server.js';
import { useTestServer } from '../support/harness.js';
import { createOrganizationWithAdmin, createSpace } from '../support/factories.js';

const server = useTestServer({ env: { JOBS_ENABLED: 'true' } });
const sdkDir = fileURLToPath(new URL('../../../sdk/', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

let example: ChildProcess | undefined;
afterAll(() => {
  // tsx runs the example in a child process of its own: the whole group goes.
  if (example?.pid) process.kill(-example.pid, 'SIGKILL');
});

describe('the SDK README webhook receiver', () => {
  it('verifies and prints the deliveries of a real server; refuses a forged one', { timeout: 120_000 }, async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const port = await freePort();
    const { data: hook } = await admin.client.POST('/v1/orgs/{organizationId}/webhooks', {
      params: { path: { organizationId: organization.id } },
      body: { url: `http://127.0.0.1:${port}/`, eventTypes: ['space.content-updated', 'webhook.ping'] },
    });
    example = spawn(tsx, ['examples/webhook-receiver.ts'], {
      cwd: sdkDir,
      env: { ...process.env, PORT: String(port), CONTENT_WORKSPACE_WEBHOOK_SECRET: hook!.secret },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const lines: string[] = [];
    example.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    example.stderr!.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    const printed = async (line: string | RegExp) => {
      for (let waited = 0; !lines.some((seen) => (typeof line === 'string' ? seen === line : line.test(seen))); waited += 100) {
        if (waited > 60_000) throw new Error(`the example did not print ${line}: ${lines.join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await printed('listening');

    await admin.client.POST('/v1/spaces/{spaceId}/content', {
      params: { path: { spaceId: space.id } },
      body: { changes: [{ type: 'insert_page', title: 'One' }, { type: 'insert_page', title: 'Two' }] },
    });
    await printed(`${space.id}: 2 added, 0 edited, 0 removed`);
    const { data: ping } = await admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', { params: { path: { organizationId: organization.id, webhookId: hook!.id } } });
    await printed(`webhook.ping ${ping!.event}`);

    const forged = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'webhook-id': ping!.event, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,Zm9yZ2Vk' },
      body: '{"type":"space.deleted"}',
    });
    expect(forged.status).toBe(400);
    // The server's log of the deliveries: each answered 204 by the example (written moments after).
    const statuses = async () =>
      (await admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries', { params: { path: { organizationId: organization.id, webhookId: hook!.id } } })).data!.items.map(
        (delivery) => delivery.attempts.at(-1)?.statusCode,
      );
    for (let waited = 0; (await statuses()).join() !== '204,204' && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await statuses()).toEqual([204, 204]);
  });
});
