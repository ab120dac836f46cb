// Database round trips per request, counted on the wire: a TCP proxy between a server and PostgreSQL
// counts the backend's ReadyForQuery messages, one at the end of every round trip (a simple query, or
// an extended-protocol exchange up to its Sync). Everything the server sends counts, background work
// included (rate-limit writes); nothing else does (autovacuum, other databases, a test's or a
// benchmark's own queries), which the server-wide statistics of pg_stat_database cannot tell apart.
// Used by test/integration/round-trips.test.ts and by `pnpm bench api --against` (bench/api/history.ts).
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export type CountingProxy = { url: string; readyForQuery(): number; close(): Promise<void> };

/** A proxy to the PostgreSQL of `databaseUrl`; `url` is the same address through the proxy. */
export async function startCountingProxy(databaseUrl: string): Promise<CountingProxy> {
  const target = new URL(databaseUrl);
  let count = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const backend = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    sockets.add(client).add(backend);
    client.pipe(backend);
    // Backend messages: a type byte, then a 4-byte length counting itself and the body. The client
    // sends no SSLRequest (no TLS to a local server), so every reply is framed so from its first byte.
    let header = Buffer.alloc(0);
    let skip = 0;
    backend.on('data', (chunk: Buffer) => {
      client.write(chunk);
      let at = 0;
      while (at < chunk.length) {
        if (skip > 0) {
          const step = Math.min(skip, chunk.length - at);
          skip -= step;
          at += step;
          continue;
        }
        const need = 5 - header.length;
        header = Buffer.concat([header, chunk.subarray(at, at + need)]);
        at += Math.min(need, chunk.length - at);
        if (header.length < 5) break;
        if (header[0] === 0x5a /* Z: ReadyForQuery */) count++;
        skip = header.readInt32BE(1) - 4;
        header = Buffer.alloc(0);
      }
    });
    const close = () => {
      client.destroy();
      backend.destroy();
      sockets.delete(client);
      sockets.delete(backend);
    };
    client.on('close', close).on('error', close);
    backend.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(databaseUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as { port: number }).port);
  return {
    url: proxied.toString(),
    readyForQuery: () => count,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
