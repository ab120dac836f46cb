// One MCP request over Streamable HTTP, served statelessly (issue 31): the API's `/mcp`
// (packages/server/src/agents/mcp/agent-server.ts) and each published site's `~mcp`
// (packages/server/src/areas/sites/published/endpoints/mcp.ts) make a server for the request and hand it
// here. No session: any instance behind the load balancer answers any request, and nothing is kept
// between requests; answers are JSON rather than an event stream (no tool sends progress). A leaf, so
// that both the agents and the areas may use it (eslint.config.js).
import type { Request, Response } from 'express';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Answers `req` (its JSON body parsed into `req.body`) with `server`, made for this request alone and closed with it. */
export async function serveStatelessMcp(server: Server | McpServer, req: Request, res: Response): Promise<void> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}
