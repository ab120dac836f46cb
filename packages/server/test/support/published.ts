// Published sites for the tests of what visitors get (integration and browser): a site built through
// the API as its owner would, with spaces of real pages, and a raw HTTP client that keeps cookies like
// a browser (fetch does not), sends a Host header when asked, and never follows redirects.
import { request } from 'node:http';
import type { TestServer } from './harness.js';
import { createOrganizationWithAdmin, createSpace, type TestUser } from './factories.js';
import { edit, type Change } from './content.js';
import { addSection, addSiteSpace, createSite, publish, sitePath } from './sites.js';

export type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** A visitor: its own cookie jar, raw requests (node:http keeps a Host header as given). */
export class Visitor {
  readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async get(path: string, options: { host?: string; headers?: Record<string, string>; method?: string; body?: string } = {}): Promise<Answer> {
    const url = new URL(path, this.base);
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        { method: options.method ?? 'GET', headers: { ...(options.host ? { host: options.host } : {}), ...(cookie ? { cookie } : {}), ...options.headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            for (const line of res.headers['set-cookie'] ?? []) {
              const [pair] = line.split(';');
              const eq = pair!.indexOf('=');
              const value = pair!.slice(eq + 1);
              if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(pair!.slice(0, eq));
              else this.cookies.set(pair!.slice(0, eq), value);
            }
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
          });
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });
  }

  /** Follows redirects on the same server (as a browser would), answering the last response. */
  async follow(path: string, options: { host?: string } = {}): Promise<Answer & { path: string }> {
    let current = path;
    for (let hops = 0; hops < 5; hops++) {
      const answer = await this.get(current, options);
      const location = answer.headers.location as string | undefined;
      if (answer.status < 300 || answer.status >= 400 || !location || /^https?:/.test(location)) return { ...answer, path: current };
      current = location;
    }
    throw new Error('too many redirects');
  }
}

export type PublishedWorld = {
  t: TestServer;
  admin: TestUser;
  organizationId: string;
  siteId: string;
  spaces: Record<string, { id: string; refs: Record<string, string> }>;
};

/** A space holding `changes` (applied as one batch). */
export async function spaceWithPages(t: TestServer, admin: TestUser, organizationId: string, title: string, changes: Change[]) {
  const space = await createSpace(t, admin, { id: organizationId }, { title });
  const result = await edit(admin, space.id, changes);
  return { id: space.id, refs: result.refs as Record<string, string> };
}

/** An organization with a published public site holding one space of `changes` at its root. */
export async function publishedSite(t: TestServer, changes: Change[], options: { title?: string; visibility?: 'public' | 'unlisted' | 'share-link' | 'visitor-auth'; publish?: boolean } = {}) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const guide = await spaceWithPages(t, admin, organization.id, 'Guide', changes);
  const site = await createSite(admin.client, organization.id, { title: options.title ?? 'Acme Docs', spaces: [guide.id], visibility: options.visibility ?? 'public' });
  if (options.publish !== false) await publish(admin.client, organization.id, site.id);
  return { t, admin, organizationId: organization.id, siteId: site.id, spaces: { guide } } satisfies PublishedWorld;
}

/**
 * `count` pages whose titles and two sections all say `word` (`"<Word> 0"`, `"<Word> 1"`, …), added to
 * the space in batches of the API's 50 changes: more matches than the search dialog reads.
 */
export async function addPagesSaying(admin: TestUser, spaceId: string, word: string, count: number): Promise<void> {
  const title = word.charAt(0).toUpperCase() + word.slice(1);
  for (let from = 0; from < count; from += 50) {
    const batch = Array.from({ length: Math.min(50, count - from) }, (_, i) => ({
      type: 'insert_page',
      title: `${title} ${from + i}`,
      slug: `${word}-${from + i}`,
      markdown: `Light the ${word} at dusk.\n\n## ${title} care\n\nKeep the ${word} clean.`,
    }));
    await edit(admin, spaceId, batch as Change[]);
  }
}

export { addSection, addSiteSpace, sitePath };
