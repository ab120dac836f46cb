import {
  ApiError,
  BadRequestError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  createClient,
} from '@content-workspace/sdk';

// throwOnError: calls resolve to { data, response } and reject with a typed error.
const client = createClient({
  baseUrl: process.env.CONTENT_WORKSPACE_URL ?? 'http://localhost:8080',
  token: process.env.CONTENT_WORKSPACE_TOKEN,
  throwOnError: true,
});

async function organizationTitle(organizationId: string): Promise<string | undefined> {
  try {
    const { data } = await client.GET('/v1/orgs/{organizationId}', { params: { path: { organizationId } } });
    return data.title;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    if (error instanceof RateLimitError) console.log(`Rate limited, retry in ${error.retryAfterMs} ms`);
    else if (error instanceof ConnectionError) console.log(`Server unreachable: ${error.message}`);
    else if (error instanceof ApiError) console.log(`${error.status} ${error.message} (request ${error.requestId})`);
    throw error;
  }
}

console.log((await organizationTitle('missing-org')) ?? 'No such organization');

try {
  await client.POST('/v1/user/tokens', { body: { label: '' } });
} catch (error) {
  if (!(error instanceof BadRequestError)) throw error;
  for (const issue of error.issues) console.log(`Invalid ${issue.path}: ${issue.message}`);
}
