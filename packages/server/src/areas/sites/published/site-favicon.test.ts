// Favicons by address: the bytes decide the type, and the outbound guard's address rule holds (a
// private address is never fetched, whatever the site's customization names).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createCaches } from '../../../caches.js';
import { favicon, iconType } from './site-favicon.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d494844520000001000000010080200000090916836', 'hex');

describe('iconType', () => {
  it('reads PNG, ICO and SVG from the bytes; HTML and empty bodies are no icon', () => {
    expect(iconType(PNG)).toBe('image/png');
    expect(iconType(Buffer.from([0, 0, 1, 0, 1, 0, 16, 16]))).toBe('image/x-icon');
    expect(iconType(Buffer.from('\uFEFF<?xml version="1.0"?>\n<!-- made by hand -->\n<svg viewBox="0 0 1 1"></svg>'))).toBe('image/svg+xml');
    expect(iconType(Buffer.from('<html><svg></svg></html>'))).toBeUndefined();
    expect(iconType(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('favicon', () => {
  it('never fetches a private address when the policy refuses them', async () => {
    const caches = createCaches();
    let hits = 0;
    const host = createServer((_req, res) => {
      hits++;
      res.end(PNG);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(host.address() as AddressInfo).port}/icon.png`;
      expect(await favicon(caches, url, { allowPrivate: false, timeoutMs: 2_000, maxBytes: 1_000_000 })).toBeUndefined();
      expect(hits).toBe(0);
      // The same address allowed (the tests' policy): fetched and typed.
      expect((await favicon(caches, `${url}?allowed`, { allowPrivate: true, timeoutMs: 2_000, maxBytes: 1_000_000 }))?.contentType).toBe('image/png');
      expect(hits).toBe(1);
    } finally {
      await new Promise((resolve) => host.close(resolve));
    }
  });
});
