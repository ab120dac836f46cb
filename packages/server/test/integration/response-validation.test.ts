// Drift between handlers and the spec fails tests: with response validation on, a body the spec does
// not allow answers 500 and is reported.
import { expect, it } from 'vitest';
import { handlers } from '../../src/areas/index.js';
import { toApiUser } from '../../src/areas/users/user.mapper.js';
import { useTestServer } from '../support/harness.js';
import { createUser } from '../support/factories.js';

const server = useTestServer({
  handlers: {
    ...handlers,
    async getAuthenticatedUser({ caller, app }) {
      return { status: 200, body: { ...toApiUser(caller.user, app.urls), undocumented: true } as never };
    },
  },
});

it('a response with a field the spec does not allow is refused', async () => {
  const t = server();
  const alice = await createUser(t);
  const { response, error } = await alice.client.GET('/v1/user');
  expect(response.status).toBe(500);
  expect(error).toEqual({ error: { code: 500, message: 'Internal server error' } });
  expect(t.responseErrors).toHaveLength(1);
  expect(t.responseErrors[0]?.message).toMatch(/additional properties/);
});
