// Graceful shutdown of the HTTP server. Node's `server.close()` alone stops accepting connections but
// keeps serving new requests on kept-alive sockets until they time out, and whatever is still open at the
// deadline is cut — including requests that had already committed, which clients then retry. Here, once
// draining starts, no request is started any more: one arriving on an open socket gets a 503 with
// `Connection: close` before anything runs, responses in flight close their connection, idle sockets
// close at once, and the server is closed when the last request has finished.
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';

export type DrainableServer = {
  server: Server;
  /** True from the moment draining started. */
  isDraining(): boolean;
  /**
   * Starts draining and resolves when every connection is closed. Connections still open after
   * `timeoutMs` (a request running that long) are cut; `forced` says whether that happened.
   */
  drain(timeoutMs: number): Promise<{ forced: boolean }>;
};

/** What a client that sent a request after the signal gets: nothing was done, retry (another instance). */
const REFUSAL = JSON.stringify({ error: { code: 503, message: 'The server is shutting down; retry' } });

function refuse(res: ServerResponse) {
  res.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(REFUSAL),
    'Connection': 'close',
    'Retry-After': '1',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(REFUSAL);
}

export function createDrainableServer(handler: RequestListener<typeof IncomingMessage, typeof ServerResponse>): DrainableServer {
  let draining: Promise<{ forced: boolean }> | undefined;
  const inFlight = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    if (draining) {
      refuse(res);
      return;
    }
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // Its socket may be kept alive: once idle, close it (a turn later, when Node has marked it idle).
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
    handler(req, res);
  });

  return {
    server,
    isDraining: () => draining !== undefined,
    drain(timeoutMs) {
      draining ??= new Promise((resolve) => {
        let forced = false;
        const timer = setTimeout(() => {
          forced = true;
          server.closeAllConnections();
        }, timeoutMs);
        server.close(() => {
          clearTimeout(timer);
          resolve({ forced });
        });
        // Responses not started yet tell the client this connection ends with them.
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        server.closeIdleConnections();
      });
      return draining;
    },
  };
}
