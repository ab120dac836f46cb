import { createClient } from '@content-workspace/sdk';

const client = createClient({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080',
  token: process.env.CONTENT_WORKSPACE_TOKEN,
  userAgent: 'my-app/1.0.0', // sent after content-workspace-sdk/<version>
});

// Paths, parameters, bodies and answers are all typed by the API's contract.
const { data: me, error } = await client.GET('/v1/user');
if (error) throw new Error(`Cannot read the user: ${error.error.message}`);
console.log(`Signed in as ${me.displayName}`);

const created = await client.POST('/v1/orgs', { body: { title: 'Docs team' } });
if (created.error) throw new Error(created.error.error.message);
console.log(`Created ${created.data.title} (${created.data.id})`);

const { data: organization } = await client.GET('/v1/orgs/{organizationId}', {
  params: { path: { organizationId: created.data.id } },
});
console.log(`Its plan: ${organization?.plan}`);
