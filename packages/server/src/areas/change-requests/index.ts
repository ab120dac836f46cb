import { changeRequestContentHandlers } from './change-request-content.handlers.js';
import { changeRequestHandlers } from './change-requests.handlers.js';
import { changeRequestOfSpace } from './change-requests.repository.js';
import { defineArea } from '../area.js';

const STAY_WITH_ORIGINAL = 'Change requests stay with the original space when it is duplicated';

export const changeRequestsArea = defineArea({
  name: 'change-requests',
  handlers: { ...changeRequestHandlers, ...changeRequestContentHandlers },
  tables: {
    changeRequests: { transfer: 'moves', duplicate: { dropped: STAY_WITH_ORIGINAL } },
    changeRequestContributors: { transfer: 'moves', duplicate: { dropped: STAY_WITH_ORIGINAL } },
    revisionConflicts: { transfer: 'moves', duplicate: { dropped: 'Conflicts belong to change-request revisions, which stay with the original space' } },
  },
  events: ['change-request.opened', 'change-request.updated', 'change-request.review-requested', 'change-request.merged', 'change-request.closed', 'change-request.reopened'],
  conflicts: { change_requests_organization_id_space_id_fkey: 'The space was removed meanwhile' },
  scopeLookups: {
    changeRequest: changeRequestOfSpace,
  },
});

// What other areas use of this one: the only names they may import (eslint.config.js, boundaries).
export { applyChangeRequestBatch } from './change-request-content.service.js';
export type { ChangeRequestRow } from './change-requests.repository.js';
export { isEditable } from './change-requests.service.js';
