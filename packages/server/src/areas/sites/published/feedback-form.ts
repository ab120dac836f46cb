// "Was this page helpful?" under each page: a plain form that posts to the site's `_feedback`
// address (endpoints/feedback.ts) and works without JavaScript; the site's script sends it in the
// background instead and shows the thanks in place. The page's cached HTML is the same for every
// visitor, so the form carries nothing of the visitor — only which page and revision it is about.
import type { Element } from 'hast';
import { h } from 'hastscript';

/** What the form is about, and where it posts. */
export type FeedbackTarget = { action: string; space: string; page: string; revision: string };

export const FEEDBACK_COMMENT_MAX = 1000;

export const RATINGS = [
  { value: 'bad', label: 'No', icon: '👎' },
  { value: 'ok', label: 'Somewhat', icon: '😐' },
  { value: 'good', label: 'Yes', icon: '👍' },
] as const;

export function feedbackForm(target: FeedbackTarget): Element {
  return h('form.page-feedback', { method: 'post', action: target.action, dataFeedback: '' }, [
    h('fieldset', [
      h('legend', 'Was this page helpful?'),
      h('input', { type: 'hidden', name: 'space', value: target.space }),
      h('input', { type: 'hidden', name: 'page', value: target.page }),
      h('input', { type: 'hidden', name: 'revision', value: target.revision }),
      h('label', { for: 'feedback-comment' }, 'Comment (optional)'),
      h('textarea#feedback-comment', { name: 'comment', maxLength: FEEDBACK_COMMENT_MAX, rows: 2 }),
      h(
        'div.feedback-ratings',
        RATINGS.map((rating) => h('button', { type: 'submit', name: 'rating', value: rating.value }, [h('span', { ariaHidden: 'true' }, `${rating.icon} `), rating.label])),
      ),
      h('p.feedback-status', { role: 'status' }),
    ]),
  ]);
}
