// Background work on pg-boss, in the same PostgreSQL: any number of server instances share the queue.
import PgBoss from 'pg-boss';
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
  stop(): Promise<void>;
};

/** Starts pg-boss, creates the workers' queues and schedules, and subscribes the workers. */
export async function startJobs(connectionString: string, workers: JobWorker[], log: Logger): Promise<Jobs> {
  const boss = new PgBoss({ connectionString, max: 3, schema: 'pgboss' });
  boss.on('error', (error: Error) => log.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const worker of workers) {
    await boss.createQueue(worker.name);
    if (worker.schedule) await boss.schedule(worker.name, worker.schedule);
    await boss.work(worker.name, async (jobs: PgBoss.Job[]) => {
      for (const job of jobs) {
        log.info({ job: worker.name, id: job.id }, 'job started');
        await worker.handle(job.data);
      }
    });
  }
  return {
    send: (name, data) => boss.send(name, data ?? {}),
    stop: () => boss.stop({ graceful: true, timeout: 10_000 }),
  };
}

/** For processes that must not run jobs (the CLI, or JOBS_ENABLED=false). */
export const noJobs: Jobs = {
  send: async () => null,
  stop: async () => {},
};
