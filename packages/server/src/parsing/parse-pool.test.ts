// The parse pool's limits on real worker threads: a deadline terminates the worker running the task, a
// heap limit stops a task that needs more, a full queue or a long wait answers 503 with Retry-After,
// the long lane never takes every worker, and a caller that leaves cancels its task.
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { ParseCancelledError, ParseLimitError, ParsePool } from './parse-pool.js';

/** micromark reads unmatched `*a` super-linearly: this takes seconds of a worker. */
const SLOW = '*a'.repeat(20_000);
const quick = { markdown: '# Quick', normalize: true };

let pools: ParsePool[] = [];
const pool = (options: ConstructorParameters<typeof ParsePool>[0] = {}) => {
  const made = new ParsePool({ threads: 2, ...options });
  pools.push(made);
  return made;
};
afterEach(async () => {
  await Promise.all(pools.map((made) => made.close()));
  pools = [];
});

const rejection = (promise: Promise<unknown>) => promise.then(() => new Error('resolved'), (error: unknown) => error);

describe('the parse pool', { timeout: 120_000 }, () => {
  it('runs a task in a worker and answers its result', async () => {
    const verdict = await pool().run('markdown', quick, { deadlineMs: 60_000 });
    expect(verdict).toMatchObject({ ok: true, parsed: { tree: expect.stringContaining('"heading"') } });
  });

  it('terminates the worker of a task past its deadline (counted from its start), and goes on with a new one', async () => {
    const parsing = pool();
    await parsing.run('markdown', quick, { deadlineMs: 60_000 }); // a worker started, its module loaded
    const started = performance.now();
    const error = await rejection(parsing.run('markdown', { markdown: SLOW, normalize: true }, { deadlineMs: 300 }));
    expect(error).toBeInstanceOf(ParseLimitError);
    expect((error as ParseLimitError).limit).toBe('time');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(parsing.workers).toBe(0);
    expect(await parsing.run('markdown', quick, { deadlineMs: 60_000 })).toMatchObject({ ok: true });
  });

  it('stops a task that needs more heap than a worker has', async () => {
    const error = await rejection(pool({ heapMb: 16 }).run('markdown', { markdown: 'word '.repeat(600_000), normalize: true }, { deadlineMs: 120_000 }));
    expect(error).toBeInstanceOf(ParseLimitError);
    expect((error as ParseLimitError).limit).toBe('memory');
  });

  it('answers 503 with Retry-After when the queue is full, and when a task waits too long', async () => {
    // Refused at once, while the pool is full, not once its wait limit (a minute here) has passed.
    const full = pool({ maxQueue: 1, maxWaitMs: 60_000 });
    let settled = 0;
    const busy = [0, 1].map(() => rejection(full.run('markdown', { markdown: SLOW, normalize: true }, { deadlineMs: 20_000 })).finally(() => settled++));
    const queued = rejection(full.run('markdown', quick, { deadlineMs: 60_000 })).finally(() => settled++);
    const refused = await rejection(full.run('markdown', quick, { deadlineMs: 60_000 }));
    expect(settled).toBe(0);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 503, headers: { 'Retry-After': expect.stringMatching(/^[1-9]\d*$/) } });
    await full.close();
    await Promise.all([...busy, queued]);

    const waiting = pool({ maxWaitMs: 300 });
    const held = [0, 1].map(() => rejection(waiting.run('markdown', { markdown: SLOW, normalize: true }, { deadlineMs: 20_000 })));
    const started = performance.now();
    expect(await rejection(waiting.run('markdown', quick, { deadlineMs: 60_000 }))).toMatchObject({ status: 503 });
    expect(performance.now() - started).toBeLessThan(5_000);
    await waiting.close();
    await Promise.all(held);
  });

  it('keeps a worker out of the long lane: a short task runs while long ones wait', async () => {
    const parsing = pool({ maxWaitMs: 60_000 });
    const release = await parsing.reserveLong();
    let second = false;
    const next = parsing.reserveLong().then((done) => ((second = true), done));
    expect(await parsing.run('markdown', quick, { deadlineMs: 60_000 })).toMatchObject({ ok: true });
    expect(second).toBe(false);
    release();
    (await next)();
    expect(second).toBe(true);
  });

  it('cancels a running task when its caller leaves, terminating its worker', async () => {
    const parsing = pool();
    await parsing.run('markdown', quick, { deadlineMs: 60_000 });
    const controller = new AbortController();
    const running = rejection(parsing.run('markdown', { markdown: SLOW, normalize: true }, { deadlineMs: 60_000, signal: controller.signal }));
    setTimeout(() => controller.abort(), 200);
    expect(await running).toBeInstanceOf(ParseCancelledError);
    expect(parsing.workers).toBe(0);
  });
});
