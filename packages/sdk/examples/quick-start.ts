import { createContentWorkspace } from '@content-workspace/sdk';

const cw = createContentWorkspace({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080', // without /v1
  token: process.env.CONTENT_WORKSPACE_TOKEN, // a personal API token, cw_…
  throwOnError: true, // a non-2xx answer rejects with an ApiError
  userAgent: 'my-app/1.0.0', // sent after content-workspace-sdk/<version>
});

// Every operation of the API is a method of its group; arguments and answers are typed.
const { data: me } = await cw.users.getCurrent();
console.log(`Signed in as ${me.displayName}`);

const { data: organization } = await cw.organizations.create({ body: { title: 'Docs team' } });
const { data: space } = await cw.spaces.create({ organizationId: organization.id, body: { title: 'Handbook' } });
console.log(`Created ${space.title} (${space.id}) in ${organization.title}`);

const { data: read } = await cw.spaces.get({ spaceId: space.id });
console.log(`Visibility: ${read.visibility}`);
