// The bench's long page lives with the server's test support, where the renderer's corpus test reads it
// too (packages/server/src/areas/sites/published/markdown-hast.test.ts).
export { longPage } from '../../packages/server/test/support/long-page.js';
