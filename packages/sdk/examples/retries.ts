import { createContentWorkspace } from '@content-workspace/sdk';

// Idempotent calls (GET, HEAD, PUT, DELETE, OPTIONS) are retried after a failed or reset
// connection, a timeout, a 429 or a 503, with exponential backoff and jitter, honouring Retry-After
// up to maxRetryDelayMs. POST and PATCH are sent once.
const cw = createContentWorkspace({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080',
  token: process.env.CONTENT_WORKSPACE_TOKEN,
  throwOnError: true,
  timeoutMs: 10_000, // each attempt, body included
  maxRetries: 4,
  retryDelayMs: 250,
  maxRetryDelayMs: 10_000,
});

// Options of one call, after its arguments: its own time limit, retries and AbortSignal.
const { data: token } = await cw.users.createUserToken({ body: { label: 'deploy' } }, { timeoutMs: 2_000 });
await cw.users.deleteUserToken({ tokenId: token.id }, { maxRetries: 10, signal: AbortSignal.timeout(30_000) });
console.log(`Created and revoked token ${token.id}`);
