// "Was this page helpful?" under each page: a plain form that posts to the site's `_feedback`
// address (endpoints/feedback.ts) and works without JavaScript; the site's script sends it in the
// background instead and shows the thanks in place. The page's cached HTML is the same for every
// visitor, so the form carries nothing of the visitor — only which page and revision it is about.
import type { Element } from 'hast';
import { h } from 'hastscript';
import type { Words } from './site-words.js';

/** What the form is about, and where it posts. */
export type FeedbackTarget = { action: string; space: string; page: string; revision: string };

export const FEEDBACK_COMMENT_MAX = 1000;

export const RATINGS = [
  { value: 'bad', icon: '👎' },
  { value: 'ok', icon: '😐' },
  { value: 'good', icon: '👍' },
] as const;

/** The form in the site's words; what the site's script says after sending travels in `data-*`. */
export function feedbackForm(target: FeedbackTarget, words: Words['feedback']): Element {
  return h('form.page-feedback', { method: 'post', action: target.action, dataFeedback: '', dataThanks: words.thanks, dataFailed: words.failed, dataRetry: words.retry }, [
    h('fieldset', [
      h('legend', words.question),
      h('input', { type: 'hidden', name: 'space', value: target.space }),
      h('input', { type: 'hidden', name: 'page', value: target.page }),
      h('input', { type: 'hidden', name: 'revision', value: target.revision }),
      h('label', { for: 'feedback-comment' }, words.comment),
      h('textarea#feedback-comment', { name: 'comment', maxLength: FEEDBACK_COMMENT_MAX, rows: 2 }),
      h(
        'div.feedback-ratings',
        RATINGS.map((rating) => h('button', { type: 'submit', name: 'rating', value: rating.value }, [h('span', { ariaHidden: 'true' }, `${rating.icon} `), words[rating.value]])),
      ),
      h('p.feedback-status', { role: 'status' }),
    ]),
  ]);
}
