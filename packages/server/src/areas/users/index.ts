import { userHandlers } from './users.handlers.js';
import { purgeIdempotencyKeysWorker } from '../../http/idempotency-purge.job.js';
import { defineArea } from '../area.js';

/** The authenticated user, other users, and personal API tokens. Users are global: nothing moves with a space. */
export const usersArea = defineArea({
  name: 'users',
  handlers: userHandlers,
  tables: {
    users: { stays: 'A person, across organizations' },
    apiTokens: { stays: 'A user’s own credentials' },
    idempotencyKeys: { stays: 'A token’s writes of the last 24 hours and their answers (http/idempotency.ts), removed with the token' },
  },
  // The job removes the idempotency keys over 24 hours old.
  jobs: (context) => [purgeIdempotencyKeysWorker(context.db)],
});

// What other areas use of this one: the only names they may import (eslint.config.js, boundaries).
export { toApiUser } from './user.mapper.js';
