import { collect, createClient, paginate } from '@content-workspace/sdk';

const client = createClient({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080',
  token: process.env.CONTENT_WORKSPACE_TOKEN,
});

// Every item of a list, page after page (`limit` items a request), fetched as you iterate.
for await (const organization of paginate(client, '/v1/orgs', { query: { limit: 100 } })) {
  console.log(`${organization.id} ${organization.title}`);
}

// At most 10 items: no page beyond the one holding the 10th is requested.
const tokens = await collect(paginate(client, '/v1/user/tokens'), 10);
console.log(`Newest tokens: ${tokens.map((token) => token.label).join(', ')}`);
