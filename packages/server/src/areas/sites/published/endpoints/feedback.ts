// `POST _feedback`: a reader's answer to "Was this page helpful?" (feedback-form.ts), stored per
// site, page and revision with nothing of the reader (feedback.repository.ts). Answered with a page
// (the form without JavaScript) or, to the site's script (`Accept: application/json`), with JSON.
//
// - Cross-site requests are refused (403) before anything is read: a browser says where a POST comes
//   from (`Sec-Fetch-Site`, else `Origin`), and only the site's own pages may send one — another site
//   cannot make its visitors' browsers post feedback (nor, on a visitor-auth site, post with their
//   session: its cookie is SameSite=Lax anyway). A client that is no browser sends neither and has no
//   visitor to abuse.
// - Each answer is charged to the client's address (`RATE_LIMIT_FEEDBACK_PER_HOUR`, shared by every
//   instance: http/rate-limit.ts) on top of the request's own charge; the address is kept nowhere else.
// - The body is a small form (4 KB, 10 fields); the page must be one the visitor can see on the site.
import express, { type Request, type Response } from 'express';
import { HttpError } from '../../../../errors.js';
import { insertFeedback, revisionOfSpace } from '../../feedback.repository.js';
import { FEEDBACK_COMMENT_MAX, RATINGS } from '../feedback-form.js';
import { customizationOf } from '../site-chrome.js';
import { renderMessage } from '../site-layout.js';
import { wordsFor } from '../site-words.js';
import { pageAddressInSite } from '../site-redirects.js';
import { sendHtml } from '../site-responses.js';
import { ID, siteChrome, type SiteEndpoint, type SiteVisit } from '../site-visit.js';

const parseForm = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 });
const RATING_VALUES = new Set<string>(RATINGS.map((rating) => rating.value));

/** Whether a browser says the request comes from another site (the rule of Go's CrossOriginProtection). */
function crossSite(req: Request): boolean {
  const fetchSite = req.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') return fetchSite !== 'same-origin' && fetchSite !== 'none';
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

function readForm(req: Request, res: Response): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => parseForm(req, res, (error?: unknown) => (error ? reject(error) : resolve((req.body ?? {}) as Record<string, unknown>))));
}

const field = (form: Record<string, unknown>, name: string) => (typeof form[name] === 'string' ? (form[name] as string) : undefined);

async function serveFeedback(visit: SiteVisit, res: Response): Promise<void> {
  const { app, req, site, root } = visit;
  const wantsJson = (req.headers.accept ?? '').includes('application/json');
  const headers = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };
  // The answer's words are the site's: the script shows a refusal's message under the form.
  const words = wordsFor(customizationOf(site).internationalization.locale).feedback;
  const answer = async (status: number, title: string, text: string, back?: string) => {
    if (wantsJson) {
      res.status(status).set(headers).json(status < 300 ? { ok: true } : { error: { code: status, message: text } });
      return;
    }
    const { structure } = await visit.visible();
    sendHtml(res, status, renderMessage(siteChrome(visit, structure), { title, text, link: { title: back ? words.back : words.toSite, href: back ?? `${root}/` } }), headers);
  };

  if (crossSite(req)) return answer(403, words.notSent, words.crossSite);
  try {
    await app.rateLimits.chargeFeedback(req, res);
  } catch (error) {
    if (error instanceof HttpError && error.status === 429) {
      res.set(error.headers ?? {});
      return answer(429, words.tooMuch, words.tooMuchText);
    }
    throw error;
  }
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return answer(415, words.notSent, words.notForm);
  let form: Record<string, unknown>;
  try {
    form = await readForm(req, res);
  } catch {
    return answer(400, words.notSent, words.unreadable);
  }
  const [spaceId, pageId, revisionId, rating] = ['space', 'page', 'revision', 'rating'].map((name) => field(form, name));
  const comment = (field(form, 'comment') ?? '').replace(/\r\n?/g, '\n').trim();
  if (!spaceId || !ID.test(spaceId) || !pageId || !ID.test(pageId) || !revisionId || !ID.test(revisionId)) return answer(400, words.notSent, words.noPage);
  if (!rating || !RATING_VALUES.has(rating)) return answer(400, words.notSent, words.noRating);
  if ([...comment].length > FEEDBACK_COMMENT_MAX) return answer(400, words.notSent, words.tooLong(FEEDBACK_COMMENT_MAX));

  const { structure } = await visit.visible();
  const address = await pageAddressInSite(app, site.organizationId, root, structure, visit.state.heads, spaceId, pageId);
  if (!address) return answer(404, words.notSent, words.unknownPage);
  // The revision the reader read: the head, or an earlier revision of the same space.
  const head = visit.state.heads.get(spaceId)!;
  const revision = revisionId === head.revisionId || (await revisionOfSpace(app.db, site.organizationId, spaceId, revisionId)) ? revisionId : head.revisionId;
  await insertFeedback(app.db, { organizationId: site.organizationId, siteId: site.id, spaceId, pageId, revisionId: revision, rating: rating as 'bad' | 'ok' | 'good', comment: comment || null });
  return answer(201, words.sent, words.sentText, address);
}

export const feedbackEndpoint: SiteEndpoint = {
  name: 'feedback',
  audience: 'visitor',
  methods: ['POST'],
  matches: ({ segments }) => segments.length === 1 && segments[0] === '_feedback',
  serve: serveFeedback,
};
