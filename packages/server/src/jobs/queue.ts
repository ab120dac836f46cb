// Background work on pg-boss, in the same PostgreSQL: any number of server instances share the queue.
import pg from 'pg';
import PgBoss from 'pg-boss';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { Logger } from '../logger.js';

export type JobWorker = {
  /** Queue name. */
  name: string;
  /** Cron schedule (UTC), for periodic work. */
  schedule?: string;
  handle(data: unknown): Promise<void>;
};

export type Jobs = {
  send(name: string, data?: object): Promise<string | null>;
  /** Stops the workers, letting running jobs finish within `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
};

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
  await createQueues(boss, connectionString, workers);
  for (const worker of workers) {
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
    stop: (timeoutMs = 10_000) => boss.stop({ graceful: true, timeout: timeoutMs }),
  };
}

/**
 * Creates the workers' queues, one instance at a time, then sets their schedules. pg-boss's create_queue
 * deadlocks when two sessions create the same queue at once (instances starting together on a new
 * database, or after an upgrade adds a queue: one start failed with "deadlock detected"), so instances
 * that find a queue missing take turns under a session advisory lock, held on a connection of its own
 * (pg-boss runs its commands on its pool). Once every queue exists, a start takes no lock.
 */
async function createQueues(boss: PgBoss, connectionString: string, workers: JobWorker[]): Promise<void> {
  const existing = new Set((await boss.getQueues()).map((queue) => queue.name));
  if (workers.some((worker) => !existing.has(worker.name))) {
    const lock = new pg.Client({ connectionString });
    lock.on('error', () => {}); // a broken connection fails the query below, or frees the lock with it
    await lock.connect();
    try {
      await lock.query(`SELECT pg_advisory_lock(hashtext('cw:job-queues'))`);
      // Those another instance created meanwhile are left as they are (ON CONFLICT DO NOTHING).
      for (const worker of workers) await boss.createQueue(worker.name);
    } finally {
      await lock.end(); // the session's end releases the lock
    }
  }
  // Upserts of one row each: every start sets the schedules the code states.
  for (const worker of workers) if (worker.schedule) await boss.schedule(worker.name, worker.schedule);
}

/** For processes that must not run jobs (the CLI, or JOBS_ENABLED=false). */
export const noJobs: Jobs = {
  send: async () => null,
  stop: async () => {},
};
