import { createContentWorkspace } from '@content-workspace/sdk';

const cw = createContentWorkspace({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080',
  token: process.env.CONTENT_WORKSPACE_TOKEN,
  throwOnError: true,
});

const spaceId = process.env.SPACE_ID!; // a space in `live` edit mode
const diagram = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"/>'); // or: await readFile(…)

// One batch is one new revision, all or nothing: here a file and a page that shows it as its
// cover. A `ref` names an object inserted earlier in the same batch; the answer maps refs to ids.
const { data } = await cw.spaces.content.apply({
  spaceId,
  body: {
    changes: [
      { type: 'insert_file', ref: 'diagram', name: 'architecture.svg', contentType: 'image/svg+xml', base64: diagram.toString('base64') },
      {
        type: 'insert_page',
        ref: 'page',
        title: 'Architecture',
        markdown: '# Architecture\n\nHow the parts fit together.\n',
        cover: { ref: { kind: 'file', file: { ref: 'diagram' } } },
      },
    ],
  },
});
console.log(`Revision ${data.revision}: page ${data.refs.page}, file ${data.refs.diagram}`);
