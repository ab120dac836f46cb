// The data of a compared server (bench/lib/builds.ts), written through its own CLI and API — never by
// SQL, whose tables differ from one commit to the next — using only what every compared commit has had
// since the foundation (`admin bootstrap` and `admin create-user`, link invites with a role, collections
// and spaces): an organization, its members with a token each (mostly readers and editors, a few
// creators, as the bulk seed), collections, and spaces, half of them in a collection.
//
// Users come from the CLI, which takes seconds per run (node starts and checks the migrations; ~7 s
// from sources on a loaded machine): a few users, each with several tokens made through the API. The
// caches a request meets (token, viewer) are warm for every caller in the steady state either way.
import type { ServerBuild } from '../lib/builds.js';
import { runCli } from '../lib/builds.js';

export type ApiSeeded = { organizationId: string; spaceIds: string[]; collectionIds: string[]; tokens: string[] };

/** `members` users besides the admin, `tokensPerUser` tokens each (the admin included). */
export type ApiSeedOptions = { members: number; tokensPerUser: number; collections: number; spaces: number };

/** The role of the i-th member (1-based): mostly readers, as in the bulk seed (bench/api/seed.ts). */
const roleOf = (i: number) => (['read', 'edit', 'read', 'create'] as const)[(i - 1) % 4]!;

/** The token (the CLI's last line of output) and the id in the line that names `what` ("User … (id)"). */
function parseCli(output: string, what: 'User' | 'Organization'): { token: string; id: string } {
  const lines = output.trim().split('\n');
  const named = lines.find((line) => line.startsWith(`${what} `));
  const id = named && /\(([^()]+)\)$/.exec(named)?.[1];
  if (!id) throw new Error(`The CLI's output names no ${what}:\n${output}`);
  return { token: lines.at(-1)!.trim(), id };
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function inParallel<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]!, i);
    }),
  );
  return results;
}

export async function seedThroughApi(build: ServerBuild, serverUrl: string, env: Record<string, string>, options: ApiSeedOptions): Promise<ApiSeeded> {
  const call = async (token: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const response = await fetch(`${serverUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  };
  const expect = async (token: string, method: string, path: string, body?: unknown) => {
    const { status, json } = await call(token, method, path, body);
    if (status >= 300) throw new Error(`${build.label}: ${method} ${path} answered ${status}: ${JSON.stringify(json)}`);
    return json;
  };

  const admin = parseCli(await runCli(build, ['admin', 'bootstrap', '--email', 'admin@bench.test', '--name', 'Admin', '--org', 'Benchmark organization'], env), 'Organization');
  const organizationId = admin.id;
  // Two at a time: each CLI run starts node and checks the migrations.
  const members = await inParallel(
    Array.from({ length: options.members }, (_, i) => i + 1),
    2,
    async (i) => parseCli(await runCli(build, ['admin', 'create-user', '--email', `member${i}@bench.test`, '--name', `Member ${i}`], env), 'User'),
  );

  const invites = new Map<string, string>();
  for (const role of new Set(members.map((_, i) => roleOf(i + 1)))) {
    invites.set(role, (await expect(admin.token, 'POST', `/v1/orgs/${organizationId}/link-invites`, { role })).id as string);
  }
  for (const [i, member] of members.entries()) {
    const join = () => call(member.token, 'POST', `/v1/orgs/${organizationId}/link-invites/${invites.get(roleOf(i + 1))}/join`);
    let joined = await join();
    if (joined.status === 403) {
      // Link invites off in this organization (a commit's default): turned on, once.
      await expect(admin.token, 'PATCH', `/v1/orgs/${organizationId}`, { inviteLinks: true });
      joined = await join();
    }
    if (joined.status !== 201 && joined.status !== 200) throw new Error(`${build.label}: joining answered ${joined.status}: ${JSON.stringify(joined.json)}`);
  }

  const collectionIds: string[] = [];
  for (let i = 1; i <= options.collections; i++) {
    collectionIds.push((await expect(admin.token, 'POST', `/v1/orgs/${organizationId}/collections`, { title: `Collection ${i}` })).id as string);
  }
  const spaceIds = await inParallel(
    Array.from({ length: options.spaces }, (_, i) => i + 1),
    8,
    async (i) =>
      (
        await expect(admin.token, 'POST', `/v1/orgs/${organizationId}/spaces`, {
          title: `Space ${i}`,
          // Half in a collection, half at the top level (private: every member reads them by their role).
          ...(i % 2 === 0 ? { parent: collectionIds[i % collectionIds.length] } : {}),
        })
      ).id as string,
  );
  const tokens: string[] = [];
  for (const user of [admin, ...members]) {
    tokens.push(user.token);
    for (let i = 1; i < options.tokensPerUser; i++) tokens.push((await expect(user.token, 'POST', '/v1/user/tokens', { label: `bench ${i}` })).token as string);
  }
  // Every token reads a space: a seed whose reads would be refused measures nothing.
  for (const token of tokens) await expect(token, 'GET', `/v1/spaces/${spaceIds[0]}`);
  return { organizationId, spaceIds, collectionIds, tokens };
}
