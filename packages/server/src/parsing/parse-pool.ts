// The one pool of worker threads where untrusted input is parsed (docs/decisions.md, "Parsing off the
// event loop"): Markdown bodies, imported HTML pages and archives, OpenAPI documents, PDF layout. The
// main thread only routes, checks and serializes; no input may hold it for more than ~50 ms.
//
// Every task runs under limits the event loop does not depend on:
// - a deadline counted from the moment a worker starts the task (the worker says so through a port of
//   the task's own), enforced by aborting the task: piscina then terminates the worker that runs it, so
//   a parse stuck in a super-linear loop stops at its deadline whatever it does;
// - a heap limit per worker (V8's resource limits: the worker dies, the task fails, the server lives);
// - a bounded queue: a task that finds it full, or that waits too long for a worker, answers 503 with
//   `Retry-After` instead of piling up;
// - lanes: long tasks (a PDF, an OpenAPI document, an imported web page) take at most `threads - 1`
//   workers, so a comment or a page body always finds one.
// Built once per server (server.ts) and hung off AppContext as `parsing`; closed at shutdown.
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { MessageChannel, type Transferable } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { serviceUnavailable } from '../errors.js';
import type { TaskInput, TaskName, TaskOutput } from './tasks.js';

/** Heap of each worker: a task that needs more fails alone (ParseLimitError 'memory'). */
export const WORKER_HEAP_MB = 512;
/**
 * Stack of each worker: the main thread's size, so what a worker could read is what the event loop's
 * own readers could (published sites render stored bodies); a parser recursing past it fails alone, and
 * fails early (micromark on thousands of nested quotes overflows in milliseconds, where a deeper stack
 * lets it run quadratically for seconds).
 */
const WORKER_STACK_MB = 1;
/** Tasks waiting for a worker, per thread, before new ones are refused (503). */
const QUEUED_PER_THREAD = 64;
/** A task that has not started after this long is dropped (503): its client would rather retry (server.ts sets it from REQUEST_TIMEOUT_MS). */
const MAX_WAIT_MS = 25_000;
/** Tasks of the long lane waiting at most, whatever the pool's size. */
const LONG_LANE_QUEUE = 8;

/** `reserved`: a long task whose caller holds a slot of the long lane already (`reserveLong`). */
export type Lane = 'short' | 'long' | 'reserved';

export type RunOptions = {
  /** Time the task may run once a worker has started it; past it the worker is terminated. */
  deadlineMs: number;
  /** `long`: tasks that may take seconds (PDF renders, OpenAPI documents, web pages). Default `short`. */
  lane?: Lane;
  /** Aborts the task (waiting or running) when its result is no longer wanted (the client left). */
  signal?: AbortSignal;
  transferList?: readonly Transferable[];
};

/** A limit stopped the task: it ran past its deadline, its worker ran out of heap, or its parser overflowed the stack. */
export class ParseLimitError extends Error {
  constructor(
    readonly limit: 'time' | 'memory' | 'stack',
    message: string,
  ) {
    super(message);
    this.name = 'ParseLimitError';
  }
}

/** The caller's signal aborted the task before it finished. */
export class ParseCancelledError extends Error {
  constructor() {
    super('the task was cancelled');
    this.name = 'ParseCancelledError';
  }
}

export type ParsePoolOptions = {
  /** Worker threads (default: the cores, at least two). */
  threads?: number;
  /** How long a task may wait for a worker before it is refused (503). */
  maxWaitMs?: number;
  /** Heap of each worker (default WORKER_HEAP_MB). */
  heapMb?: number;
  /** Tasks waiting for a worker at most (default QUEUED_PER_THREAD per thread). */
  maxQueue?: number;
};

/**
 * The worker's script: the bundle's own entry in a build (tsdown.config.ts), the TypeScript source
 * otherwise (tsx, vitest). A worker thread gets no TypeScript loader of its own that resolves dynamic
 * imports (tasks.ts loads its modules on first use), so tsx's ESM hooks are registered in it first.
 */
function workerScript(): { filename: string; execArgv?: string[] } {
  if (!import.meta.url.endsWith('.ts')) return { filename: new URL('./parse.worker.js', import.meta.url).href };
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const api = new URL((require(manifest) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default, pathToFileURL(manifest)).href;
  const registerTsx = `data:text/javascript,import{register}from${JSON.stringify(api)};register();`;
  return { filename: new URL('./parse.worker.ts', import.meta.url).href, execArgv: [...process.execArgv, '--import', registerTsx] };
}

type Waiting = { start(): void };

/** Admits at most `running` tasks at once and `queued` more in line (each for `maxWaitMs` at most); the rest are refused (503). */
class LaneGate {
  private active = 0;
  private readonly line: Waiting[] = [];

  constructor(
    private readonly running: number,
    private readonly queued: number,
    private readonly maxWaitMs: number,
  ) {}

  /** Resolves when the task may go; rejects (503) when the line is full or the wait too long. `release` must follow. */
  enter(signal?: AbortSignal, maxWaitMs = this.maxWaitMs): Promise<void> {
    if (this.active < this.running) {
      this.active++;
      return Promise.resolve();
    }
    if (this.line.length >= this.queued) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const leave = (error: Error) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancel);
        const at = this.line.indexOf(waiting);
        if (at >= 0) this.line.splice(at, 1);
        reject(error);
      };
      const cancel = () => leave(new ParseCancelledError());
      const timer = setTimeout(() => leave(busy()), maxWaitMs);
      const waiting: Waiting = {
        start: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', cancel);
          this.active++;
          resolve();
        },
      };
      signal?.addEventListener('abort', cancel, { once: true });
      this.line.push(waiting);
    });
  }

  release(): void {
    this.active--;
    this.line.shift()?.start();
  }
}

