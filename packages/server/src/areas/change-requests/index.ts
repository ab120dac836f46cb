import { changeRequestContentHandlers } from './change-request-content.handlers.js';
import { changeRequestHandlers } from './change-requests.handlers.js';
import { changeRequestOfSpace } from './change-requests.repository.js';
import { changeRequestTransferSteps } from './change-requests.service.js';
import { defineArea } from '../area.js';

/** Change requests stay with the original space when it is duplicated. */
export const changeRequestsArea = defineArea({
  name: 'change-requests',
  handlers: { ...changeRequestHandlers, ...changeRequestContentHandlers },
  tables: ['change_requests', 'change_request_contributors', 'revision_conflicts'],
  transfer: changeRequestTransferSteps,
  purge: 'none',
  duplicate: 'none',
  conflicts: { change_requests_organization_id_space_id_fkey: 'The space was removed meanwhile' },
  scopeLookups: {
    changeRequest: changeRequestOfSpace,
  },
});
