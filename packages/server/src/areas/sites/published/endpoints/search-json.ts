// `_search?q=&scope=`: the site's search as JSON, for the search dialog (site-assets.ts, "search
// dialog"): the same search as the results page (site-search.ts), over what this visitor may read,
// optionally kept to one site space or section (`scope`, an id the visible structure shows; the dialog
// sends the current variant's, and widens by leaving it out). A few results, with readable snippets
// and the ranges of the visitor's words in them (search-text.ts), each linking to its page or section.
import type { Response } from 'express';
import type { SearchBound } from '../../../../content/search/search.js';
import { markTerms, queryWords } from '../search-text.js';
import { customizationOf } from '../site-chrome.js';
import { readSearchQuery, scopeOf, searchSite } from '../site-search.js';
import { wordsFor } from '../site-words.js';
import { ID, type SiteEndpoint, type SiteVisit } from '../site-visit.js';

/** Results the dialog shows; the results page has the rest. */
export const DIALOG_RESULTS = 8;

/**
 * What the dialog's search reads (the results page reads 2,000 sections and 5,000 titles, and returns
 * five sections a page): the cost of a common prefix is the rows read to find the matches, and the
 * dialog shows each page's best section only; the cost of words rare together, or of a word in few
 * titles, is the rows read before enough match, so it reads 2,000 titles and (for two words or more)
 * 3,000 sections at most, and asks the index when fewer than a dialog's worth matched there
 * (docs/decisions.md, "The search dialog reads a bounded number of matches", "… and of rows"). The
 * answer's `total` is then a lower bound.
 */
export const DIALOG_BOUND: SearchBound = { sections: 200, titles: 200, sectionsPerPage: 1, read: { sections: 3_000, titles: 2_000, enough: DIALOG_RESULTS }, titlesSuffice: DIALOG_RESULTS };

export type SearchAnswer = {
  query: string;
  scope: { id: string; label: string } | null;
  /** Matching pages: all of them, or at least this many when `totalIsLowerBound` (the results page counts further). */
  total: number;
  totalIsLowerBound: boolean;
  /** The results page of the same query (all results, pages of them). */
  more: string;
  results: Array<{ title: string; titleMarks: Array<[number, number]>; href: string; where?: string; snippet: string; snippetMarks: Array<[number, number]> }>;
};

function sendProblem(res: Response, headers: Record<string, string>, message: string) {
  res.status(400).set(headers).json({ error: { code: 'invalid_search', message } });
}

async function serveSearchJson(visit: SiteVisit, res: Response): Promise<void> {
  const { app, site, root, url } = visit;
  const headers = { 'Cache-Control': visit.restricted ? 'private, no-store' : 'no-cache', 'X-Robots-Tag': 'noindex' };
  // Its message is shown in the dialog: in the site's words.
  const query = readSearchQuery(url.searchParams, wordsFor(customizationOf(site).internationalization.locale));
  if ('problem' in query) return sendProblem(res, headers, query.problem);
  if (query.page !== 1) return sendProblem(res, headers, 'The dialog search has one page of results: the results page has the others.');
  const { structure } = await visit.visible();
  const scopeId = url.searchParams.get('scope');
  const scope = scopeId ? (ID.test(scopeId) ? scopeOf(structure, scopeId) : undefined) : undefined;
  // An id the visitor cannot see reads exactly as one that does not exist.
  if (scopeId && !scope) return sendProblem(res, headers, 'The search scope is not a section or variant of this site.');
  const found = await searchSite(app, site.organizationId, root, structure, visit.state.heads, query, { scope, limit: DIALOG_RESULTS, bound: DIALOG_BOUND });
  const words = queryWords(query.text);
  const answer: SearchAnswer = {
    query: query.text,
    scope: scope ? { id: scope.id, label: scope.label } : null,
    total: found.total,
    totalIsLowerBound: found.totalIsLowerBound,
    more: `${root}/search?${new URLSearchParams({ q: query.text }).toString()}`,
    results: found.hits.map((hit) => ({
      title: hit.title,
      titleMarks: markTerms(hit.title, words),
      href: hit.href,
      ...(hit.where ? { where: hit.where } : {}),
      snippet: hit.snippet,
      snippetMarks: markTerms(hit.snippet, words),
    })),
  };
  res.status(200).set(headers).json(answer);
}

export const searchJsonEndpoint: SiteEndpoint = {
  name: 'search-json',
  audience: 'visitor',
  matches: ({ segments }) => segments.length === 1 && segments[0] === '_search',
  serve: serveSearchJson,
};
