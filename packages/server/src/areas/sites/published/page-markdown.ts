// A site's page as Markdown for agents (issue 31): the agent form of the page (content/agent-markdown.ts:
// `# title`, the description as a quote, the body with GitBook's blocks in their closest Markdown), from
// the same document the HTML page shows, with its links resolved as the HTML resolves them
// (page-links.ts) but leading to the pages' `.md` addresses, absolute, so the text stands on its own
// (in `llms-full.txt`, in an assistant's context).
//
// Finding a body's links is a CommonMark parse: a body past INLINE_BODY_CHARACTERS is read in the parse
// pool (its deadline and heap bound an adversarial one); below it, the parse takes well under a
// millisecond on the event loop and a round trip to a worker would cost more than it saves.
import { agentPageFromBody, readAgentBody, type AgentBody } from '../../../content/agent-markdown.js';
import { loadDocuments } from '../../../content/content-objects.repository.js';
import type { AppContext } from '../../../context.js';
import type { PublishedStructure } from '../published-structure.js';
import { pageLinks } from './page-links.js';
import type { SitePage } from './site-page.js';
import { siteOrigin, type SiteVisit } from './site-visit.js';

/** The Markdown form's version in cache keys (site-page.ts `viewKey`): bumped when its rendering changes. */
export const MARKDOWN_FORM_VERSION = 'md-1';

/** Bodies up to this many characters are read on the event loop (a few hundred microseconds at most). */
const INLINE_BODY_CHARACTERS = 8_192;
/** A stored body passed the content gate's parse deadline; reading it again gets as long. */
const READ_DEADLINE_MS = 10_000;

async function readBody(app: Pick<AppContext, 'parsing'>, markdown: string, signal?: AbortSignal): Promise<AgentBody> {
  if (markdown.length <= INLINE_BODY_CHARACTERS) return readAgentBody(markdown);
  return app.parsing.run('agent-markdown', { markdown }, { deadlineMs: READ_DEADLINE_MS, ...(signal ? { signal } : {}) });
}

/**
 * `found`'s page as Markdown for `visit`'s visitor. `body`: its stored Markdown when the caller loaded it
 * already (with others': llms-full.txt), else it is loaded here.
 */
export async function renderPageMarkdown(visit: SiteVisit, structure: PublishedStructure, found: SitePage, options: { body?: string; signal?: AbortSignal } = {}): Promise<string> {
  const { app, site, root } = visit;
  const { located, model, page } = found;
  const markdown = options.body ?? (page.documentHash ? ((await loadDocuments(app.db, app.caches, site.organizationId, [page.documentHash])).get(page.documentHash) ?? '') : '');
  const links = await pageLinks({ app, site, root, structure, heads: visit.state.heads, located, model, page, markdown, pageSuffix: '.md' });
  const read = await readBody(app, markdown, options.signal);
  // Addresses on the site are root-relative (`{root}/…`): made absolute on the origin the visitor came by.
  const origin = siteOrigin(visit);
  const absolute = (href: string) => (href.startsWith('/') && !href.startsWith('//') ? `${origin}${href}` : href);
  return agentPageFromBody({ title: page.title, description: page.layout?.description === false ? null : page.description }, read, (url, kind) => {
    if (kind === 'image') {
      const image = links.image(url);
      return 'src' in image ? absolute(image.src) : undefined;
    }
    const link = links.link(url);
    return 'href' in link && !link.external ? absolute(link.href) : undefined;
  });
}
