import { describe, expect, it } from 'vitest';
import { HttpError } from '../../errors.js';
import { normaliseEmoji, reactionChanges } from './reactions.js';

describe('normaliseEmoji', () => {
  it('takes single RGI emoji sequences', () => {
    for (const emoji of ['👍', '👍🏽', '🇫🇷', '👩‍💻', '👨‍👩‍👧‍👦', '❤️', '1️⃣', '🏴󠁧󠁢󠁳󠁣󠁴󠁿']) expect(normaliseEmoji(emoji)).toBe(emoji);
  });

  it('gives a lone code point that needs it its emoji form', () => {
    expect(normaliseEmoji('❤')).toBe('❤️');
    expect(normaliseEmoji('☺')).toBe('☺️');
  });

  it('refuses text, several emojis, and broken sequences', () => {
    for (const value of ['a', ':+1:', '👍👍', '👍 ', '1', '\u200d', '<script>', '\u0000']) expect(normaliseEmoji(value), value).toBeUndefined();
  });
});

describe('reactionChanges', () => {
  it('deduplicates, and removes an emoji named in both lists', () => {
    expect(reactionChanges({ addedReactions: ['👍', '👍', '🎉', '❤'], removedReactions: ['🎉'] })).toEqual({ add: ['👍', '❤️'], remove: ['🎉'] });
  });

  it('names the first value that is not an emoji', () => {
    try {
      reactionChanges({ addedReactions: ['👍', 'plus one'] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).issues).toEqual([{ path: '/body/addedReactions/1', message: 'must be a single emoji' }]);
    }
  });
});
