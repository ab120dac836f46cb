// Read → write → read through the API's MCP server changes nothing: every page of the sample site
// (test/support/sample-site.ts: all its spaces, sections and variants) and of an imported GitBook export
// (with every block GitBook writes), read as agent Markdown, written back whole with `update_page` in a
// change request, merged, and read again gives the same text — through the API, and as the published
// site's `.md` (the site's MCP `getPage`, the same Markdown and cache as the `.md` address) of each page.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { callTool, textOf, useMcpClients } from '../support/agents.js';
import { useTestServer } from '../support/harness.js';
import { createOrganizationWithAdmin, createSpace, type TestUser } from '../support/factories.js';
import { sampleSite } from '../support/sample-site.js';
import { createSite, publish } from '../support/sites.js';
import { zip } from '../support/zip.js';

const server = useTestServer();
const { connect, connectApi } = useMcpClients('round-trip-test');

/** The text of a tool's answer, failing the test with the tool's error. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await callTool(client, name, args);
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  return textOf(result);
}

/** Each page as the published site gives it to an agent (its `.md`), by id through the site's MCP server. */
async function siteMarkdown(site: Client, pages: TreePage[]): Promise<string[]> {
  return Promise.all(pages.map((page) => call(site, 'getPage', { id: page.id })));
}

type TreePage = { id: string; type: string; title: string; pages?: TreePage[] };

async function documentPages(client: Client, spaceId: string): Promise<TreePage[]> {
  const { pages } = JSON.parse(await call(client, 'list_pages', { spaceId })) as { pages: TreePage[] };
  const all = (list: TreePage[]): TreePage[] => list.flatMap((page) => [page, ...all(page.pages ?? [])]);
  return all(pages).filter((page) => page.type === 'document');
}

/** The GitBook tags of each page's stored body (REST `markdown`), in order. */
async function storedTags(user: TestUser, spaceId: string, pages: TreePage[]): Promise<string[][]> {
  return Promise.all(
    pages.map(async (page) => {
      const { data } = await user.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId, pageId: page.id } } });
      return (data as { markdown?: string }).markdown?.match(/\{%[^%]*%\}/g) ?? [];
    }),
  );
}

/**
 * Each document page of the space read, written back unchanged in one change request, merged, read
 * again; the stored bodies keep GitBook's tags (the agent form is turned back, not stored as is).
 */
async function roundTrip(client: Client, user: TestUser, spaceId: string): Promise<{ before: string[]; after: string[]; inChangeRequest: string[] }> {
  const pages = await documentPages(client, spaceId);
  const tagsBefore = await storedTags(user, spaceId, pages);
  const before = await Promise.all(pages.map((page) => call(client, 'read_page', { spaceId, pageId: page.id })));
  const changeRequestId = String(JSON.parse(await call(client, 'open_change_request', { spaceId, subject: 'Round trip' })).number);
  for (const [index, page] of pages.entries()) await call(client, 'update_page', { spaceId, changeRequestId, page: page.id, document: before[index] });
  const inChangeRequest = await Promise.all(pages.map((page) => call(client, 'read_page', { spaceId, changeRequestId, pageId: page.id })));
  await call(client, 'merge_change_request', { spaceId, changeRequestId });
  const after = await Promise.all(pages.map((page) => call(client, 'read_page', { spaceId, pageId: page.id })));
  expect(await storedTags(user, spaceId, pages)).toEqual(tagsBefore);
  return { before, after, inChangeRequest };
}

