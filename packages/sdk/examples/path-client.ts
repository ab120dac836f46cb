import { createClient, paginate } from '@content-workspace/sdk';

// The path-based client: one method per HTTP method, the contract's path as the first argument.
// Without throwOnError, a call resolves to { data, error, response }.
const client = createClient({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080',
  token: process.env.CONTENT_WORKSPACE_TOKEN,
});

const { data: organization, error } = await client.GET('/v1/orgs/{organizationId}', {
  params: { path: { organizationId: process.env.ORGANIZATION_ID! } },
});
if (error) throw new Error(`Cannot read the organization: ${error.error.message}`);
console.log(`${organization.title} is on the ${organization.plan} plan`);

for await (const token of paginate(client, '/v1/user/tokens')) console.log(`Token ${token.label}`);
