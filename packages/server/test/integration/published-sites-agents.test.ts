// Published sites for agents (issue 31), through real HTTP: a page's Markdown at `{page}.md` and by
// `Accept: text/markdown` (links to the pages' `.md` addresses, GitBook blocks in Markdown, the HTML's
// ETag and caching rules), its alternate link and copy control on the HTML page, and what agents may
// see of restricted sites (share key in the address or a header, visitor token as a bearer).
import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { agentSite, callTool, siteRoot as root, textOf, useMcpClients } from '../support/agents.js';
import { useTestServer } from '../support/harness.js';
import { edit } from '../support/content.js';
import { sitePath, Visitor, type PublishedWorld } from '../support/published.js';

const server = useTestServer();
const { connect } = useMcpClients('published-sites-agents-test');

const docs = (options: Parameters<typeof agentSite>[2] = {}): Promise<PublishedWorld> =>
  agentSite(
    server(),
    {
      welcome: 'Hello. Read the [guide](guide.md#setup).\n\n{% hint style="warning" %}\nMind the gap.\n{% endhint %}\n',
      guide: '## Setup\n\nSee [home](welcome.md) and [elsewhere](https://example.com/x).\n\n{% content-ref url="welcome.md" %}\n[welcome.md](welcome.md)\n{% endcontent-ref %}\n',
      hidden: 'The treasure map is here.',
    },
    options,
  );

