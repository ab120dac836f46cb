// A published site's MCP server at `{site}/~mcp` through the official SDK's client over real HTTP: its
// read-only tools (search, a page as Markdown, the navigation), its pages as resources, what it refuses
// to visitors without a site's credentials, and an agent's edit through the API's `/mcp` showing on the
// site's `.md` and `llms.txt` on the next request.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { agentSite, callTool as call, siteRoot as root, textOf, useMcpClients } from '../support/agents.js';
import { useTestServer } from '../support/harness.js';
import { sitePath, Visitor, type PublishedWorld } from '../support/published.js';

const server = useTestServer();
const { connect } = useMcpClients('site-mcp-test');

const docs = (options: Parameters<typeof agentSite>[2] = {}): Promise<PublishedWorld> =>
  agentSite(server(), { welcome: 'Hello. Our lighthouse keeps ships safe.', guide: 'Install the beacon: a lantern and a battery.', hidden: 'The lighthouse treasure map.' }, options);

describe('a site\'s MCP server (~mcp)', { timeout: 180_000 }, () => {
  it('names the site, lists read-only tools, searches, reads pages by address or id, lists the navigation and the pages as resources', async () => {
    const world = await docs();
    const base = `${world.t.config.publicUrl}${root(world)}`;
    const client = await connect(world.t, `${root(world)}/~mcp`);
    expect(client.getInstructions()).toContain('"Acme Docs"');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['getPage', 'listPages', 'searchDocumentation']);
    for (const tool of tools) expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });

    const found = JSON.parse(textOf(await call(client, 'searchDocumentation', { query: 'lighthouse' })));
    // The hidden page is not searched, as on the site; the count is exact (the search's bound not reached).
    expect(found.results).toEqual([{ title: 'Welcome', url: `${base}/welcome.md`, snippet: expect.stringContaining('lighthouse') }]);
    expect(found).toMatchObject({ total: 1, totalIsLowerBound: false });

    const markdown = (await new Visitor(world.t.url).get(`${root(world)}/welcome.md`)).body;
    expect(textOf(await call(client, 'getPage', { address: found.results[0].url }))).toBe(markdown);
    expect(textOf(await call(client, 'getPage', { address: 'welcome' }))).toBe(markdown);
    expect(textOf(await call(client, 'getPage', { id: world.spaces.guide!.refs.welcome! }))).toBe(markdown);
    // Reachable by its address like the HTML, though listed nowhere.
    expect(textOf(await call(client, 'getPage', { address: `${root(world)}/hidden` }))).toContain('treasure');
    const missing = await call(client, 'getPage', { address: 'nowhere' });
    expect(missing.isError).toBe(true);
    expect((await call(client, 'getPage', {})).isError).toBe(true);

    expect(JSON.parse(textOf(await call(client, 'listPages', {})))).toEqual({
      sections: [{ section: 'Guide', pages: [{ title: 'Welcome', url: `${base}/welcome.md`, description: 'Start here.' }, { title: 'Guide', url: `${base}/guide.md` }] }],
    });
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([`${base}/welcome.md`, `${base}/guide.md`]);
    const read = await client.readResource({ uri: `${base}/welcome.md` });
    expect(read.contents).toEqual([{ uri: `${base}/welcome.md`, mimeType: 'text/markdown', text: markdown }]);

    // Each page read through the server (getPage, a resource read) counts in the site's insights as `mcp`,
    // apart from the `.md` read above (`markdown`); an address with no page counts nothing.
    const today = new Date().toISOString().slice(0, 10);
    const { data: insights } = await world.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/insights', { ...sitePath(world.organizationId, world.siteId), params: { ...sitePath(world.organizationId, world.siteId).params, query: { from: today, to: today } } });
    expect(insights!.totals.views).toEqual({ page: 0, markdown: 1, mcp: 5 });
    const { refs } = world.spaces.guide!;
    expect(insights!.pages.map(({ page, views }) => ({ page, views })).sort((a, b) => a.page.localeCompare(b.page))).toEqual(
      [
        { page: refs.welcome!, views: { page: 0, markdown: 1, mcp: 4 } },
        { page: refs.secret!, views: { page: 0, markdown: 0, mcp: 1 } },
      ].sort((a, b) => a.page.localeCompare(b.page)),
    );
  });

  it('refuses without a site\'s credentials: share-link without its key (the absent 404), visitor-auth without a token (401); with them, answers', async () => {
    const shared = await docs({ visibility: 'share-link' });
    const { data: link } = await shared.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(shared.organizationId, shared.siteId), body: { label: 'Agents' } });
    await expect(connect(shared.t, `${root(shared)}/~mcp`)).rejects.toThrow(/There is nothing published at this address/);
    await expect(connect(shared.t, `${root(shared)}/~mcp`, { 'X-Share-Key': 'wrong' })).rejects.toThrow(/There is nothing published at this address/);
    const byHeader = await connect(shared.t, `${root(shared)}/~mcp`, { 'X-Share-Key': link!.key! });
    expect(textOf(await call(byHeader, 'getPage', { address: 'welcome' }))).toContain('lighthouse');
    const byQuery = await connect(shared.t, `${root(shared)}/~mcp?shareKey=${encodeURIComponent(link!.key!)}`);
    expect((await byQuery.listTools()).tools).toHaveLength(3);

    const signed = await docs({ visibility: 'visitor-auth' });
    const { data: auth } = await signed.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...sitePath(signed.organizationId, signed.siteId), body: { fallbackURL: 'https://login.example.com/' } });
    await expect(connect(signed.t, `${root(signed)}/~mcp`)).rejects.toThrow(/401|Unauthorized|signed-in visitors/);
    await expect(connect(signed.t, `${root(signed)}/~mcp`, { Authorization: 'Bearer forged' })).rejects.toThrow(/401|Unauthorized|signed-in visitors/);
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new TextEncoder().encode(auth!.secret!));
    const admitted = await connect(signed.t, `${root(signed)}/~mcp`, { Authorization: `Bearer ${token}` });
    expect(textOf(await call(admitted, 'getPage', { address: 'guide' }))).toContain('beacon');
  });

  it('an edit through the API\'s /mcp (change request, a page from Markdown, merge) shows on the site\'s .md and llms.txt on the next request', async () => {
    const world = await docs();
    const spaceId = world.spaces.guide!.id;
    const agent = new Visitor(world.t.url);
    const before = await agent.get(`${root(world)}/llms.txt`);
    expect(before.body).not.toContain('Changelog');
    const api = await connect(world.t, '/mcp', { Authorization: `Bearer ${world.admin.token}` });
    const opened = JSON.parse(textOf(await call(api, 'open_change_request', { spaceId, subject: 'Changelog' })));
    const changeRequestId = String(opened.number);
    const created = await call(api, 'create_page', { spaceId, changeRequestId, document: '# Changelog\n\n> What changed.\n\n> [!TIP]\n> Version 2 is out.\n' });
    expect(created.isError, textOf(created)).toBeFalsy();
    const merged = await call(api, 'merge_change_request', { spaceId, changeRequestId });
    expect(merged.isError, textOf(merged)).toBeFalsy();

    const index = await agent.get(`${root(world)}/llms.txt`);
    const line = index.body.split('\n').find((entry) => entry.startsWith('- [Changelog]'));
    expect(line).toMatch(/^- \[Changelog\]\((http:\/\/api\.test\/s\/[^)]+\.md)\): What changed\.$/);
    const page = await agent.get(new URL(/\((.+)\)/.exec(line!)![1]!).pathname);
    expect(page.status).toBe(200);
    expect(page.body).toBe('# Changelog\n\n> What changed.\n\n> [!TIP]\n> Version 2 is out.\n');
  });
});
