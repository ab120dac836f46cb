import {
  ApiError,
  BadRequestError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  createContentWorkspace,
} from '@content-workspace/sdk';

// throwOnError: calls resolve to { data, response } and reject with a typed error.
const cw = createContentWorkspace({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080',
  token: process.env.CONTENT_WORKSPACE_TOKEN,
  throwOnError: true,
});

async function spaceTitle(spaceId: string): Promise<string | undefined> {
  try {
    const { data } = await cw.spaces.get({ spaceId });
    return data.title;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    if (error instanceof RateLimitError) console.log(`Rate limited, retry in ${error.retryAfterMs} ms`);
    else if (error instanceof ConnectionError) console.log(`Server unreachable: ${error.message}`);
    else if (error instanceof ApiError) console.log(`${error.status} ${error.message} (request ${error.requestId})`);
    throw error;
  }
}

console.log((await spaceTitle('missing-space')) ?? 'No such space');

try {
  await cw.users.tokens.create({ body: { label: '' } });
} catch (error) {
  if (!(error instanceof BadRequestError)) throw error;
  for (const issue of error.issues) console.log(`Invalid ${issue.path}: ${issue.message}`);
}