describe('a page as Markdown', () => {
  it('answers `{page}.md` with the page as Markdown: title, description, body, links to `.md` addresses, blocks in Markdown', async () => {
    const world = await docs();
    const base = `${world.t.config.publicUrl}${root(world)}`;
    const visitor = new Visitor(world.t.url);
    const answer = await visitor.get(`${root(world)}/welcome.md`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, no-cache');
    expect(answer.body).toBe(`# Welcome\n\n> Start here.\n\nHello. Read the [guide](${base}/guide.md#setup).\n\n> [!WARNING]\n> Mind the gap.\n`);
    const guide = await visitor.get(`${root(world)}/guide.md`);
    expect(guide.body).toBe(
      `# Guide\n\n## Setup\n\nSee [home](${base}/welcome.md) and [elsewhere](https://example.com/x).\n\n<!-- content-ref url="${base}/welcome.md" -->\n[welcome.md](${base}/welcome.md)\n<!-- /content-ref -->\n`,
    );
    // A hidden page is reachable by its address, as in HTML.
    expect((await visitor.get(`${root(world)}/hidden.md`)).body).toBe('# Hidden\n\nThe treasure map is here.\n');
    const missing = await visitor.get(`${root(world)}/nothing.md`);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/markdown; charset=utf-8');
  });

  it('keeps an ETag like the HTML (304 on a repeat, a new one after a merge); `Accept: text/markdown` on the HTML address answers the same', async () => {
    const world = await docs();
    const visitor = new Visitor(world.t.url);
    const first = await visitor.get(`${root(world)}/welcome.md`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect((await visitor.get(`${root(world)}/welcome.md`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const html = await visitor.get(`${root(world)}/welcome`);
    expect(html.headers.etag).not.toBe(etag);
    expect(html.headers.vary).toContain('Accept');
    const negotiated = await visitor.get(`${root(world)}/welcome`, { headers: { Accept: 'text/markdown' } });
    expect(negotiated.status).toBe(200);
    expect(negotiated.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(negotiated.headers.vary).toContain('Accept');
    expect(negotiated.body).toBe(first.body);
    // A browser's Accept gets the HTML.
    const browser = await visitor.get(`${root(world)}/welcome`, { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(browser.headers['content-type']).toBe('text/html; charset=utf-8');

    await edit(world.admin, world.spaces.guide!.id, [{ type: 'update_page', page: world.spaces.guide!.refs.welcome!, markdown: 'Changed.' } as never]);
    const changed = await visitor.get(`${root(world)}/welcome.md`, { headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.body).toBe('# Welcome\n\n> Start here.\n\nChanged.\n');
  });

  it('the HTML page links its Markdown (alternate link) and offers "Copy page as Markdown" as a plain link', async () => {
    const world = await docs();
    const html = (await new Visitor(world.t.url).get(`${root(world)}/guide`)).body;
    expect(html).toContain(`<link rel="alternate" type="text/markdown" href="${root(world)}/guide.md">`);
    expect(html).toContain(`<a class="copy-markdown" href="${root(world)}/guide.md" type="text/markdown" data-copied="Copied">Copy page as Markdown</a>`);
  });

  it('share-link: without the key, the same absent answer as the HTML; with the key in the address or `X-Share-Key`, the Markdown (no cookie, no reload)', async () => {
    const world = await docs({ visibility: 'share-link' });
    const { data: link } = await world.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(world.organizationId, world.siteId), body: { label: 'Agents' } });
    const agent = new Visitor(world.t.url);
    const absent = await agent.get(`${root(world)}/welcome.md`);
    const absentHtml = await agent.get(`${root(world)}/welcome`);
    expect(absent.status).toBe(404);
    expect(absent.body).toBe(absentHtml.body);
    expect((await agent.get(`${root(world)}/welcome.md`, { headers: { 'X-Share-Key': 'wrong' } })).status).toBe(404);
    const byQuery = await agent.get(`${root(world)}/welcome.md?shareKey=${link!.key}`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.headers['set-cookie']).toBeUndefined();
    expect(byQuery.headers['cache-control']).toBe('private, no-cache');
    expect(byQuery.body).toContain('# Welcome');
    expect((await agent.get(`${root(world)}/welcome.md`, { headers: { 'X-Share-Key': link!.key! } })).status).toBe(200);
  });

  it('visitor-auth: without a token 401 (nothing of the page); with the visitor token as a bearer, the Markdown', async () => {
    const world = await docs({ visibility: 'visitor-auth' });
    const { data: auth } = await world.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...sitePath(world.organizationId, world.siteId), body: { fallbackURL: 'https://login.example.com/' } });
    const token = await new SignJWT({ plan: 'free' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new TextEncoder().encode(auth!.secret!));
    const agent = new Visitor(world.t.url);
    const refused = await agent.get(`${root(world)}/welcome.md`);
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(refused.body).not.toContain('Hello');
    expect((await agent.get(`${root(world)}/welcome.md`, { headers: { Authorization: 'Bearer not-a-token' } })).status).toBe(401);
    const admitted = await agent.get(`${root(world)}/welcome.md`, { headers: { Authorization: `Bearer ${token}` } });
    expect(admitted.status).toBe(200);
    expect(admitted.body).toContain('Hello.');
    expect(admitted.headers['set-cookie']).toBeUndefined();
  });
});

/**
 * A part of a body with everything the read rewrites or turns (a link to a page with an anchor, an image
 * of the space, a hint, tabs, a titled code block, a content reference), about a kilobyte: pages are made
 * of copies of it.
 */
const PART = [
  'Read the [guide](guide.md#setup) and [elsewhere](https://example.com/x). ' + 'Plain prose between the blocks. '.repeat(12),
  '{% hint style="info" %}\nA **hint** with [home](welcome.md).\n{% endhint %}',
  '{% tabs %}\n{% tab title="npm" %}\n```sh\nnpm install tool\n```\n{% endtab %}\n\n{% tab title="pnpm" %}\nUse `pnpm add tool`.\n{% endtab %}\n{% endtabs %}',
  '{% code title="config.ts" lineNumbers="true" %}\n```ts\nexport const config = { port: 8080 };\n```\n{% endcode %}',
  '{% content-ref url="guide.md" %}\n[guide.md](guide.md)\n{% endcontent-ref %}',
].join('\n\n');
/** The body length past which a page is read in the parse pool (packages/server/src/areas/sites/published/page-markdown.ts). */
const POOL_THRESHOLD = 8_192;

describe('a long page, read in the parse pool', { timeout: 180_000 }, () => {
  it('reads as a short one does: `.md` and the site\'s MCP getPage of a body past the threshold give the short body\'s Markdown, part for part', async () => {
    const copies = Math.ceil(POOL_THRESHOLD / PART.length) + 1;
    const long = Array.from({ length: copies }, () => PART).join('\n\n');
    expect(PART.length).toBeLessThan(POOL_THRESHOLD);
    expect(long.length).toBeGreaterThan(POOL_THRESHOLD);
    const world = await agentSite(server(), { welcome: PART, guide: '## Setup\n\nSteps.', hidden: long });
    const pool = vi.spyOn(world.t.context.parsing, 'run');
    const agent = new Visitor(world.t.url);
    const short = await agent.get(`${root(world)}/welcome.md`);
    expect(short.status).toBe(200);
    expect(pool.mock.calls.filter(([task]) => task === 'agent-markdown')).toHaveLength(0);
    // Read first through MCP (rendered then, in the pool), then at its `.md` address (the same, cached).
    const client = await connect(world.t, `${root(world)}/~mcp`);
    const read = await callTool(client, 'getPage', { address: 'hidden' });
    expect(read.isError, textOf(read)).toBeFalsy();
    expect(pool.mock.calls.filter(([task]) => task === 'agent-markdown').map(([, input]) => (input as { markdown: string }).markdown.trimEnd())).toEqual([long]);
    const part = short.body.slice('# Welcome\n\n> Start here.\n\n'.length).trimEnd();
    expect(part).toContain(`[guide](${world.t.config.publicUrl}${root(world)}/guide.md#setup)`);
    expect(part).toContain('<!-- tabs -->');
    expect(textOf(read)).toBe(`# Hidden\n\n${Array.from({ length: copies }, () => part).join('\n\n')}\n`);
    expect((await agent.get(`${root(world)}/hidden.md`)).body).toBe(textOf(read));
  });
});

/** The llmstxt.org structure: an H1, a blockquote summary, then H2 sections of `- [name](url): notes` lines. */
function llmsStructure(text: string): { title: string; summary: string; sections: Array<{ heading: string; links: Array<{ title: string; url: string; notes?: string }> }> } {
  const lines = text.split('\n');
  expect(text.endsWith('\n')).toBe(true);
  expect(lines[0]).toMatch(/^# \S/);
  expect(lines[1]).toBe('');
  expect(lines[2]).toMatch(/^> \S/);
  const sections: Array<{ heading: string; links: Array<{ title: string; url: string; notes?: string }> }> = [];
  for (const line of lines.slice(3)) {
    if (line === '') continue;
    if (line.startsWith('## ')) {
      sections.push({ heading: line.slice(3), links: [] });
      continue;
    }
    const link = /^- \[((?:[^\]\\]|\\.)+)\]\((https?:\/\/[^\s)]+)\)(?:: (.+))?$/.exec(line);
    expect(link, line).not.toBeNull();
    expect(sections.length, 'a link before any section').toBeGreaterThan(0);
    sections.at(-1)!.links.push({ title: link![1]!, url: link![2]!, ...(link![3] ? { notes: link![3] } : {}) });
  }
  return { title: lines[0]!.slice(2), summary: lines[2]!.slice(2), sections };
}

describe('llms.txt and llms-full.txt', { timeout: 180_000 }, () => {
  it('llms.txt lists the visible pages in navigation order as `.md` links (hidden ones left out), each answering 200; a merge shows on the next request', async () => {
    const world = await docs();
    const base = `${world.t.config.publicUrl}${root(world)}`;
    const agent = new Visitor(world.t.url);
    const answer = await agent.get(`${root(world)}/llms.txt`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/markdown; charset=utf-8');
    const parsed = llmsStructure(answer.body);
    expect(parsed.title).toBe('Acme Docs');
    expect(parsed.summary).toContain(`${base}/llms-full.txt`);
    expect(parsed.sections).toEqual([
      { heading: 'Guide', links: [{ title: 'Welcome', url: `${base}/welcome.md`, notes: 'Start here.' }, { title: 'Guide', url: `${base}/guide.md` }] },
    ]);
    for (const { url } of parsed.sections.flatMap((section) => section.links)) {
      const page = await agent.get(new URL(url).pathname);
      expect(page.status, url).toBe(200);
      expect(page.headers['content-type']).toBe('text/markdown; charset=utf-8');
    }
    const etag = answer.headers.etag as string;
    expect((await agent.get(`${root(world)}/llms.txt`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    await edit(world.admin, world.spaces.guide!.id, [{ type: 'insert_page', title: 'Later', slug: 'later', markdown: 'New.' } as never]);
    const after = llmsStructure((await agent.get(`${root(world)}/llms.txt`, { headers: { 'If-None-Match': etag } })).body);
    expect(after.sections[0]!.links.map((link) => link.title)).toEqual(['Welcome', 'Guide', 'Later']);
  });

  it('llms-full.txt holds every listed page\'s Markdown in order, each preceded by its address', async () => {
    const world = await docs();
    const base = `${world.t.config.publicUrl}${root(world)}`;
    const agent = new Visitor(world.t.url);
    const full = await agent.get(`${root(world)}/llms-full.txt`);
    expect(full.status).toBe(200);
    expect(full.headers['content-type']).toBe('text/markdown; charset=utf-8');
    const welcome = (await agent.get(`${root(world)}/welcome.md`)).body;
    const guide = (await agent.get(`${root(world)}/guide.md`)).body;
    const index = llmsStructure((await agent.get(`${root(world)}/llms.txt`)).body);
    expect(full.body).toBe(`# Acme Docs\n\n> ${index.summary}\n\n---\n\nSource: ${base}/welcome.md\n\n${welcome}\n---\n\nSource: ${base}/guide.md\n\n${guide}`);
    expect(full.body).not.toContain('treasure');
    expect((await agent.get(`${root(world)}/llms-full.txt`, { headers: { 'If-None-Match': full.headers.etag as string } })).status).toBe(304);
  });

  it('restricted sites: without credentials the same as their HTML (absent, or 401 for visitor-auth); with them, the list, a share-link site\'s addresses carrying its key', async () => {
    const shared = await docs({ visibility: 'share-link' });
    const { data: link } = await shared.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(shared.organizationId, shared.siteId), body: { label: 'Agents' } });
    const agent = new Visitor(shared.t.url);
    for (const name of ['llms.txt', 'llms-full.txt']) {
      const absent = await agent.get(`${root(shared)}/${name}`);
      expect(absent.status).toBe(404);
      expect(absent.body).toBe((await agent.get(`${root(shared)}/welcome`)).body);
      const admitted = await agent.get(`${root(shared)}/${name}`, { headers: { 'X-Share-Key': link!.key! } });
      expect(admitted.status).toBe(200);
      expect(admitted.headers['cache-control']).toBe('private, no-cache');
      expect(admitted.body).toContain('Welcome');
    }
    // Each address in the files carries the key (an agent following them sends no header), and answers with it alone.
    const base = `${shared.t.config.publicUrl}${root(shared)}`;
    const key = `?shareKey=${encodeURIComponent(link!.key!)}`;
    const index = llmsStructure((await agent.get(`${root(shared)}/llms.txt`, { headers: { 'X-Share-Key': link!.key! } })).body);
    expect(index.summary).toContain(`${base}/llms-full.txt${key} holds`);
    expect(index.sections.flatMap((section) => section.links.map((entry) => entry.url))).toEqual([`${base}/welcome.md${key}`, `${base}/guide.md${key}`]);
    for (const { url } of index.sections.flatMap((section) => section.links)) {
      const page = await agent.get(new URL(url).pathname + new URL(url).search);
      expect(page.status, url).toBe(200);
      expect(page.headers['set-cookie']).toBeUndefined();
    }
    const full = await agent.get(`${root(shared)}/llms-full.txt${key}`);
    expect(full.body.match(/^Source: .+$/gm)).toEqual([`Source: ${base}/welcome.md${key}`, `Source: ${base}/guide.md${key}`]);
    // Another link's key gets its own file (cached and validated apart), with its own key.
    const { data: other } = await shared.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(shared.organizationId, shared.siteId), body: { label: 'Partners' } });
    const second = await agent.get(`${root(shared)}/llms.txt?shareKey=${encodeURIComponent(other!.key!)}`);
    expect(second.body).toContain(`${base}/welcome.md?shareKey=${encodeURIComponent(other!.key!)}`);
    expect(second.body).not.toContain(link!.key!);
    expect(second.headers.etag).not.toBe((await agent.get(`${root(shared)}/llms.txt${key}`)).headers.etag);

    const signed = await docs({ visibility: 'visitor-auth' });
    await signed.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...sitePath(signed.organizationId, signed.siteId), body: { fallbackURL: 'https://login.example.com/' } });
    for (const name of ['llms.txt', 'llms-full.txt']) {
      const refused = await agent.get(`${root(signed)}/${name}`);
      expect(refused.status).toBe(401);
      expect(refused.body).not.toContain('Welcome');
    }
  });
});
