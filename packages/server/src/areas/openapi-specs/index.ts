import { processSpecWorker, refreshSpecsWorker } from './openapi-specs.jobs.js';
import { openAPISpecHandlers } from './openapi-specs.handlers.js';
import { defineArea } from '../area.js';

/** OpenAPI specs and their versions: an organization's own rows, never tied to spaces or collections. */
export const openAPISpecsArea = defineArea({
  name: 'openapi-specs',
  handlers: openAPISpecHandlers,
  tables: ['openapi_specs', 'openapi_spec_versions'],
  transfer: 'none',
  purge: 'none',
  duplicate: 'none',
  events: ['openapi-spec.processed'],
  jobs: (context) => [processSpecWorker(context), refreshSpecsWorker(context)],
});
