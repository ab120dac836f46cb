import { createContentWorkspace } from '@content-workspace/sdk';

const cw = createContentWorkspace({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080',
  token: process.env.CONTENT_WORKSPACE_TOKEN,
  throwOnError: true,
});

const spaceId = process.env.SPACE_ID!;
const { data: page } = await cw.spaces.pages.getByPath({ spaceId, pagePath: 'getting-started' });

// Open a change request and edit its own line of revisions: the space is untouched until the merge.
const { data: changeRequest } = await cw.changeRequests.create({ spaceId, body: { subject: 'Clarify the install step' } });
const changeRequestId = changeRequest.id;
await cw.changeRequests.content.apply({
  spaceId,
  changeRequestId,
  body: { changes: [{ type: 'update_page', page: page.id, markdown: '# Getting started\n\nRun `pnpm install` first.\n' }] },
});
await cw.changeRequests.update({ spaceId, changeRequestId, body: { subject: 'Getting started: install first' } });

// If the space moved on since, bring the change request up to date (a 3-way merge), then merge it.
const { data: current } = await cw.changeRequests.get({ spaceId, changeRequestId });
if (current.outdated) {
  const { data: updated } = await cw.changeRequests.updateFromSpace({ spaceId, changeRequestId });
  console.log(`Updated from the space: ${updated.result}`);
}
const { data: merged } = await cw.changeRequests.merge({ spaceId, changeRequestId });
console.log(`Merged #${current.number} "${current.subject}" as revision ${merged.revision} (${merged.result})`);