/** A GitBook export with every block its Markdown carries, links between pages and assets. */
const GITBOOK = [
  { name: 'docs/README.md', data: '---\ndescription: Where to start\n---\n\n# Welcome\n\nStart with [the install](getting-started/install.md#linux).\n\n{% content-ref url="getting-started/install.md" %}\n[install.md](getting-started/install.md)\n{% endcontent-ref %}\n' },
  { name: 'docs/SUMMARY.md', data: '# Table of contents\n\n* [Welcome](README.md)\n* [Getting started](getting-started/)\n  * [Install](getting-started/install.md)\n  * [Tabs](getting-started/tabs.md)\n' },
  { name: 'docs/getting-started/README.md', data: '# Getting started\n\nSee [install](install.md).\n\n<details>\n\n<summary>Why so few steps?</summary>\n\nBecause **pnpm** does the rest.\n\n</details>\n' },
  {
    name: 'docs/getting-started/install.md',
    data:
      '# Install\n\n<figure><img src="../.gitbook/assets/diagram.png" alt=""><figcaption><p>The pieces</p></figcaption></figure>\n\n' +
      '{% hint style="info" %}\nKept as written.\n{% endhint %}\n\n{% hint style="success" %}\nDone in a minute.\n{% endhint %}\n\n' +
      '{% hint style="warning" %}\n**Careful:** the database must be empty.\n\n```sh\ndropdb content\n```\n{% endhint %}\n\n{% hint style="danger" %}\nNever in production.\n{% endhint %}\n\n' +
      '{% code title="install.sh" lineNumbers="true" %}\n```bash\npnpm install --frozen-lockfile\n```\n{% endcode %}\n\n' +
      '{% embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" %}\n\n> A plain quote stays a quote.\n\n| OS | Command |\n| -- | ------- |\n| Linux | apt |\n\n- [x] done\n- [ ] to do\n',
  },
  {
    name: 'docs/getting-started/tabs.md',
    data:
      '# Tabs\n\n{% tabs %}\n{% tab title="Linux" %}\n```sh\napt install node\n```\n{% endtab %}\n\n{% tab title="macOS" %}\nUse **brew**:\n\n{% hint style="info" %}\nOr the installer.\n{% endhint %}\n{% endtab %}\n{% endtabs %}\n\nAfter the tabs.\n',
  },
  { name: 'docs/.gitbook/assets/diagram.png', data: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'), store: true },
];

// Tens of calls, each two requests (MCP, then the operation): slow when every file runs at once.
describe('agent Markdown round trip through the API MCP server', { timeout: 300_000 }, () => {
  it('changes nothing on any page of the sample site, through the API and on the published `.md`', async () => {
    const t = server();
    const site = await sampleSite(t);
    const api = await connectApi(t, site.admin.token);
    // The beta section shows to visitors with its claim: an agent gives it per request.
    const published = await connect(t, `/s/${site.siteId}/~mcp?visitor.beta=true`);
    const spaces = await Promise.all(site.spaceIds.map(async (spaceId) => ({ spaceId, pages: await documentPages(api, spaceId) })));
    expect(spaces.flatMap(({ pages }) => pages.map((page) => page.title))).toEqual(['Introduction', 'Install', 'From source', 'FAQ', 'Internal notes', 'Endpoints', 'Endpoints', 'Beta features']);
    const siteBefore = await Promise.all(spaces.map(({ pages }) => siteMarkdown(published, pages)));
    for (const [index, { spaceId, pages }] of spaces.entries()) {
      const { before, after, inChangeRequest } = await roundTrip(api, site.admin, spaceId);
      expect(inChangeRequest).toEqual(before);
      expect(after).toEqual(before);
      expect(await siteMarkdown(published, pages), `the site's .md of ${spaceId}`).toEqual(siteBefore[index]);
    }
    // What the sample holds in its agent form (links to `.md` addresses, tabs, the hint, the image's address).
    const intro = siteBefore[0]![0]!;
    const base = `${t.config.publicUrl}/s/${site.siteId}`;
    expect(intro).toContain(`See [the FAQ](${base}/faq.md) and [Install](${base}/install.md#linux).`);
    expect(intro).toContain('<!-- tabs -->\n#### npm\n```sh\nnpm install tool\n```\n#### pnpm\n```sh\npnpm add tool\n```\n<!-- /tabs -->');
    expect(intro).toContain('> [!NOTE]\n> The tool needs Node.js 20.');
    expect(intro).toMatch(/!\[A chart\]\(http:\/\/[^)]+\)$/m);
  });

  it('changes nothing on any page of an imported GitBook export, its blocks in their agent form', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { title: 'Imported' });
    const imported = await importZip(admin, space.id);
    expect(imported).toBe(201);
    const site = await createSite(admin.client, organization.id, { title: 'Imported docs', spaces: [space.id] });
    await publish(admin.client, organization.id, site.id);
    const client = await connectApi(t, admin.token);
    const published = await connect(t, `/s/${site.id}/~mcp`);
    const siteBefore = await siteMarkdown(published, await documentPages(client, space.id));
    const { before, after, inChangeRequest } = await roundTrip(client, admin, space.id);
    expect(await siteMarkdown(published, await documentPages(client, space.id))).toEqual(siteBefore);
    expect(before).toHaveLength(4);
    expect((await storedTags(admin, space.id, await documentPages(client, space.id))).flat()).toHaveLength(21);
    const install = before.find((page) => page.startsWith('# Install'))!;
    expect(install).toContain('> [!NOTE]\n> Kept as written.\n\n> [!TIP]\n> Done in a minute.\n\n> [!WARNING]\n> **Careful:** the database must be empty.\n>\n> ```sh\n> dropdb content\n> ```\n\n> [!CAUTION]\n> Never in production.');
    expect(install).toContain('```bash title="install.sh" lineNumbers="true"\npnpm install --frozen-lockfile\n```');
    expect(install).toContain('<!-- embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" -->');
    expect(before.find((page) => page.startsWith('# Tabs'))).toContain('<!-- tabs -->\n#### Linux\n```sh\napt install node\n```\n\n#### macOS\nUse **brew**:\n\n> [!NOTE]\n> Or the installer.\n\n<!-- /tabs -->');
    // The import rewrites the link inside a content reference but not its `url` (areas/import), kept as imported.
    expect(before.find((page) => page.startsWith('# Welcome'))).toMatch(/^# Welcome\n\n> Where to start\n\nStart with \[the install\]\(\/pages\/\w+#linux\)\.\n\n<!-- content-ref url="getting-started\/install\.md" -->\n\[install\.md\]\(\/pages\/\w+\)\n<!-- \/content-ref -->\n$/);
    expect(inChangeRequest).toEqual(before);
    expect(after).toEqual(before);
  });
});

async function importZip(admin: TestUser, spaceId: string): Promise<number> {
  const { response } = await admin.client.POST('/v1/spaces/{spaceId}/content/import', { params: { path: { spaceId } }, body: { source: 'zip', base64: zip(GITBOOK).toString('base64') } });
  return response.status;
}
