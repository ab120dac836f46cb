// The API's MCP server at /mcp through the official SDK's client over real HTTP: the tools it lists
// (schemas from the contract, annotations), an agent's whole authoring path (find, read, open a change
// request, write from Markdown, request review, merge, read back), and that every call has exactly the
// rights of the token it came with.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { callTool as call, textOf, useMcpClients } from '../support/agents.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace } from '../support/factories.js';
import { edit } from '../support/content.js';
import { componentSchema } from '../../src/agents/mcp/operation-schema.js';

const server = useTestServer();
const { connect: connectTo, connectApi: connect } = useMcpClients('mcp-test');

/** The JSON a successful tool call answered (fails the test with the tool's error otherwise). */
function json(result: CallToolResult): any {
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError, text).toBeFalsy();
  return JSON.parse(text);
}

async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization, { title: 'Handbook' });
  const { refs } = await edit(admin, space.id, [
    {
      type: 'insert_page',
      ref: 'install',
      title: 'Install',
      description: 'Get the server running.',
      markdown: 'Run it:\n\n{% hint style="warning" %}\nNode 20 first.\n{% endhint %}\n\nThe fastest route to a running server.\n',
    },
  ]);
  const pageId = refs.install!;
  return { admin, organization, space, pageId };
}

