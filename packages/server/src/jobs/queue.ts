// Background work on pg-boss, in the same PostgreSQL: any number of server instances share the queue.
import PgBoss from 'pg-boss';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { Logger } from '../logger.js';

/** Work taken from the queue: jobs sent to `name`, or run on a cron schedule. */
export type QueueWorker = {
  /** Queue name. */
  name: string;
  /** Cron schedule (UTC), for periodic work. */
  schedule?: string;
  handle(data: unknown): Promise<void>;
};

/**
 * Work that runs on every instance beside the queue, polling the database by itself: for work the
 * queue's polling (seconds) would make too slow, such as sending webhook deliveries. Started with the
 * queue's workers, stopped with them.
 */
export type LoopWorker = {
  name: string;
  start(): { stop(timeoutMs: number): Promise<void> };
};

export type JobWorker = QueueWorker | LoopWorker;

export type Jobs = {
  send(name: string, data?: object): Promise<string | null>;
  /** Stops the workers, letting running jobs finish within `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
};

/**
 * Instances starting together create the same queues at once, and pg-boss's create_queue (an insert
 * and a partition) can deadlock against itself (40P01). Both statements are idempotent: run again.
 */
async function retryOnDeadlock<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 100 * attempt));
    }
  }
}

/** Starts pg-boss, creates the workers' queues and schedules, and subscribes the workers. */
export async function startJobs(connectionString: string, workers: JobWorker[], log: Logger): Promise<Jobs> {
  const boss = new PgBoss({ connectionString, max: 3, schema: 'pgboss' });
  // pg-boss reports its pool's connection errors and failed polls here (it uses only pool.query, whose
  // clients always have a listener). While the database is away every poll fails: a warning, not an
  // error; its polls carry on and resume by themselves when the database is back.
  boss.on('error', (error: Error) => {
    if (isDatabaseUnavailable(error)) log.warn({ err: error }, 'job queue: database unavailable');
    else log.error({ err: error }, 'job queue error');
  });
  await boss.start();
  const loops: Array<{ stop(timeoutMs: number): Promise<void> }> = [];
  for (const worker of workers) {
    if ('start' in worker) {
      loops.push(worker.start());
      continue;
    }
    await retryOnDeadlock(() => boss.createQueue(worker.name));
    if (worker.schedule) await retryOnDeadlock(() => boss.schedule(worker.name, worker.schedule!));
    await boss.work(worker.name, async (jobs: PgBoss.Job[]) => {
      for (const job of jobs) {
        log.info({ job: worker.name, id: job.id }, 'job started');
        await worker.handle(job.data);
      }
    });
  }
  return {
    send: (name, data) => boss.send(name, data ?? {}),
    // Stops fetching at once; running jobs get up to `timeoutMs` (pg-boss waits at least 1 s).
    stop: async (timeoutMs = 10_000) => {
      await Promise.all([boss.stop({ graceful: true, timeout: timeoutMs }), ...loops.map((loop) => loop.stop(timeoutMs))]);
    },
  };
}

/** For processes that must not run jobs (the CLI, or JOBS_ENABLED=false). */
export const noJobs: Jobs = {
  send: async () => null,
  stop: async () => {},
};
