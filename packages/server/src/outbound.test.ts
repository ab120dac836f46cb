import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectionPool, fetchGuarded, isPublicAddress, OutboundError, postGuarded, type OutboundPolicy } from './outbound.js';

let server: Server;
let base: string;
const hits: string[] = [];
let connections = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url!);
    const url = new URL(req.url!, 'http://x');
    if (req.method === 'POST' && url.pathname === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => res.writeHead(202, { 'x-got': String(req.headers['x-signature']) }).end(Buffer.concat(chunks)));
      return;
    }
    if (url.pathname === '/ok') return res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    if (url.pathname === '/redirect') return res.writeHead(302, { location: `/redirect?n=${Number(url.searchParams.get('n') ?? 0) + 1}` }).end();
    if (url.pathname === '/to') return res.writeHead(301, { location: url.searchParams.get('target')! }).end();
    if (url.pathname === '/large') return res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000));
    if (url.pathname === '/stream') {
      // No Content-Length: the cap must hold while reading.
      res.writeHead(200);
      for (let i = 0; i < 10; i++) res.write('y'.repeat(1000));
      return res.end();
    }
    if (url.pathname === '/slow') return void setTimeout(() => res.writeHead(200).end('late'), 2000);
    if (url.pathname === '/missing') return res.writeHead(404).end();
    res.writeHead(500).end();
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const open: OutboundPolicy = { allowPrivate: true, timeoutMs: 1000, maxBytes: 2048 };
const guarded: OutboundPolicy = { ...open, allowPrivate: false };

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe('fetchGuarded', () => {
  it('fetches from loopback only when private addresses are allowed', async () => {
    const response = await fetchGuarded(`${base}/ok`, open);
    expect(response).toMatchObject({ status: 200, url: `${base}/ok` });
    expect(response.body.toString()).toBe('hello');
    expect(response.headers['content-type']).toBe('text/plain');

    const before = hits.length;
    expect((await failure(fetchGuarded(`${base}/ok`, guarded))).code).toBe('FORBIDDEN_ADDRESS');
    const port = new URL(base).port;
    expect((await failure(fetchGuarded(`http://localhost:${port}/ok`, guarded))).code).toBe('FORBIDDEN_ADDRESS');
    expect((await failure(fetchGuarded(`http://[::1]:${port}/ok`, guarded))).code).toBe('FORBIDDEN_ADDRESS');
    expect((await failure(fetchGuarded('http://10.1.2.3/', guarded))).code).toBe('FORBIDDEN_ADDRESS');
    expect((await failure(fetchGuarded('http://169.254.169.254/latest/meta-data', guarded))).code).toBe('FORBIDDEN_ADDRESS');
    expect(hits.length).toBe(before);
  });

  it('checks every redirect hop, and caps their number', async () => {
    // 127.0.0.1 stands for a public address here; the redirect target 127.0.0.2 does not.
    const onlyFirst = { ...guarded, isAllowedAddress: (address: string) => address === '127.0.0.1' };
    const port = new URL(base).port;
    const refused = await failure(fetchGuarded(`${base}/to?target=${encodeURIComponent(`http://127.0.0.2:${port}/ok`)}`, onlyFirst));
    expect(refused.code).toBe('FORBIDDEN_ADDRESS');
    expect((await fetchGuarded(`${base}/to?target=/ok`, onlyFirst)).body.toString()).toBe('hello');
    expect((await failure(fetchGuarded(`${base}/redirect`, { ...open, maxRedirects: 3 }))).code).toBe('TOO_MANY_REDIRECTS');
    expect((await failure(fetchGuarded(`${base}/to?target=${encodeURIComponent('file:///etc/passwd')}`, open))).code).toBe('BAD_URL');
  });

  it('refuses every spelling of a loopback address before connecting', async () => {
    const port = new URL(base).port;
    const before = hits.length;
    for (const host of ['[::127.0.0.1]', '[::7f00:1]', '[::ffff:127.0.0.1]', '[::ffff:0:127.0.0.1]', '[64:ff9b::127.0.0.1]', '[2002:7f00:1::1]', '2130706433', '0x7f.1', '017700000001', '127.1']) {
      const error = await failure(fetchGuarded(`http://${host}:${port}/ok`, guarded));
      expect({ host, code: error.code }).toEqual({ host, code: 'FORBIDDEN_ADDRESS' });
    }
    expect(hits.length).toBe(before);
  });

  it('checks each redirect hop whatever spelling the target uses', async () => {
    // 127.0.0.1 stands for a public address here; every other address goes through the real rule.
    const firstIsPublic = { ...guarded, isAllowedAddress: (address: string) => address === '127.0.0.1' || isPublicAddress(address) };
    const port = new URL(base).port;
    for (const target of [`http://[::127.0.0.1]:${port}/ok`, `http://[::ffff:127.0.0.2]:${port}/ok`, `http://0x7f.0.0.2:${port}/ok`, `http://2130706434:${port}/ok`]) {
      const error = await failure(fetchGuarded(`${base}/to?target=${encodeURIComponent(target)}`, firstIsPublic));
      expect({ target, code: error.code }).toEqual({ target, code: 'FORBIDDEN_ADDRESS' });
    }
  });

  it('refuses other schemes, credentials and malformed addresses', async () => {
    expect((await failure(fetchGuarded('ftp://example.com/x', open))).code).toBe('BAD_URL');
    expect((await failure(fetchGuarded('http://user:pw@example.com/', open))).code).toBe('BAD_URL');
    expect((await failure(fetchGuarded('not a url', open))).code).toBe('BAD_URL');
  });

  it('caps the body size, declared or streamed', async () => {
    expect((await failure(fetchGuarded(`${base}/large`, open))).code).toBe('TOO_LARGE');
    expect((await failure(fetchGuarded(`${base}/stream`, open))).code).toBe('TOO_LARGE');
    expect((await fetchGuarded(`${base}/stream`, { ...open, maxBytes: 20_000 })).body.length).toBe(10_000);
  });

  it('gives up after the timeout', async () => {
    const started = Date.now();
    expect((await failure(fetchGuarded(`${base}/slow`, { ...open, timeoutMs: 200 }))).code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('reports a non-2xx answer', async () => {
    const error = await failure(fetchGuarded(`${base}/missing`, open));
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 404 });
  });
});

describe('postGuarded', () => {
  it('sends the body and headers, and answers whatever status came (at most maxBytes of the body)', async () => {
    const answer = await postGuarded(`${base}/echo`, 'z'.repeat(5000), { 'x-signature': 'v1,abc' }, open);
    expect([answer.status, answer.headers['x-got'], answer.body.length]).toEqual([202, 'v1,abc', 2048]);
    expect((await postGuarded(`${base}/missing`, '{}', {}, open)).status).toBe(404);
  });

  it('follows no redirect: the 3xx is the answer', async () => {
    hits.length = 0;
    const answer = await postGuarded(`${base}/to?target=${encodeURIComponent(`${base}/ok`)}`, '{}', {}, open);
    expect(answer.status).toBe(301);
    expect(hits).toEqual([`/to?target=${encodeURIComponent(`${base}/ok`)}`]);
  });

  it('with a pool, reuses a kept-alive connection to the address checked, and still checks every request', async () => {
    // One connection per origin: with more, undici may open a second before the first is marked free.
    const pool = createConnectionPool({ connectionsPerOrigin: 1 });
    try {
      const before = connections;
      for (let i = 0; i < 5; i++) expect((await postGuarded(`${base}/echo`, `{"n":${i}}`, {}, open, pool)).body.toString()).toBe(`{"n":${i}}`);
      expect(connections - before).toBe(1);
      // The same receiver refused by another policy, pooled connection or not.
      expect((await failure(postGuarded(`${base}/echo`, '{}', {}, guarded, pool))).code).toBe('FORBIDDEN_ADDRESS');
      expect((await failure(postGuarded(`http://localhost:${new URL(base).port}/echo`, '{}', {}, guarded, pool))).code).toBe('FORBIDDEN_ADDRESS');
    } finally {
      pool.destroy();
    }
  });

  it('refuses private addresses unless allowed, and gives up after the timeout', async () => {
    expect((await failure(postGuarded(`${base}/echo`, '{}', {}, guarded))).code).toBe('FORBIDDEN_ADDRESS');
    expect((await failure(postGuarded(`http://localhost:${new URL(base).port}/echo`, '{}', {}, guarded))).code).toBe('FORBIDDEN_ADDRESS');
    expect((await failure(postGuarded(`${base}/slow`, '{}', {}, { ...open, timeoutMs: 200 }))).code).toBe('TIMEOUT');
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['93.184.216.34', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['172.20.1.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['0.0.0.0', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['not-an-ip', false],
    ['8.8.8.8/x', false],
    ['', false],
  ])('plain spellings: %s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it.each([
    // decimal, octal and hex IPv4 read as the system (inet_aton) and the URL parser read them
    ['2130706433', false],
    ['0x7f.1', false],
    ['017700000001', false],
    ['0177.0.0.1', false],
    ['0x7f000001', false],
    ['127.1', false],
    ['0xa9.0xfe.0xa9.0xfe', false],
    ['134744072', true], // 8.8.8.8
  ])('IPv4 numeric spellings: %s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it.each([
    // IPv4-mapped: converted, the IPv4 address decides
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['0:0:0:0:0:ffff:a00:1', false],
    ['::ffff:169.254.169.254', false],
    ['::ffff:8.8.8.8', true],
    // IPv4-compatible (deprecated): refused whatever it embeds
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::10.0.0.1', false],
    ['::169.254.169.254', false],
    ['::8.8.8.8', false],
    // IPv4-translated (RFC 6145)
    ['::ffff:0:127.0.0.1', false],
    // NAT64 well-known prefix: converted, the IPv4 address decides; the local-use prefix is refused
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::10.0.0.1', false],
    ['64:ff9b::8.8.8.8', true],
    ['64:ff9b:1::808:808', false],
    // 6to4 and Teredo: refused whatever they embed
    ['2002:7f00:1::1', false],
    ['2002:808:808::1', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
  ])('IPv4 embedded in IPv6: %s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it.each([
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.254', 'benchmarking'],
    ['2001:2::1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['fd00::1', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['feff::1', 'site-local'],
  ])('%s is refused (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});
