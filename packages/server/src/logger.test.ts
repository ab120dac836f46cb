// The server's log lines are buffered (logger.ts): none may be lost when the process ends right after
// logging, nor held long on a quiet server.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const logger = fileURLToPath(new URL('./logger.ts', import.meta.url));

/** Runs `body` in a child process with `log` (the server's logger), returning its stdout lines as they came and when. */
async function run(body: string): Promise<Array<{ msg: string; at: number }>> {
  const script = `import { createLogger } from ${JSON.stringify(logger)}; const log = createLogger({ logLevel: 'info' }); ${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const started = Date.now();
  const lines: Array<{ msg: string; at: number }> = [];
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop()!;
    for (const line of complete) lines.push({ msg: (JSON.parse(line) as { msg: string }).msg, at: Date.now() - started });
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  expect(code).toBe(0);
  return lines;
}

describe('the server logger', () => {
  it('writes every line logged before the process exits, also right before process.exit', async () => {
    const lines = await run(`for (let i = 0; i < 3; i++) log.info('line ' + i); process.exit(0);`);
    expect(lines.map((line) => line.msg)).toEqual(['line 0', 'line 1', 'line 2']);
  });

  it('writes a quiet server’s line at once (within the flush interval), without waiting for the buffer to fill', async () => {
    // The child logs one line, then stays up 3 s: the line must arrive long before it exits.
    const lines = await run(`log.info('alone'); setTimeout(() => log.info('last'), 3000);`);
    expect(lines.map((line) => line.msg)).toEqual(['alone', 'last']);
    expect(lines[1]!.at - lines[0]!.at).toBeGreaterThan(2000);
  }, 20_000);
});
