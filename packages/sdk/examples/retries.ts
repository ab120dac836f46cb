import { createContentWorkspace } from '@content-workspace/sdk';

// Every call is retried after a failed or reset connection, a timeout, a 408, a 429, a 5xx or a 409
// saying that the same call is still running, with exponential backoff and jitter, honouring
// Retry-After up to maxRetryDelayMs. Writes carry an Idempotency-Key, a new one per call and the same
// on each of its retries, so the server runs them once however often they are sent.
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
const { data: token } = await cw.users.tokens.create({ body: { label: 'deploy' } }, { timeoutMs: 2_000 });
await cw.users.tokens.delete({ tokenId: token.id }, { maxRetries: 10, signal: AbortSignal.timeout(30_000) });
console.log(`Created and revoked token ${token.id}`);

// Your own key makes a write safe to repeat beyond one call's retries (a job that may run twice, a
// request sent again after a restart): for 24 hours the server answers it with the first answer.
const jobId = 'nightly-2026-11-28';
for (const run of [1, 2]) {
  const { data: space, response } = await cw.spaces.create(
    { organizationId: process.env.ORGANIZATION_ID!, body: { title: 'Nightly report' } },
    { idempotencyKey: `report-space-${jobId}` },
  );
  const replayed = response.headers.get('idempotent-replayed') === 'true';
  console.log(`Run ${run}: space ${space.id}${replayed ? ', the first run’s answer replayed' : ''}`);
}
