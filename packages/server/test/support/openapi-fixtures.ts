// A local HTTP server of OpenAPI fixtures: a multi-file spec with relative and cross-folder `$ref`s, a
// source too slow to answer, one that fails with 500, one that serves garbage, files referencing them,
// and routes a test can change (`set`) or hold until it lets them answer (`hold`).
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseYaml } from '@redocly/openapi-core';

type Route = { body: string | Buffer; contentType: string };

const yaml = (body: string): Route => ({ body, contentType: 'application/yaml' });

const FILES: Record<string, Route> = {
  '/multi/openapi.yaml': yaml(`openapi: 3.1.0
info:
  title: Pets
  version: 1.0.0
paths:
  /pets:
    get:
      responses:
        '200':
          description: The pets.
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: schemas/pet.yaml
        default:
          description: An error.
          content:
            application/json:
              schema:
                $ref: ../shared/error.yaml
`),
  '/multi/schemas/pet.yaml': yaml(`type: object
required: [name]
properties:
  name:
    type: string
  owner:
    $ref: owner.json
`),
  '/multi/schemas/owner.json': { body: '{"type":"object","properties":{"email":{"type":"string","format":"email"}}}', contentType: 'application/json' },
  '/shared/error.yaml': yaml('type: object\nproperties:\n  message:\n    type: string\n'),
  '/fail': { body: 'internal error', contentType: 'text/plain' },
  '/garbage': { body: Buffer.from([0x7b, 0x22, 0xff, 0x00, 0x3a, 0x5b, 0x5b, 0x7d, 0x0a, 0x09, 0x2d, 0x20, 0x3a]), contentType: 'application/octet-stream' },
  '/refs-slow.yaml': yaml(`openapi: 3.1.0
info: {title: Slow, version: '1'}
paths: {}
components:
  schemas:
    slow:
      $ref: /slow
`),
  '/refs-missing.yaml': yaml(`openapi: 3.1.0
info: {title: Missing, version: '1'}
paths: {}
components:
  schemas:
    missing:
      $ref: missing.yaml
`),
  '/refs-local.yaml': yaml(`openapi: 3.1.0
info: {title: Local, version: '1'}
paths: {}
components:
  schemas:
    a:
      $ref: /etc/passwd
    b:
      $ref: file:///etc/passwd
    c:
      $ref: ../../package.json
`),
};

export type FixtureServer = {
  url(path: string): string;
  /** The fixture's content as parsed (YAML or JSON). */
  parsed(path: string): unknown;
  /** Serves `body` at `path` from now on (YAML unless told). */
  set(path: string, body: string, contentType?: string): void;
  /** Holds every request to `path` until the returned function is called; `waiting()` counts them. */
  hold(path: string): { release(): void; waiting(): number };
  /** Requests received per path. */
  hits(path: string): number;
  close(): Promise<void>;
};

export async function startFixtureServer(): Promise<FixtureServer> {
  const routes = new Map<string, Route>(Object.entries(FILES));
  const held = new Map<string, { waiters: Array<() => void> }>();
  const hits = new Map<string, number>();
  const open = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fixtures').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    open.add(res);
    res.on('close', () => open.delete(res));
    const answer = () => {
      if (path === '/slow') return; // never answers: the client's time limit ends it
      const route = routes.get(path);
      if (!route) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      res.writeHead(path === '/fail' ? 500 : 200, { 'content-type': route.contentType }).end(route.body);
    };
    const hold = held.get(path);
    if (hold) hold.waiters.push(answer);
    else answer();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: (path) => `${base}${path}`,
    parsed: (path) => parseYaml(String(routes.get(path)!.body)),
    set: (path, body, contentType = 'application/yaml') => routes.set(path, { body, contentType }),
    hold(path) {
      const entry = { waiters: [] as Array<() => void> };
      held.set(path, entry);
      return {
        release() {
          held.delete(path);
          for (const answer of entry.waiters.splice(0)) answer();
        },
        waiting: () => entry.waiters.length,
      };
    },
    hits: (path) => hits.get(path) ?? 0,
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
