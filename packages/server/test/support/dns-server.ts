// A DNS server on a local UDP port for the tests of custom hostnames (no other DNS is reachable here, and
// tests must not depend on one): it answers TXT and CNAME questions from records the test sets, NXDOMAIN
// for names it has none for, and, while `silent`, nothing at all (a server that never answers). Only the
// parts of RFC 1035 a stub resolver's question needs: one question, no compression in it.
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

const TYPES = { A: 1, CNAME: 5, TXT: 16 } as const;
type Entry = { TXT?: string[][]; CNAME?: string };

function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (message[at]! > 0) {
    const length = message[at]!;
    labels.push(message.subarray(at + 1, at + 1 + length).toString('latin1'));
    at += 1 + length;
  }
  return { name: labels.join('.'), end: at + 1 };
}

function encodeName(name: string): Buffer {
  const parts = name.split('.').filter(Boolean).map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'latin1')]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function record(type: number, rdata: Buffer): Buffer {
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0); // the question's name
  fixed.writeUInt16BE(type, 2);
  fixed.writeUInt16BE(1, 4); // IN
  fixed.writeUInt32BE(60, 6);
  fixed.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([fixed, rdata]);
}

export class TestDnsServer {
  private readonly entries = new Map<string, Entry>();
  /** Every question asked, as `TYPE name`. */
  readonly questions: string[] = [];
  /** While true, questions get no answer. */
  silent = false;

  private constructor(private readonly socket: Socket) {
    socket.on('message', (message, peer) => {
      const answer = this.answer(message);
      if (answer) socket.send(answer, peer.port, peer.address);
    });
  }

  static async start(): Promise<TestDnsServer> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new TestDnsServer(socket);
  }

  /** `ip:port`, as SITE_DNS_SERVERS takes it. */
  get address(): string {
    const { address, port } = this.socket.address() as AddressInfo;
    return `${address}:${port}`;
  }

  /** Sets the TXT record of `name`: each value a list of strings (as DNS splits long text). */
  setTxt(name: string, ...values: string[][]): void {
    this.entries.set(name.toLowerCase(), { ...this.entries.get(name.toLowerCase()), TXT: values });
  }

  setCname(name: string, target: string): void {
    this.entries.set(name.toLowerCase(), { ...this.entries.get(name.toLowerCase()), CNAME: target });
  }

  clear(name: string): void {
    this.entries.delete(name.toLowerCase());
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private answer(message: Buffer): Buffer | undefined {
    if (message.length < 12 || message.readUInt16BE(4) !== 1) return undefined;
    const { name, end } = readName(message, 12);
    const type = message.readUInt16BE(end);
    this.questions.push(`${Object.entries(TYPES).find(([, code]) => code === type)?.[0] ?? type} ${name.toLowerCase()}`);
    if (this.silent) return undefined;
    const entry = this.entries.get(name.toLowerCase());
    const answers: Buffer[] = [];
    if (entry?.CNAME && (type === TYPES.CNAME || type === TYPES.A || type === TYPES.TXT)) answers.push(record(TYPES.CNAME, encodeName(entry.CNAME)));
    else if (type === TYPES.TXT) {
      for (const value of entry?.TXT ?? []) answers.push(record(TYPES.TXT, Buffer.concat(value.map((text) => Buffer.concat([Buffer.from([Buffer.byteLength(text)]), Buffer.from(text)])))));
    }
    const header = Buffer.alloc(12);
    header.writeUInt16BE(message.readUInt16BE(0), 0);
    // A response, authoritative, recursion desired (copied) and available; NXDOMAIN for unknown names.
    header.writeUInt16BE(0x8000 | 0x0400 | (message.readUInt16BE(2) & 0x0100) | 0x0080 | (entry ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    return Buffer.concat([header, message.subarray(12, end + 4), ...answers]);
  }
}
