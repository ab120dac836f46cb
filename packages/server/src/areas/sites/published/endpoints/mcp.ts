// `~mcp`: the site's MCP server (site-mcp.ts) over Streamable HTTP, stateless like the API's `/mcp`
// (packages/server/src/mcp-http.ts: a server per request, answers as JSON). It sees what the
// visitor sending the request may see: credentials per request (the share key in the address or
// `X-Share-Key`, the visitor token as a bearer: visitor.ts), charged and limited per address like pages
// (site-charge.ts), and to a visitor a site is absent for, the same absent answer as every address.
import express, { type Response } from 'express';
import { serveStatelessMcp } from '../../../../mcp-http.js';
import { createSiteMcpServer } from '../site-mcp.js';
import type { SiteEndpoint, SiteVisit } from '../site-visit.js';

export const SITE_MCP_SEGMENT = '~mcp';
/** A read-only server's requests are small: a tool call with a query or an address. */
const parseJson = express.json({ limit: '64kb' });

function jsonRpcError(res: Response, status: number, code: number, message: string) {
  res.status(status).set('Content-Type', 'application/json').send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function serveMcp(visit: SiteVisit, res: Response): Promise<void> {
  const { req } = visit;
  const parsed = await new Promise<boolean>((resolve) => parseJson(req, res, (error?: unknown) => resolve(!error)));
  if (!parsed) return jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON of at most 64 kB');
  res.set('Cache-Control', 'no-store');
  await serveStatelessMcp(await createSiteMcpServer(visit), req, res);
}

export const mcpEndpoint: SiteEndpoint = {
  name: 'mcp',
  audience: 'visitor',
  credentials: 'request',
  methods: ['POST'],
  matches: ({ segments }) => segments.length === 1 && segments[0] === SITE_MCP_SEGMENT,
  serve: serveMcp,
};
