// Runs a rendering in a worker thread of its own, so the server keeps answering meanwhile, with a time
// limit (the worker is terminated past it) and a heap limit.
import { Worker } from 'node:worker_threads';
import { unprocessable } from '../../errors.js';

const WORKER = new URL('./pdf-render.worker.mjs', import.meta.url);
const HEAP_MB = 1024;

export class RenderTimeout extends Error {}

export function renderPdf(definition: Record<string, unknown>, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { definition }, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB }, stdout: true, stderr: true });
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      action();
    };
    const timer = setTimeout(() => settle(() => reject(unprocessable(`The PDF could not be rendered within ${timeoutMs} ms: ask for fewer pages (\`page\`, \`only\`)`))), timeoutMs);
    worker.once('message', (bytes: Uint8Array) => settle(() => resolve(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))));
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? unprocessable('The PDF is too large to render: ask for fewer pages (`page`, `only`)') : error)),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`The PDF worker stopped (exit code ${code})`))));
  });
}
