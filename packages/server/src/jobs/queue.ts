// Background work on pg-boss, in the same PostgreSQL: any number of server instances share the queue.
import PgBoss from 'pg-boss';
import type { DatabaseAvailability } from '../db/availability.js';
import { createPool } from '../db/database.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { parseSchedule, startSchedules, type ScheduledQueue } from './schedules.js';

/** Work taken from the queue: jobs sent to `name`, or run on a cron schedule. */
export type QueueWorker = {
  /** Queue name. */
  name: string;
  /** Cron schedule (UTC), for periodic work: one job in each minute it names (schedules.ts). */
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

export type JobsOptions = {
  /** The server's (an outage is logged once, there); else the queue's own. */
  availability?: DatabaseAvailability;
  /** Where the job metrics go (`job_queue_jobs`, `jobs_processed_total`). */
  metrics?: Metrics;
};

/** Starts pg-boss, creates the workers' queues and schedules, and subscribes the workers. */
export async function startJobs(connectionString: string, workers: JobWorker[], log: Logger, options: JobsOptions = {}): Promise<Jobs> {
  // pg-boss's statements go through a pool of ours: its connections report to the server's availability
  // like the server's own (db/availability.ts), when each was made included.
  const pool = createPool(connectionString, 3, log, options.availability);
  // pg-boss's own scheduler is off: it held the event loop for tens of ms every 30 s (schedules.ts).
  const boss = new PgBoss({ db: { executeSql: (text, values) => pool.query(text, values) }, schema: 'pgboss', schedule: false });
  const scheduled: ScheduledQueue[] = workers.flatMap((worker) => ('schedule' in worker && worker.schedule ? [{ name: worker.name, schedule: parseSchedule(worker.schedule) }] : []));
  // pg-boss reports its failed polls here. While the database is away every poll fails: the pool has
  // reported the connection that failed, and the availability logs the outage once; the polls carry on
  // and resume by themselves when the database is back.
  boss.on('error', (error: Error) => {
    if (isDatabaseUnavailable(error)) log.debug({ err: error }, 'job queue poll failed: database unavailable');
    else log.error({ err: error }, 'job queue error');
  });
  const processed = options.metrics?.counter({
    name: 'jobs_processed_total',
    help: 'Jobs this instance ran, by queue and outcome (completed, failed)',
    labelNames: ['queue', 'outcome'],
  });
  if (options.metrics) registerQueueGauge(options.metrics, boss, workers.map((worker) => worker.name));
  // A queue that fails to start leaves no connections behind.
  await boss.start().catch(async (error: unknown) => {
    await pool.end();
    throw error;
  });
  const loops: Array<{ stop(timeoutMs: number): Promise<void> }> = [];
  for (const worker of workers) {
    if ('start' in worker) {
      loops.push(worker.start());
      continue;
    }
    await retryOnDeadlock(() => boss.createQueue(worker.name));
    await boss.work(worker.name, async (jobs: PgBoss.Job[]) => {
      for (const job of jobs) {
        log.info({ job: worker.name, id: job.id }, 'job started');
        try {
          await worker.handle(job.data);
        } catch (error) {
          processed?.inc({ queue: worker.name, outcome: 'failed' });
          throw error;
        }
        processed?.inc({ queue: worker.name, outcome: 'completed' });
      }
    });
  }
  const schedules = startSchedules(
    scheduled,
    (name, id) => boss.send(name, {}, { id }),
    (error, name) => {
      if (isDatabaseUnavailable(error)) log.debug({ err: error, job: name }, 'scheduled job not sent: database unavailable');
      else log.error({ err: error, job: name }, 'scheduled job not sent');
    },
  );
  return {
    send: (name, data) => boss.send(name, data ?? {}),
    // Stops fetching at once; running jobs get up to `timeoutMs` (pg-boss waits at least 1 s).
    stop: async (timeoutMs = 10_000) => {
      await Promise.all([schedules.stop(), boss.stop({ graceful: true, timeout: timeoutMs }), ...loops.map((loop) => loop.stop(timeoutMs))]);
      await pool.end();
    },
  };
}

/** A scrape waits this long at most for the queue's counts; without them, the gauge is left out of that scrape. */
const COUNT_TIMEOUT_MS = 2000;

/**
 * `job_queue_jobs{queue,state}`: the jobs waiting (`queued`: created or to retry), running (`active`)
 * and failed (kept for pg-boss's retention), counted in the database at each scrape — the whole
 * queue's, the same from every instance.
 */
function registerQueueGauge(metrics: Metrics, boss: PgBoss, queues: string[]) {
  const states: Record<string, string> = { created: 'queued', retry: 'queued', active: 'active', failed: 'failed' };
  metrics.gauge({
    name: 'job_queue_jobs',
    help: 'Jobs in the shared queue by queue and state (queued, active, failed): the same from every instance',
    labelNames: ['queue', 'state'],
    async collect() {
      this.reset();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), COUNT_TIMEOUT_MS)));
      const counted = boss
        .getDb()
        .executeSql(`SELECT name, state, count(*)::int AS count FROM pgboss.job WHERE state IN ('created', 'retry', 'active', 'failed') GROUP BY name, state`, [])
        .catch(() => undefined);
      const result = await Promise.race([counted, late]).finally(() => clearTimeout(timer));
      if (!result) return;
      for (const queue of queues) for (const state of ['queued', 'active', 'failed']) this.set({ queue, state }, 0);
      for (const row of result.rows as { name: string; state: string; count: number }[]) this.inc({ queue: row.name, state: states[row.state] }, row.count);
    },
  });
}

/** For processes that must not run jobs (the CLI, or JOBS_ENABLED=false). */
export const noJobs: Jobs = {
  send: async () => null,
  stop: async () => {},
};
