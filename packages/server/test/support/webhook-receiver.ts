// A webhook receiver over real HTTP for the webhook tests: it records every delivery (headers and raw
// body), answers as the test tells it (a status, a body, a delay, a redirect), and can go down and come
// back on the same port.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Delivery = { headers: IncomingHttpHeaders; body: string; path: string; at: number };

/** How the receiver answers a delivery: a status (200 by default), a body, and how long it waits first. */
export type Answer = { status?: number; body?: string | Buffer; delayMs?: number; headers?: Record<string, string> };

export type Receiver = {
  url: string;
  port: number;
  received: Delivery[];
  /** Sets how the next deliveries are answered. */
  answer(with_: Answer | ((delivery: Delivery) => Answer)): void;
  /** Resolves when `predicate` holds for the deliveries received so far (checked on each one). */
  waitFor(predicate: (received: Delivery[]) => boolean, timeoutMs?: number): Promise<Delivery[]>;
  /** Stops listening (connections are refused) until `start()`. */
  stop(): Promise<void>;
  start(): Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const received: Delivery[] = [];
  let answer: (delivery: Delivery) => Answer = () => ({});
  const waiters: Array<() => void> = [];
  let port = 0;
  let server: Server | undefined;
  const sockets = new Set<Socket>();

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const delivery = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), path: request.url ?? '/', at: Date.now() };
          received.push(delivery);
          for (const wake of waiters.splice(0)) wake();
          const { status = 200, body = '', delayMs = 0, headers = {} } = answer(delivery);
          setTimeout(() => {
            if (response.destroyed) return;
            response.writeHead(status, { 'content-type': 'text/plain', ...headers });
            response.end(body);
          }, delayMs);
        });
      });
      server.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();

  const receiver: Receiver = {
    get url() {
      return `http://127.0.0.1:${port}/hooks`;
    },
    get port() {
      return port;
    },
    received,
    answer(with_) {
      answer = typeof with_ === 'function' ? with_ : () => with_;
    },
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the receiver did not get what was expected within ${timeoutMs} ms (${received.length} deliveries)`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 250));
          waiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
      return received;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
    start: listen,
  };
  return receiver;
}

/** The deliveries' parsed bodies. */
export const bodies = <T = { id: string; type: string }>(deliveries: Delivery[]) => deliveries.map((delivery) => JSON.parse(delivery.body) as T);
