// The access log's levels and what a line leaves out, on a real Express app and a real pino logger
// writing into memory. (test/deploy/built-server.test.ts reads the lines of the built server.)
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { createMetrics, EventLoopWatch, LAG_ALARM_MS, observe, SECRET_PATH_PARAMETERS } from './observability.js';
import { loadSpec } from './operations.js';

type Line = { level: number; msg: string; path?: string; status?: number; reqId?: string };

/** Requests `paths` (each answered with the status in its last segment) and returns the lines logged. */
async function logged(accessLog: Config['accessLog'], logLevel: string, paths: string[]): Promise<Line[]> {
  const lines: Line[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString()) as Line), done()) });
  const app = express();
  const loop = new EventLoopWatch();
  app.use(observe(pino({ level: logLevel }, sink), createMetrics(), loop, accessLog));
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', (_req, res) => void res.status(503).json({ status: 'database-unavailable' }));
  app.get('/status/:code', (req, res) => void res.status(Number(req.params.code)).end());
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    for (const path of paths) await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`)).arrayBuffer();
  } finally {
    server.close();
    loop.stop();
  }
  return lines.filter((line) => line.msg === 'request');
}

const summary = (lines: Line[]) => lines.map((line) => `${line.level} ${line.path} ${line.status}`);

describe('the access log', () => {
  it('is one line per request at info by default; a 5xx at error, a 503 at warn; a probe at trace, or at info when it fails', async () => {
    expect(summary(await logged('info', 'info', ['/status/200', '/status/404', '/status/500', '/status/503', '/healthz', '/readyz']))).toEqual([
      '30 /status/200 200',
      '30 /status/404 404',
      '50 /status/500 500',
      '40 /status/503 503',
      '30 /readyz 503',
    ]);
    expect(summary(await logged('info', 'trace', ['/healthz']))).toEqual(['10 /healthz 200']);
  });

  it('never logs the query string; carries the request id', async () => {
    const [line] = await logged('info', 'info', ['/status/200?shareKey=secret&page=abc']);
    expect(line).toMatchObject({ path: '/status/200', reqId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('ACCESS_LOG=debug hides the lines unless LOG_LEVEL is debug; ACCESS_LOG=off keeps only the 5xx', async () => {
    expect(summary(await logged('debug', 'info', ['/status/200', '/status/500']))).toEqual(['50 /status/500 500']);
    expect(summary(await logged('debug', 'debug', ['/status/200']))).toEqual(['20 /status/200 200']);
    expect(summary(await logged(false, 'trace', ['/status/200', '/status/404', '/healthz', '/readyz', '/status/500']))).toEqual(['50 /status/500 500']);
  });

  it('masks every path parameter the spec calls a secret or a credential', () => {
    type Parameter = { name: string; in: string; description?: string } | { $ref: string };
    const spec = loadSpec() as unknown as { paths: Record<string, Record<string, unknown>>; components: { parameters: Record<string, Parameter> } };
    const resolve = (parameter: Parameter) => ('$ref' in parameter ? spec.components.parameters[parameter.$ref.split('/').at(-1)!]! : parameter) as Exclude<Parameter, { $ref: string }>;
    const declared = Object.values(spec.paths).flatMap((item) => [
      ...((item.parameters as Parameter[] | undefined) ?? []),
      ...Object.values(item).flatMap((operation) => ((operation as { parameters?: Parameter[] }).parameters ?? [])),
    ]);
    const secret = declared
      .map(resolve)
      .filter((parameter) => parameter.in === 'path' && /secret|credential|signed|signature/i.test(parameter.description ?? ''))
      .map((parameter) => parameter.name);
    expect(new Set(secret)).toEqual(new Set(['inviteId', 'signature']));
    expect(secret.filter((name) => !SECRET_PATH_PARAMETERS.has(name))).toEqual([]);
  });
});

describe('the event-loop lag alarm', () => {
  it('warns with the id of the request whose tick held the loop past the alarm, naming no request finished before', async () => {
    const lines: Array<Line & { lagMs?: number; cpuMs?: number; requests?: Array<{ reqId: string; path: string }> }> = [];
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString()) as Line), done()) });
    const app = express();
    const loop = new EventLoopWatch();
    app.use(observe(pino({ level: 'info' }, sink), createMetrics(), loop, false));
    app.get('/busy/:ms', (req, res) => {
      const ms = Number(req.params.ms);
      const until = performance.now() + ms;
      const cpu = process.cpuUsage();
      // Holding the event loop, as a parser on the main thread would: for `ms` of time and of CPU (a
      // loaded machine may not run the thread all along).
      while (performance.now() < until || process.cpuUsage(cpu).user / 1000 < ms) {
        // spinning
      }
      res.json({ done: true });
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const settle = () => new Promise((resolve) => setTimeout(resolve, 150));
    try {
      await (await fetch(`${base}/busy/1`, { headers: { 'X-Request-Id': 'quick-one' } })).arrayBuffer();
      await settle();
      await (await fetch(`${base}/busy/${LAG_ALARM_MS * 3}`, { headers: { 'X-Request-Id': 'the-blocking-one' } })).arrayBuffer();
      await settle();
      // A loaded machine may pause the whole process too (alarms naming nobody): the one that matters names the request.
      const alarms = lines.filter((line) => line.msg === 'event loop blocked' && line.requests?.some((request) => request.reqId === 'the-blocking-one'));
      expect(alarms).toHaveLength(1);
      expect(alarms[0]).toMatchObject({ level: 40, reqId: 'the-blocking-one', requests: [{ reqId: 'the-blocking-one', path: `/busy/${LAG_ALARM_MS * 3}` }] });
      expect(alarms[0]!.lagMs).toBeGreaterThanOrEqual(LAG_ALARM_MS * 2);
      // The loop was held by code: its thread ran for most of the tick (Linux counts in 10 ms steps).
      if (process.platform === 'linux') expect(alarms[0]!.cpuMs).toBeGreaterThanOrEqual(LAG_ALARM_MS);
    } finally {
      server.close();
      loop.stop();
    }
  });
});
