import { collect, createContentWorkspace, paginate } from '@content-workspace/sdk';

const cw = createContentWorkspace({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080',
  token: process.env.CONTENT_WORKSPACE_TOKEN,
});

// Every item of a list, page after page (`limit` items a request), fetched as you iterate.
for await (const organization of paginate(cw.organizations.list, { query: { limit: 100 } })) {
  console.log(`${organization.id} ${organization.title}`);
}

// At most 10 items: no page beyond the one holding the 10th is requested.
const organizationId = process.env.ORGANIZATION_ID!; // one of the organizations above
const spaces = await collect(paginate(cw.spaces.list, { organizationId }), 10);
console.log(`Spaces of ${organizationId}: ${spaces.map((space) => space.title).join(', ')}`);
