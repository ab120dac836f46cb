// A local website for import tests: a real HTTP server on a loopback port serving fixed answers
// (pages, images, redirects, slow or failing addresses). The test server reaches it because tests
// allow loopback addresses (OUTBOUND_ALLOW_PRIVATE).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FixtureAnswer = { status?: number; type?: string; body?: string | Buffer; location?: string; delayMs?: number };

export type FixtureSite = {
  /** Base address, without a trailing slash. */
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  close(): Promise<void>;
};

export async function startFixtureSite(routes: Record<string, FixtureAnswer>): Promise<FixtureSite> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const answer = routes[req.url ?? ''];
    const send = () => {
      if (!answer) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const headers: Record<string, string> = {};
      if (answer.type) headers['content-type'] = answer.type;
      if (answer.location) headers.location = answer.location;
      res.writeHead(answer.status ?? 200, headers).end(answer.body ?? '');
    };
    if (answer?.delayMs) setTimeout(send, answer.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An HTML page with a title and a body. */
export function html(title: string, body: string): FixtureAnswer {
  return { type: 'text/html; charset=utf-8', body: `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>` };
}
