// A published site's own MCP server (issue 31), at `{site}/~mcp` (endpoints/mcp.ts): read-only tools
// over what the connecting visitor may read — the structure they see (audience, adaptive conditions),
// the site's search, and each page's Markdown exactly as its `.md` address answers it (the same lookup,
// the same cache). Built per request from the visit: the server holds nothing between requests.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListResourcesRequestSchema, ReadResourceRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MARKDOWN_FORM_VERSION, renderPageMarkdown } from './page-markdown.js';
import { listedPages, listedSpaces, markdownHref, sitePageOf, type ListedSpace } from './site-agent-pages.js';
import { customizationOf } from './site-chrome.js';
import { findPage, viewKey, type SitePage } from './site-page.js';
import { MAX_QUERY_LENGTH, readSearchQuery, searchSite } from './site-search.js';
import { ID, siteOrigin, type SiteVisit } from './site-visit.js';
import type { VisibleStructure } from './site-state.js';

/** Resources listed per `resources/list` page. */
const RESOURCES_PER_PAGE = 500;
/** Entries listPages returns at most (a larger site is browsed a section at a time). */
const MAX_LISTED = 5_000;
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const refusal = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

type Context = { visit: SiteVisit; visible: VisibleStructure; origin: string; spaces: () => Promise<ListedSpace[]> };

/** The segments below the site's root that an address of a page names: absolute, root-relative or relative, with or without `.md`. */
function segmentsOf(c: Context, address: string): string[] | undefined {
  let path: string;
  try {
    path = new URL(address, `${c.origin}${c.visit.root}/`).pathname;
  } catch {
    return undefined;
  }
  const root = c.visit.root;
  if (root && path !== root && !path.startsWith(`${root}/`)) return undefined;
  const parts = path.slice(root.length).split('/').filter((part) => part !== '');
  try {
    const segments = parts.map((part) => decodeURIComponent(part));
    const last = segments.at(-1);
    if (last?.endsWith('.md')) segments[segments.length - 1] = last.slice(0, -3);
    return segments;
  } catch {
    return undefined;
  }
}

/** A page read through the server (getPage, a resource read): counted in the site's insights as `mcp`, then its `.md` text. */
async function pageMarkdown(c: Context, found: SitePage): Promise<string> {
  const { app, site } = c.visit;
  app.insights.recordView({ organizationId: site.organizationId, siteId: site.id, spaceId: found.located.siteSpace.spaceId, pageId: found.page.id, kind: 'mcp' });
  const key = viewKey(c.visit, c.visible, MARKDOWN_FORM_VERSION, found);
  let markdown = app.caches.sitePages.get(key);
  if (markdown === undefined) {
    markdown = await renderPageMarkdown(c.visit, c.visible.structure, found);
    app.caches.sitePages.set(key, markdown);
  }
  return markdown;
}

/** The page an address names for this visitor (moves followed, a group's address to its first page). */
async function pageAt(c: Context, address: string): Promise<SitePage | undefined> {
  let segments = segmentsOf(c, address);
  for (let hops = 0; segments && hops < 3; hops++) {
    const lookup = await findPage(c.visit, c.visible, segments);
    if (lookup.kind === 'page') return lookup.found;
    if (lookup.kind !== 'moved' && lookup.kind !== 'group') return undefined;
    segments = segmentsOf(c, lookup.location);
  }
  return undefined;
}

/** The page with this id in a site space the visitor sees. */
async function pageById(c: Context, id: string): Promise<SitePage | undefined> {
  if (!ID.test(id)) return undefined;
  for (const space of await c.spaces()) {
    const page = space.model.tree.pages.get(id);
    if (page?.type === 'document' && space.model.pathById.has(id)) return sitePageOf(space, page);
  }
  return undefined;
}

type TreeEntry = { title: string; url?: string; description?: string; children?: TreeEntry[] };

function navigationOf(c: Context, spaces: readonly ListedSpace[]) {
  let budget = MAX_LISTED;
  const treeOf = (space: ListedSpace, parent: string | null): TreeEntry[] => {
    const entries: TreeEntry[] = [];
    for (const id of space.model.navChildren.get(parent) ?? []) {
      if (budget <= 0) break;
      const page = space.model.tree.pages.get(id)!;
      if (page.noIndex || page.noRobotsIndex) continue;
      budget--;
      const children = treeOf(space, id);
      entries.push({
        title: page.title,
        ...(page.type === 'document' ? { url: markdownHref(c.origin, c.visit.root, space, id) } : {}),
        ...(page.description ? { description: page.description } : {}),
        ...(children.length > 0 ? { children } : {}),
      });
    }
    return entries;
  };
  const sections = spaces.map((space) => ({ section: space.heading, pages: treeOf(space, null) }));
  return { sections, ...(budget <= 0 ? { truncated: `Only the first ${MAX_LISTED} entries are listed: use searchDocumentation to find the others.` } : {}) };
}

