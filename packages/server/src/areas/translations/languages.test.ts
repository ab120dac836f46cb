import { describe, expect, it } from 'vitest';
import { HttpError } from '../../errors.js';
import { normalizeLanguages } from './languages.js';

function issueOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return { status: (error as HttpError).status, issues: (error as HttpError).issues };
  }
  throw new Error('expected a 400');
}

describe('normalizeLanguages', () => {
  it('keeps the order and gives each tag its canonical spelling', () => {
    expect(normalizeLanguages(['fr', 'en-us', 'ZH-hant-tw', 'es-419', 'art-lojban'], '/body/languages')).toEqual(['fr', 'en-US', 'zh-Hant-TW', 'es-419', 'jbo']);
    expect(normalizeLanguages([], '/body/languages')).toEqual([]);
  });

  it('refuses a tag that is not well formed, naming it', () => {
    expect(issueOf(() => normalizeLanguages(['fr', 'x-private'], '/body/languages'))).toEqual({
      status: 400,
      issues: [{ path: '/body/languages/1', message: '"x-private" is not a well-formed BCP 47 language tag' }],
    });
    expect(issueOf(() => normalizeLanguages(['abcdefghi'], '/body/languages')).issues?.[0]?.path).toBe('/body/languages/0');
  });

  it('refuses two tags that are the same once canonical', () => {
    expect(issueOf(() => normalizeLanguages(['en-US', 'de', 'en-us'], '/body/languages'))).toEqual({
      status: 400,
      issues: [{ path: '/body/languages/2', message: '"en-us" repeats /body/languages/0 (both are en-US)' }],
    });
  });
});
