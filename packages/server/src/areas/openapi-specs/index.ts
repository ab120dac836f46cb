import { processSpecWorker, refreshSpecsWorker } from './openapi-specs.job.js';
import { openAPISpecHandlers } from './openapi-specs.handlers.js';
import { defineArea } from '../area.js';

const OWN_ROWS = 'An organization’s own specs and their versions, never tied to spaces or collections';

/** OpenAPI specs and their versions: an organization's own rows, never tied to spaces or collections. */
export const openAPISpecsArea = defineArea({
  name: 'openapi-specs',
  handlers: openAPISpecHandlers,
  tables: { openapiSpecs: { stays: OWN_ROWS }, openapiSpecVersions: { stays: OWN_ROWS } },
  events: ['openapi-spec.processed', 'openapi-spec.deleted'],
  jobs: (context) => [processSpecWorker(context), refreshSpecsWorker(context)],
});
