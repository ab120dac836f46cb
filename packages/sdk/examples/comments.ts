import { createContentWorkspace, paginate } from '@content-workspace/sdk';

const cw = createContentWorkspace({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080',
  token: process.env.CONTENT_WORKSPACE_TOKEN,
  throwOnError: true,
});

const spaceId = process.env.SPACE_ID!;
const { data: page } = await cw.spaces.pages.getByPath({ spaceId, pagePath: 'getting-started' });

// A comment on the page (add `node` for one block of its body), a reply, a reaction, then resolved.
const { data: comment } = await cw.spaces.comments.create({
  spaceId,
  body: { page: page.id, body: { markdown: 'Does this still hold on Node.js 22?' } },
});
const commentId = comment.id;
await cw.spaces.comments.replies.create({ spaceId, commentId, body: { body: { markdown: 'Yes, checked.' } } });
await cw.spaces.comments.update({ spaceId, commentId, body: { addedReactions: ['👍'] } });
const { data: resolved } = await cw.spaces.comments.update({ spaceId, commentId, body: { resolved: true } });
console.log(`${resolved.status} by ${resolved.resolvedBy?.displayName}, ${resolved.replies} reply, ${resolved.reactions[0]?.emoji}`);

// The open comments of the page, page after page; `outdated` when the text they discuss is gone.
for await (const open of paginate(cw.spaces.comments.list, { spaceId, query: { status: 'open', targetPage: page.id } })) {
  const where = open.target.page?.outdated ? 'outdated' : (open.target.node?.preview ?? open.target.page?.title);
  console.log(`${open.postedBy.displayName} on ${where}: ${open.body.markdown}`);
}