export async function createSiteMcpServer(visit: SiteVisit): Promise<McpServer> {
  const visible = await visit.visible();
  const origin = siteOrigin(visit);
  let spaces: Promise<ListedSpace[]> | undefined;
  const c: Context = { visit, visible, origin, spaces: () => (spaces ??= listedSpaces(visit, visible.structure)) };
  const title = customizationOf(visit.site).title;
  const server = new McpServer(
    { name: `site-${visit.site.id}`, title, version: '1' },
    {
      capabilities: { resources: {} },
      instructions:
        `The documentation site "${title}" (${origin}${visit.root}/), read-only. Find pages with searchDocumentation, browse the ` +
        `navigation with listPages, and read a page as Markdown with getPage (its address, as listPages and search give it, or its id). ` +
        'Each page is also a resource, its URI the page\'s Markdown address.',
    },
  );

  server.registerTool(
    'searchDocumentation',
    {
      title: `Search ${title}`,
      description: `Search the pages of ${title}: the best matches first, each with its Markdown address (for getPage), title and a snippet.`,
      inputSchema: { query: z.string().min(1).max(MAX_QUERY_LENGTH).describe('Words to look for') },
      annotations: READ,
    },
    async ({ query }) => {
      const read = readSearchQuery(new URLSearchParams({ q: query }));
      if ('problem' in read) return refusal(read.problem);
      const found = await searchSite(visit.app, visit.site.organizationId, visit.root, visible.structure, visit.state.heads, read);
      const results = found.hits.map((hit) => {
        const [path, anchor] = hit.href.split('#');
        return { title: hit.title, url: `${origin}${path}.md${anchor ? `#${anchor}` : ''}`, snippet: hit.snippet, ...(hit.where ? { where: hit.where } : {}) };
      });
      // `totalIsLowerBound`: the search's bound was reached, at least `total` pages match.
      return text(JSON.stringify({ total: found.total, totalIsLowerBound: found.totalIsLowerBound, results }, null, 1));
    },
  );

  server.registerTool(
    'getPage',
    {
      title: 'Read a page',
      description: `A page of ${title} as Markdown (\`# Title\`, the description as a quote, the body; links lead to other pages' Markdown addresses).`,
      inputSchema: {
        address: z.string().max(2048).optional().describe("The page's address (its Markdown or HTML URL, or its path on the site)"),
        id: z.string().max(64).optional().describe("The page's id"),
      },
      annotations: READ,
    },
    async ({ address, id }) => {
      if ((address === undefined) === (id === undefined)) return refusal('Give either `address` or `id`.');
      const found = address !== undefined ? await pageAt(c, address) : await pageById(c, id!);
      if (!found) return refusal(`No page of ${title} at ${address ?? `id ${id}`}.`);
      return text(await pageMarkdown(c, found));
    },
  );

  server.registerTool(
    'listPages',
    {
      title: 'List the pages',
      description: `The navigation of ${title}: each section with its tree of pages (title, Markdown address, description).`,
      inputSchema: {},
      annotations: READ,
    },
    async () => text(JSON.stringify(navigationOf(c, await c.spaces()), null, 1)),
  );

  server.server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const all = (await c.spaces()).flatMap((space) => listedPages(space).map((page) => ({ space, page })));
    const start = /^[0-9]{1,7}$/.test(request.params?.cursor ?? '') ? Number(request.params!.cursor) : 0;
    const slice = all.slice(start, start + RESOURCES_PER_PAGE);
    return {
      resources: slice.map(({ space, page }) => ({ uri: markdownHref(origin, visit.root, space, page.id), name: page.title, ...(page.description ? { description: page.description } : {}), mimeType: 'text/markdown' })),
      ...(start + RESOURCES_PER_PAGE < all.length ? { nextCursor: String(start + RESOURCES_PER_PAGE) } : {}),
    };
  });
  server.server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const found = uri.startsWith(`${origin}${visit.root}/`) ? await pageAt(c, uri) : undefined;
    if (!found) throw new Error(`No page at ${uri}`);
    return { contents: [{ uri, mimeType: 'text/markdown', text: await pageMarkdown(c, found) }] };
  });
  return server;
}
