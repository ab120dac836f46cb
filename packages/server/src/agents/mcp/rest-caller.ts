// How a tool calls the API: over HTTP to this same server, with the MCP caller's own Authorization
// header, so each tool call passes the access gate, the rate limits, the validation and the idempotency
// of the operation it maps to — the rules are the REST operation's, there is no second copy of them
// (docs/decisions.md, "The API's MCP server").
import { specOperation } from './operation-schema.js';

export type RestAnswer = { status: number; body: unknown };

export type RestRequest = {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** Sent as `Idempotency-Key` on writes. */
  idempotencyKey?: string;
};

export type RestCaller = (operationId: string, request: RestRequest) => Promise<RestAnswer>;

/** Each call may take as long as a content batch of the API does; past this, the tool answers an error. */
const CALL_TIMEOUT_MS = 120_000;

export function createRestCaller(baseUrl: string, authorization: string): RestCaller {
  return async (operationId, request) => {
    const operation = specOperation(operationId);
    const path = operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(String(request.path?.[name] ?? '')));
    // Percent-encoded as the SDK does (URLSearchParams would write a space as `+`, which the API reads as itself).
    const query = Object.entries(request.query ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
      .join('&');
    const url = new URL(`${path}${query ? `?${query}` : ''}`, baseUrl);
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.idempotencyKey && operation.method !== 'get') headers['idempotency-key'] = request.idempotencyKey;
    const response = await fetch(url, {
      method: operation.method.toUpperCase(),
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = await response.text();
    let body: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
    return { status: response.status, body };
  };
}
