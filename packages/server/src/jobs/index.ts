// Every background worker the server runs.
import type { AppContext } from '../context.js';
import type { JobWorker } from './queue.js';

export function jobWorkers(_context: Omit<AppContext, 'jobs'>): JobWorker[] {
  return [];
}