const busy = () => serviceUnavailable('The server is busy parsing other requests: retry shortly', 2);

function errorCode(error: unknown): string | undefined {
  return (error as { code?: unknown } | undefined)?.code as string | undefined;
}

export class ParsePool {
  /** Worker threads at most (at least two: a long task never holds the only one). */
  readonly threads: number;
  private readonly pool: Piscina;
  private readonly longLane: LaneGate;
  private readonly maxWaitMs: number;
  private readonly heapMb: number;
  /** Tasks handed to the workers, by name (what tests count: a published body's renders). */
  private readonly runsByTask = new Map<TaskName, number>();
  /** Tasks handed to the pool and not settled yet: running, or waiting for a worker. */
  private inPool = 0;
  /** What the pool holds at most: a task per worker and `maxQueue` waiting (the rest are refused, 503). */
  private readonly capacity: number;

  constructor(options: ParsePoolOptions = {}) {
    this.threads = Math.max(2, options.threads ?? availableParallelism());
    this.maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
    this.heapMb = options.heapMb ?? WORKER_HEAP_MB;
    this.longLane = new LaneGate(this.threads - 1, LONG_LANE_QUEUE, this.maxWaitMs);
    const maxQueue = options.maxQueue ?? this.threads * QUEUED_PER_THREAD;
    // Counted here too: piscina keeps a waiting task that carries an abort signal (all of ours) in a
    // queue of its own that its `maxQueue` does not count, so its limit alone never refused one.
    this.capacity = this.threads + maxQueue;
    this.pool = new Piscina({
      ...workerScript(),
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      maxQueue,
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, stackSizeMb: WORKER_STACK_MB },
    });
  }

  /**
   * Takes a slot of the long lane for work that prepares a long task before running it (a PDF loads its
   * images only once it may render); the task then runs with lane `reserved`. 503 when the lane's line
   * is full, or when no slot is free within `maxWaitMs` (default: the pool's). Call the release
   * function once, when done.
   */
  async reserveLong(options: { signal?: AbortSignal; maxWaitMs?: number } = {}): Promise<() => void> {
    await this.longLane.enter(options.signal, Math.min(options.maxWaitMs ?? this.maxWaitMs, this.maxWaitMs));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.longLane.release();
    };
  }

  /** Tasks waiting for a worker now. */
  get queued(): number {
    return this.pool.queueSize;
  }

  /** Runs of `task` handed to the workers since the pool was built. */
  runs(task: TaskName): number {
    return this.runsByTask.get(task) ?? 0;
  }

  /** Worker threads alive now (a task stopped at its deadline takes its worker with it). */
  get workers(): number {
    return this.pool.threads.length;
  }

  /**
   * Runs `task` on `input` in a worker. Rejects with ParseLimitError when a limit stopped it,
   * ParseCancelledError when `signal` aborted it, and a 503 HttpError when the pool is too busy.
   */
  async run<K extends TaskName>(task: K, input: TaskInput<K>, options: RunOptions): Promise<TaskOutput<K>> {
    const long = options.lane === 'long';
    if (long) await this.longLane.enter(options.signal);
    try {
      return await this.runInWorker(task, input, options);
    } finally {
      if (long) this.longLane.release();
    }
  }

  private async runInWorker<K extends TaskName>(task: K, input: TaskInput<K>, options: RunOptions): Promise<TaskOutput<K>> {
    if (options.signal?.aborted) throw new ParseCancelledError();
    if (this.inPool >= this.capacity) throw busy();
    this.inPool++;
    try {
      return await this.handToPool(task, input, options);
    } finally {
      this.inPool--;
    }
  }

  private async handToPool<K extends TaskName>(task: K, input: TaskInput<K>, options: RunOptions): Promise<TaskOutput<K>> {
    const controller = new AbortController();
    let stoppedBy: 'wait' | 'deadline' | 'caller' | undefined;
    const stop = (reason: typeof stoppedBy) => {
      stoppedBy ??= reason;
      controller.abort();
    };
    const onCallerAbort = () => stop('caller');
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    // The deadline starts when a worker takes the task, not while it waits.
    const { port1: started, port2: startedInWorker } = new MessageChannel();
    let deadline: NodeJS.Timeout | undefined;
    const waitLimit = setTimeout(() => stop('wait'), this.maxWaitMs);
    started.once('message', () => {
      clearTimeout(waitLimit);
      deadline = setTimeout(() => stop('deadline'), options.deadlineMs);
    });
    this.runsByTask.set(task, this.runs(task) + 1);
    try {
      return (await this.pool.run(
        { task, input, started: startedInWorker },
        { signal: controller.signal, transferList: [startedInWorker, ...(options.transferList ?? [])] as never },
      )) as TaskOutput<K>;
    } catch (error) {
      if (stoppedBy === 'deadline') throw new ParseLimitError('time', `took longer than ${options.deadlineMs} ms`);
      if (stoppedBy === 'caller') throw new ParseCancelledError();
      if (stoppedBy === 'wait') throw busy();
      if (errorCode(error) === 'ERR_WORKER_OUT_OF_MEMORY') throw new ParseLimitError('memory', `needed more than ${this.heapMb} MB of memory`);
      if (error instanceof RangeError || (error as Error | undefined)?.name === 'RangeError') throw new ParseLimitError('stack', 'nests too deeply to be read');
      if (error instanceof Error && /queue is at limit|No task queue available/i.test(error.message)) throw busy();
      throw error;
    } finally {
      clearTimeout(waitLimit);
      clearTimeout(deadline);
      started.close();
      options.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** Terminates the workers (server shutdown); tasks still running fail. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
