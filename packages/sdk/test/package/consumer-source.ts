// The consumer of the packed SDK: an application's file that uses the client, pagination, a path-based
// call and errors, and whose mistakes the published types must reject. test/package/consumers.test.ts
// type-checks, compiles and runs it as ESM and CommonJS; scripts/type-cost.ts times its type-check.
// One source for both projects: TypeScript compiles it to ESM or CommonJS by the project's "type".
export const consumerSource = `
import { collect, createContentWorkspace, NotFoundError, paginate, type ContentWorkspace } from '@content-workspace/sdk';

declare const process: { argv: string[] };

async function main(): Promise<void> {
  const cw = createContentWorkspace({ baseUrl: process.argv[2]!, token: 'cw_consumer', throwOnError: true, userAgent: 'consumer' });
  const organizations = await collect(paginate(cw.organizations.list, { query: { limit: 1 } }));
  const { data: space } = await cw.spaces.get({ spaceId: 's1' });
  const missing = await cw.client
    .GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: 'gone' } } })
    .catch((error: unknown) => error);
  const titles: string[] = organizations.map((org) => org.title);
  console.log(JSON.stringify({ titles, space: space.title, notFound: missing instanceof NotFoundError }));
}

// Never called: the published types must reject these.
export function mistakes(cw: ContentWorkspace<true>): void {
  // @ts-expect-error: misspelt body key
  void cw.spaces.update({ spaceId: 's1', body: { titel: 'x' } });
  // @ts-expect-error: wrong path
  void cw.client.GET('/v1/organizations');
  // @ts-expect-error: a path parameter is a string
  void cw.spaces.get({ spaceId: 1 });
}

void main();
`;
