// Instances starting together on one database create the job queues together. pg-boss's create_queue
// deadlocks when two sessions create the same queue at once (each inserts the queue's row, then waits
// on the other's partition), which stopped one instance's start with "deadlock detected"; the
// two-instance deployment test met it on a new database. Their schedules send one job per minute
// between them (src/jobs/schedules.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { startJobs, type Jobs, type JobWorker } from '../../src/jobs/queue.js';
import { scheduledJobId } from '../../src/jobs/schedules.js';
import { createLogger } from '../../src/logger.js';

const adminUrl = inject('databaseAdminUrl');
const name = `cw_test_queues_${randomBytes(6).toString('hex')}`;
const admin = async <T>(work: (client: pg.Client) => Promise<T>) => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

afterAll(async () => {
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
});

it('several instances starting at once on a new database all start, create each queue once, and send a scheduled minute’s job once', async () => {
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Odd queues run every minute: each instance checks the schedules as it starts.
  const workers: JobWorker[] = Array.from({ length: 8 }, (_, n) => ({ name: `queue-${n}`, schedule: n % 2 ? '* * * * *' : undefined, handle: async () => {} }));
  const log = createLogger({ logLevel: 'silent' });

  const from = new Date();
  const started = await Promise.allSettled(Array.from({ length: 4 }, () => startJobs(url.toString(), workers, log)));
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  await Promise.all(running.map((jobs: Jobs) => jobs.stop(1000)));

  expect(started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []))).toEqual([]);
  const database = new pg.Client({ connectionString: url.toString() });
  await database.connect();
  try {
    // pg-boss's own queues (`__pgboss__…`) aside.
    const { rows: queues } = await database.query<{ name: string }>(`SELECT name FROM pgboss.queue WHERE name NOT LIKE '\\_\\_pgboss%' ORDER BY name`);
    expect(queues.map((queue) => queue.name)).toEqual(workers.map((worker) => worker.name).sort());
    // Each scheduled queue got the job of each minute the start spanned (usually one) once, not once per instance.
    const minutes: Date[] = [];
    for (const minute = new Date(from); minute.setUTCSeconds(0, 0) <= Date.now(); minute.setUTCMinutes(minute.getUTCMinutes() + 1)) minutes.push(new Date(minute));
    const { rows: jobs } = await database.query<{ name: string; id: string }>(`SELECT name, id FROM pgboss.job WHERE name LIKE 'queue-%' ORDER BY name`);
    expect(new Set(jobs.map((job) => job.name))).toEqual(new Set(['queue-1', 'queue-3', 'queue-5', 'queue-7']));
    for (const job of jobs) expect(minutes.map((minute) => scheduledJobId(job.name, minute))).toContain(job.id);
    expect(jobs.length).toBeLessThanOrEqual(4 * minutes.length);
    // pg-boss's own scheduler is off.
    const { rows: schedules } = await database.query('SELECT name FROM pgboss.schedule');
    expect(schedules).toEqual([]);
  } finally {
    await database.end();
  }
}, 60_000);
