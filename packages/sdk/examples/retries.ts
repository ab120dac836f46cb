import { createClient } from '@content-workspace/sdk';

// Idempotent calls (GET, HEAD, PUT, DELETE, OPTIONS) are retried after a failed connection, a
// timeout, a 429 or a 503, with exponential backoff and jitter, honouring Retry-After up to
// maxRetryDelayMs. POST and PATCH are sent once.
const client = createClient({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080',
  token: process.env.CONTENT_WORKSPACE_TOKEN,
  timeoutMs: 10_000, // each attempt, body included
  maxRetries: 4,
  retryDelayMs: 250,
  maxRetryDelayMs: 10_000,
});

// Options of one call: its own time limit, retries and AbortSignal.
const { data: token } = await client.POST('/v1/user/tokens', {
  body: { label: 'deploy' },
  timeoutMs: 2_000,
});
if (token) {
  await client.DELETE('/v1/user/tokens/{tokenId}', {
    params: { path: { tokenId: token.id } },
    maxRetries: 10,
    signal: AbortSignal.timeout(30_000),
  });
  console.log(`Created and revoked token ${token.id}`);
}
