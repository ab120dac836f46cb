// A start that cannot work because of something the operator sets or fixes (a busy port, an address
// this machine does not have, a database it cannot reach, a folder it may not write): one sentence
// saying what is wrong and what to change, printed alone on stderr — no stack (run-server.ts).
import { createServer } from 'node:net';

export class StartFailure extends Error {
  constructor(
    message: string,
    /** Fields for the `fatal` JSON log line (never a secret). */
    readonly details: Record<string, unknown> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'StartFailure';
  }
}

/** `host:port` as people write it (an IPv6 address in brackets). */
export function hostAndPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The sentence for a failed `listen(port, host)`, or undefined for an error no setting explains. */
export function listenFailure(error: unknown, host: string, port: number): StartFailure | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const details = { address: hostAndPort(host, port), code };
  switch (code) {
    case 'EADDRINUSE':
      return new StartFailure(`Port ${port} is in use (on ${host}): set PORT to a free port, or stop the process using it.`, details, { cause: error });
    case 'EADDRNOTAVAIL':
      return new StartFailure(
        `HOST ${host} is not an address of this machine: set HOST to one of its addresses, 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).`,
        details,
        { cause: error },
      );
    case 'EACCES':
      return new StartFailure(
        `Port ${port} needs privileges this process does not have (ports below 1024 do): set PORT to 1024 or above, with a reverse proxy in front (docs/deploy.md).`,
        details,
        { cause: error },
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new StartFailure(`HOST ${host} does not resolve to an address of this machine: set HOST to an IP address (0.0.0.0 for every interface).`, details, {
        cause: error,
      });
    default:
      return undefined;
  }
}

/**
 * Fails with the sentence when nothing could listen on `host:port` now (in use, not an address of this
 * machine; with port 0, any port of the address): checked before the database starts, so a busy port
 * is said at once. A race with another process between this check and the real listen still gets the
 * same sentence from that listen.
 */
export async function checkListenAddress(host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', (error) => reject(listenFailure(error, host, port) ?? error));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
