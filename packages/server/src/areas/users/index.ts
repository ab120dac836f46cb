import { userHandlers } from './users.handlers.js';
import { defineArea } from '../area.js';

/** The authenticated user, other users, and personal API tokens. Users are global: nothing moves with a space. */
export const usersArea = defineArea({
  name: 'users',
  handlers: userHandlers,
  tables: ['users', 'api_tokens'],
  transfer: 'none',
  purge: 'none',
  duplicate: 'none',
});
