import { processSpecWorker, refreshSpecsWorker } from './openapi-specs.jobs.js';
import { openAPISpecHandlers } from './openapi-specs.handlers.js';
import { defineArea } from '../area.js';

/** OpenAPI specs and their versions: an organization's own rows, never tied to spaces or collections. */
export const openAPISpecsArea = defineArea({
  name: 'openapi-specs',
  handlers: openAPISpecHandlers,
  tables: {
    openapiSpecs: { stays: 'An organization’s own specs, never tied to spaces or collections' },
    openapiSpecVersions: { stays: 'Versions of an organization’s own specs' },
  },
  jobs: (context) => [processSpecWorker(context), refreshSpecsWorker(context)],
});
