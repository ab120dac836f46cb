// For the agent tests (test/agents/*, test/integration/published-sites-agents.test.ts): MCP clients of
// the official SDK over real HTTP, closed after each test, and the small published site they read.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';
import type { TestServer } from './harness.js';
import { publishedSite, type PublishedWorld } from './published.js';

export type McpClients = {
  /** A client connected to the MCP server at `path` of `t` (the API's `/mcp`, a site's `~mcp`), sending `headers` with every request. */
  connect(t: TestServer, path: string, headers?: Record<string, string>): Promise<Client>;
  /** A client of the API's `/mcp` with `token`'s rights. */
  connectApi(t: TestServer, token: string): Promise<Client>;
};

/** MCP clients for a test file: each one made in a test is closed after it. */
export function useMcpClients(name: string): McpClients {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  const connect = async (t: TestServer, path: string, headers: Record<string, string> = {}) => {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(path, t.url), { requestInit: { headers } }));
    clients.push(client);
    return client;
  };
  return { connect, connectApi: (t, token) => connect(t, '/mcp', { Authorization: `Bearer ${token}` }) };
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export const textOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text;

/** The address of a site below the server (its path address). */
export const siteRoot = (world: PublishedWorld) => `/s/${world.siteId}`;

/**
 * A published site (one space, "Acme Docs") of three pages with the given bodies: Welcome (`welcome`,
 * described "Start here."), Guide (`guide`) and a hidden page (`hidden`, ref `secret`).
 */
export function agentSite(t: TestServer, bodies: { welcome: string; guide: string; hidden: string }, options: Parameters<typeof publishedSite>[2] = {}): Promise<PublishedWorld> {
  return publishedSite(
    t,
    [
      { type: 'insert_page', ref: 'welcome', title: 'Welcome', slug: 'welcome', description: 'Start here.', markdown: bodies.welcome },
      { type: 'insert_page', ref: 'guide', title: 'Guide', slug: 'guide', markdown: bodies.guide },
      { type: 'insert_page', ref: 'secret', title: 'Hidden', slug: 'hidden', hidden: true, markdown: bodies.hidden },
    ] as never,
    options,
  );
}
