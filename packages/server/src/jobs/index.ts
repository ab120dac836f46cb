// Every background worker the server runs.
import type { AppContext } from '../context.js';
import { collectContentGarbageWorker } from './collect-content-garbage.job.js';
import { purgeSpacesWorker } from './purge-spaces.job.js';
import type { JobWorker } from './queue.js';

export function jobWorkers(context: Omit<AppContext, 'jobs'>): JobWorker[] {
  return [purgeSpacesWorker(context.db), collectContentGarbageWorker(context.db)];
}
