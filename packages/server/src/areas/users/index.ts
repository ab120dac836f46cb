import { userHandlers } from './users.handlers.js';
import { defineArea } from '../area.js';

/** The authenticated user, other users, and personal API tokens. Users are global: nothing moves with a space. */
export const usersArea = defineArea({
  name: 'users',
  handlers: userHandlers,
  tables: { users: { stays: 'A person, across organizations' }, apiTokens: { stays: 'A user’s own credentials' } },
});
