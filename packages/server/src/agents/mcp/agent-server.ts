// The API's MCP server at `/mcp` (issue 31): Streamable HTTP through the official SDK, stateless — a
// server per request (packages/server/src/mcp-http.ts), no session to keep or share between instances — each tool an
// operation of the API called back over HTTP with the caller's own token (tools.ts, rest-caller.ts).
// Mounted after the caller is resolved and rate-limited (app.ts): a request without a valid token is a
// 401 before any MCP handling. docs/decisions.md, "The API's MCP server".
import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { unauthorized } from '../../errors.js';
import { loadSpec } from '../../http/operations.js';
import { serveStatelessMcp } from '../../mcp-http.js';
import { createRestCaller, type RestCaller } from './rest-caller.js';
import { agentTools } from './tools.js';

export const MCP_PATH = '/mcp';
/** A page body of the API's 1,000,000-character maximum, JSON-escaped, with room for the rest of the call. */
const MCP_BODY_LIMIT = '4mb';

const INSTRUCTIONS =
  'Content Workspace: read and write the documentation of your organizations. Find a space with list_organizations and list_spaces, ' +
  'its pages with list_pages or search, read one with read_page. To change content, open_change_request, then create_page / ' +
  'update_page / move_page / delete_page in it, request_review, and merge_change_request when it is approved. Every call has the ' +
  "rights of the token the client connected with.";

type Caller = { api: RestCaller; tokenId: string };

function createAgentServer(caller: Caller): Server {
  const server = new Server({ name: 'content-workspace', title: 'Content Workspace', version: String((loadSpec().info as { version?: string } | undefined)?.version ?? '0') }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const tools = agentTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, title, description, inputSchema, annotations }) => ({ name, title, description, inputSchema: inputSchema as { type: 'object' }, annotations })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    const input = request.params.arguments ?? {};
    if (!tool) return { content: [{ type: 'text', text: JSON.stringify({ error: { code: 404, message: `No tool named ${request.params.name}` } }) }], isError: true };
    // One key per call of a client: its request id (which a retry of the same call keeps), the tool and
    // its input, under the caller's token — so two different calls never share a key.
    const derivedIdempotencyKey = createHash('sha256').update(JSON.stringify([caller.tokenId, extra.requestId, tool.name, input])).digest('hex').slice(0, 40);
    return tool.call(input, { api: caller.api, derivedIdempotencyKey });
  });
  return server;
}

/** This server as its own loopback client reaches it: the address and port the request came in on. */
function ownAddress(req: Request): string {
  const host = req.socket.localAddress ?? '127.0.0.1';
  return `http://${isIPv6(host) ? `[${host}]` : host}:${req.socket.localPort}`;
}

export function mountAgentMcp(router: Router): void {
  const parseJson = express.json({ limit: MCP_BODY_LIMIT });
  router.all(
    MCP_PATH,
    (req: Request, _res: Response, next: NextFunction) => next(req.caller ? undefined : unauthorized(req.authProblem ?? 'Missing bearer token')),
    parseJson,
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        await serveStatelessMcp(createAgentServer({ api: createRestCaller(ownAddress(req), req.headers.authorization!), tokenId: req.caller!.tokenId }), req, res);
      } catch (error) {
        next(error);
      }
    },
  );
}
