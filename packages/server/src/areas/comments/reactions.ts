// Reactions: which strings are emojis, and the limits (docs/decisions.md, "Comments").
import { parseCommentBody } from '../../content/markdown-check.js';
import { invalidField } from '../../errors.js';
import type { ParsePool } from '../../parsing/parse-pool.js';

/** Different emojis one comment or reply may hold. */
export const MAX_DISTINCT_EMOJIS = 20;
/** Users listed per emoji (`count` has them all). */
export const USERS_PER_EMOJI = 10;

// One RGI emoji sequence (Unicode's recommended set: keycaps, flags, modifiers, ZWJ sequences…). A
// RegExp object: the `v` flag needs an ES2024 target in a literal.
const RGI_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');

/** The emoji `value` is (a lone code point that needs U+FE0F, such as ❤, in its emoji form), or undefined. */
export function normaliseEmoji(value: string): string | undefined {
  if (RGI_EMOJI.test(value)) return value;
  if ([...value].length === 1 && RGI_EMOJI.test(`${value}\uFE0F`)) return `${value}\uFE0F`;
  return undefined;
}

/** The caller's reaction changes, checked; an emoji in both lists is removed (as team members are). */
export function reactionChanges(body: { addedReactions?: string[]; removedReactions?: string[] }): { add: string[]; remove: string[] } {
  const checked = (values: string[] | undefined, field: string) =>
    (values ?? []).map((value, i) => {
      const emoji = normaliseEmoji(value);
      if (!emoji) throw invalidField(`/body/${field}/${i}`, 'must be a single emoji');
      return emoji;
    });
  const remove = [...new Set(checked(body.removedReactions, 'removedReactions'))];
  const add = [...new Set(checked(body.addedReactions, 'addedReactions'))].filter((emoji) => !remove.includes(emoji));
  return { add, remove };
}

/** A body as stored: its markdown (refused with NUL characters, which PostgreSQL text cannot hold) and its tree as JSON text. */
export type CheckedBody = { markdown: string; document: string };

/** A body through the markdown gate (400 naming `path` when refused), with the tree it read. */
export async function checkedMarkdown(pool: ParsePool, markdown: string, path: string): Promise<CheckedBody> {
  if (markdown.includes('\u0000')) throw invalidField(path, 'must not contain NUL characters');
  return { markdown, document: await parseCommentBody(pool, { path, markdown }) };
}
