// The check of pending custom hostnames on pg-boss, every minute: each run claims the claims that are
// due (hostnames.repository.ts: a minute apart in a claim's first hour, ten minutes in its first day,
// then an hour), so instances share the work and a hostname's owner sees it served soon after adding
// its DNS record, without asking.
import type { JobWorker } from '../../jobs/queue.js';
import { verifyDueHostnames } from './hostnames.service.js';
import type { AppContext } from '../../context.js';

export function verifyHostnamesWorker(deps: Pick<AppContext, 'db' | 'config' | 'log' | 'urls' | 'caches'>): JobWorker {
  return {
    name: 'verify-site-hostnames',
    schedule: '* * * * *',
    async handle() {
      const checked = await verifyDueHostnames(deps);
      if (checked > 0) deps.log.debug({ checked }, 'site hostnames checked');
    },
  };
}
