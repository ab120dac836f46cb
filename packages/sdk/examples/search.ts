import { collect, createContentWorkspace, paginate } from '@content-workspace/sdk';

const cw = createContentWorkspace({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080',
  token: process.env.CONTENT_WORKSPACE_TOKEN,
  throwOnError: true,
});

// One space: pages best first (a title match before the others), each with its best sections and a
// snippet of their text around the match. `"phrases"`, `-word` and `or` work as in a web search.
const { data: found } = await cw.spaces.search({ spaceId: process.env.SPACE_ID!, query: { query: 'install -docker' } });
console.log(`${found.count} pages match`);
for (const page of found.items) {
  console.log(`${page.title} (${page.urls.app})`);
  for (const section of page.sections) console.log(`  ${section.title}: ${section.body}`);
}

// The whole organization: the spaces the token's user can read, best first, each with its five best
// pages. A misspelt word still finds its pages; `collect` stops after the first three spaces.
const spaces = await collect(paginate(cw.organizations.search, { organizationId: process.env.ORGANIZATION_ID!, query: { query: 'instal' } }), 3);
for (const space of spaces) console.log(`${space.title}: ${space.pages.map((page) => page.title).join(', ')}`);
