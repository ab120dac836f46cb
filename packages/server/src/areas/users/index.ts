import { userHandlers } from './users.handlers.js';
import { purgeIdempotencyKeysWorker } from '../../http/idempotency-purge.job.js';
import { defineArea } from '../area.js';

/** The authenticated user, other users, and personal API tokens. Users are global: nothing moves with a space. */
export const usersArea = defineArea({
  name: 'users',
  handlers: userHandlers,
  tables: ['users', 'api_tokens'],
  transfer: 'none',
  purge: 'none',
  duplicate: 'none',
  // A token's idempotency keys (http/idempotency.ts, table idempotency_keys) go with it by cascade;
  // the job removes those over 24 hours old.
  jobs: (context) => [purgeIdempotencyKeysWorker(context.db)],
});