// A dozen calls, each two requests (MCP, then the operation): seconds each when every file runs at once.
describe('the API MCP server (/mcp)', { timeout: 180_000 }, () => {
  it('lists its tools with input schemas taken from the contract and truthful annotations', async () => {
    const t = server();
    const { admin } = await world(t);
    const client = await connect(t, admin.token);
    expect(client.getServerVersion()?.name).toBe('content-workspace');
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual(
      [
        'comment_on_change_request',
        'create_page',
        'delete_page',
        'list_organizations',
        'list_pages',
        'list_spaces',
        'merge_change_request',
        'move_page',
        'open_change_request',
        'read_page',
        'request_review',
        'search',
        'update_page',
      ].sort(),
    );
    for (const name of ['list_organizations', 'list_spaces', 'search', 'list_pages', 'read_page']) {
      expect(byName[name]!.annotations, name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
    for (const name of ['open_change_request', 'create_page', 'update_page', 'move_page', 'delete_page', 'comment_on_change_request', 'request_review', 'merge_change_request']) {
      expect(byName[name]!.annotations?.readOnlyHint, name).toBe(false);
    }
    expect(byName.delete_page!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(byName.merge_change_request!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.create_page!.annotations).toMatchObject({ destructiveHint: false, idempotentHint: false });
    expect(byName.open_change_request!.annotations).toMatchObject({ destructiveHint: false, idempotentHint: false });
    // The contract's own schemas: InsertPageChange's title limits, the comment body, the search query.
    const insert = componentSchema('InsertPageChange').properties;
    expect(byName.create_page!.inputSchema.properties!.title).toEqual(insert.title);
    expect(byName.create_page!.inputSchema.required).toEqual(['spaceId', 'changeRequestId']);
    expect(byName.update_page!.inputSchema.required).toEqual(['spaceId', 'changeRequestId', 'page']);
    expect(byName.search!.inputSchema.required).toEqual(['organizationId', 'query']);
    expect(byName.merge_change_request!.inputSchema.properties).toHaveProperty('idempotencyKey');
    expect(Object.keys(byName.read_page!.inputSchema.properties!).sort()).toEqual(['changeRequestId', 'pageId', 'spaceId']);
  });

  it('takes an agent from finding a page to merging its edit, and the page read afterwards shows it', async () => {
    const t = server();
    const { admin, organization, space, pageId } = await world(t);
    const client = await connect(t, admin.token);

    const organizations = json(await call(client, 'list_organizations', {}));
    expect(organizations.items.map((item: { id: string }) => item.id)).toEqual([organization.id]);
    const spaces = json(await call(client, 'list_spaces', { organizationId: organization.id }));
    expect(spaces.items.map((item: { id: string }) => item.id)).toEqual([space.id]);
    const found = json(await call(client, 'search', { organizationId: organization.id, query: 'fastest route' }));
    expect(found.items.map((item: { id: string; pages: { id: string }[] }) => [item.id, item.pages.map((page) => page.id)])).toEqual([[space.id, [pageId]]]);

    const page = textOf(await call(client, 'read_page', { spaceId: space.id, pageId }));
    expect(page).toBe('# Install\n\n> Get the server running.\n\nRun it:\n\n> [!WARNING]\n> Node 20 first.\n\nThe fastest route to a running server.\n');

    const changeRequest = json(await call(client, 'open_change_request', { spaceId: space.id, subject: 'Clearer install' }));
    const changeRequestId = String(changeRequest.number);
    const edited = page.replace('Node 20 first.', 'Node 20 or later first.').replace('# Install', '# Installing');
    json(await call(client, 'update_page', { spaceId: space.id, changeRequestId, page: pageId, document: edited }));
    const created = json(
      await call(client, 'create_page', { spaceId: space.id, changeRequestId, document: '# Upgrade\n\n<!-- tabs -->\n#### Linux\napt upgrade\n#### macOS\nbrew upgrade\n<!-- /tabs -->\n' }),
    );
    expect(created.refs.page).toEqual(expect.any(String));
    json(await call(client, 'comment_on_change_request', { spaceId: space.id, changeRequestId, body: { markdown: 'Ready for a look.' } }));
    expect(json(await call(client, 'request_review', { spaceId: space.id, changeRequestId })).status).toBe('open');
    // In the change request, not yet in the space.
    expect(textOf(await call(client, 'read_page', { spaceId: space.id, changeRequestId, pageId }))).toBe(edited);
    expect(textOf(await call(client, 'read_page', { spaceId: space.id, pageId }))).toBe(page);

    json(await call(client, 'merge_change_request', { spaceId: space.id, changeRequestId }));
    expect(textOf(await call(client, 'read_page', { spaceId: space.id, pageId }))).toBe(edited);
    // What REST reads after it: the body stored in GitBook's own syntax, the title changed.
    const { data } = await admin.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId: space.id, pageId } } });
    expect(data).toMatchObject({ title: 'Installing', markdown: 'Run it:\n\n{% hint style="warning" %}\nNode 20 or later first.\n{% endhint %}\n\nThe fastest route to a running server.\n' });
    const upgrade = textOf(await call(client, 'read_page', { spaceId: space.id, pageId: created.refs.page }));
    expect(upgrade).toContain('<!-- tabs -->\n#### Linux\napt upgrade\n#### macOS\nbrew upgrade\n<!-- /tabs -->');
  });

  it("answers a REST refusal as a tool error carrying the operation's own error: a read member's merge is a 403", async () => {
    const t = server();
    const { admin, organization, space, pageId } = await world(t);
    const reader = await createMember(t, organization, 'read');
    const writer = await connect(t, admin.token);
    const changeRequest = json(await call(writer, 'open_change_request', { spaceId: space.id }));
    const changeRequestId = String(changeRequest.number);
    json(await call(writer, 'update_page', { spaceId: space.id, changeRequestId, page: pageId, markdown: 'Changed.' }));

    const client = await connect(t, reader.token);
    const refused = await call(client, 'merge_change_request', { spaceId: space.id, changeRequestId });
    expect(refused.isError).toBe(true);
    const rest = await reader.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge', { params: { path: { spaceId: space.id, changeRequestId } } });
    expect(rest.response.status).toBe(403);
    expect(JSON.parse(textOf(refused))).toEqual(rest.error);
    expect(refused.structuredContent).toEqual(rest.error);
    // Reading stays allowed, and the page is unchanged.
    expect(textOf(await call(client, 'read_page', { spaceId: space.id, pageId }))).toContain('Node 20 first.');

    // The contract's validation, not the tool's: a title beyond the limit is the REST 400.
    const invalid = await call(writer, 'update_page', { spaceId: space.id, changeRequestId, page: pageId, title: 'x'.repeat(300) });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse(textOf(invalid)).error).toMatchObject({ code: 400 });
    // The tool's own check: an input property no tool of this kind knows is refused, not ignored — an
    // operation tool, a page-change tool and a read alike, and nothing is written.
    for (const [name, input] of [
      ['list_spaces', { organizationId: organization.id, sort: 'title' }],
      ['update_page', { spaceId: space.id, changeRequestId, page: pageId, markdown: 'Not written.', body: 'x' }],
      ['read_page', { spaceId: space.id, pageId, format: 'html' }],
    ] as const) {
      const unknown = await call(writer, name, input);
      expect(unknown.isError, name).toBe(true);
      const stray = Object.keys(input).at(-1)!;
      expect(JSON.parse(textOf(unknown)), name).toEqual({ error: { code: 400, message: `/${stray}: is not a parameter of this tool`, issues: [{ path: `/${stray}`, message: 'is not a parameter of this tool' }] } });
    }
    expect(textOf(await call(writer, 'read_page', { spaceId: space.id, changeRequestId, pageId }))).toContain('Changed.');
  });

  it('refuses a missing or bad token with 401 before any MCP handling', async () => {
    const t = server();
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    for (const authorization of [undefined, 'Bearer cw_notatoken', 'Basic abc']) {
      const response = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
        body: initialize,
      });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(401);
    }
    await expect(connectTo(t, '/mcp')).rejects.toThrow();
  });

  it("gives a token of another organization nothing of this one: its lists are its own and this one's ids are absent", async () => {
    const t = server();
    const { space, pageId, organization } = await world(t);
    const { admin: stranger, organization: theirs } = await createOrganizationWithAdmin(t);
    const client = await connect(t, stranger.token);
    expect(json(await call(client, 'list_organizations', {})).items.map((item: { id: string }) => item.id)).toEqual([theirs.id]);
    for (const [name, args] of [
      ['list_spaces', { organizationId: organization.id }],
      ['search', { organizationId: organization.id, query: 'fastest' }],
      ['read_page', { spaceId: space.id, pageId }],
      ['list_pages', { spaceId: space.id }],
      ['open_change_request', { spaceId: space.id }],
    ] as const) {
      const result = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(JSON.parse(textOf(result)).error.code, name).toBe(404);
    }
  });
});
