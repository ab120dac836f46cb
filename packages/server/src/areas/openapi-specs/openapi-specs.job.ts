// The area's background work on pg-boss: processing a spec (queued by a create or a PUT), and the
// scheduled refresh of URL sources (a no-op while OPENAPI_REFRESH_MINUTES is 0; always scheduled, so
// turning it on or off needs no change to the stored schedule).
import { z } from 'zod';
import type { JobWorker } from '../../jobs/queue.js';
import { PROCESS_JOB, processSpec, refreshDueSpecs, type ProcessingDeps } from './openapi-specs.service.js';

const processJobData = z.object({ organizationId: z.string().min(1), specId: z.string().min(1) });

export function processSpecWorker(deps: ProcessingDeps): JobWorker {
  return {
    name: PROCESS_JOB,
    async handle(data) {
      const parsed = processJobData.safeParse(data);
      if (!parsed.success) {
        deps.log.error({ data }, 'OpenAPI processing job without a spec');
        return;
      }
      const result = await processSpec(deps, parsed.data.organizationId, parsed.data.specId);
      deps.log.info({ ...parsed.data, result }, 'OpenAPI spec processed');
    },
  };
}

export function refreshSpecsWorker(deps: ProcessingDeps): JobWorker {
  return {
    name: 'refresh-openapi-specs',
    schedule: '*/5 * * * *',
    async handle() {
      await refreshDueSpecs(deps);
    },
  };
}
