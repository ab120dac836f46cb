import { describe, expect, it } from 'vitest';
import { hasPositiveTerm, parseQuery } from './query-parser.js';
import { pageSections } from './sections.js';
import { lexemesOf, snippet } from './snippet.js';
import { cjkBigrams, fallbackPhrase, fallbackText, identifierParts } from './text-analysis.js';

describe('parseQuery', () => {
  it('reads words, phrases, exclusions and or as websearch_to_tsquery does', () => {
    expect(parseQuery('install "fresh machine" -docker or podman')).toEqual({
      clauses: [
        [{ text: 'install', phrase: false, negated: false, prefix: false }],
        [{ text: 'fresh machine', phrase: true, negated: false, prefix: false }],
        [
          { text: 'docker', phrase: false, negated: true, prefix: false },
          { text: 'podman', phrase: false, negated: false, prefix: true },
        ],
      ],
    });
  });

  it('makes only a last word typed to the end a prefix', () => {
    expect(parseQuery('instal').clauses[0]![0]!.prefix).toBe(true);
    expect(parseQuery('instal ').clauses[0]![0]!.prefix).toBe(false);
    expect(parseQuery('"instal').clauses[0]![0]).toEqual({ text: 'instal', phrase: true, negated: false, prefix: false });
  });

  it('keeps a leading or trailing "or" as a word, and finds nothing in exclusions alone', () => {
    expect(parseQuery('or gate').clauses).toHaveLength(2);
    expect(hasPositiveTerm(parseQuery('-docker -podman'))).toBe(false);
    expect(hasPositiveTerm(parseQuery('-docker podman'))).toBe(true);
    expect(hasPositiveTerm(parseQuery('-docker or podman'))).toBe(true);
  });

  it('ignores control characters and bounds the number of terms', () => {
    expect(parseQuery('a\u0000b').clauses.map((c) => c[0]!.text)).toEqual(['a', 'b']);
    expect(parseQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ')).clauses).toHaveLength(32);
  });
});

describe('text analysis', () => {
  it('splits identifiers into their parts', () => {
    expect(identifierParts('getSpaceById')).toEqual(['get', 'space', 'by', 'id']);
    expect(identifierParts('HTTPServer2')).toEqual(['http', 'server2']);
    expect(identifierParts('zorblax1q1')).toBeUndefined();
    expect(identifierParts('config.yaml')).toEqual(['config', 'yaml']);
    expect(identifierParts('plain')).toBeUndefined();
  });

  it('makes CJK runs bigrams, on both sides', () => {
    expect(cjkBigrams('全文検索')).toEqual(['全文', '文検', '検索']);
    expect(fallbackText('Use 全文検索 with getSpaceById')).toBe('get space by id\n全文 文検 検索');
    expect(fallbackPhrase('検索')).toBe('検索');
    expect(fallbackPhrase('SpaceById')).toBe('space by id');
    expect(fallbackPhrase('space')).toBeUndefined();
  });
});

describe('pageSections', () => {
  it('opens a section at each top-level h1–h3, with GitHub anchors; fenced # is not a heading', () => {
    const markdown = '# Intro?\n\nBefore.\n\n## Usage\n\nRun it.\n\n```\n# not a heading\n```\n\n#### Deep\n\nStill usage.\n\n## Usage\n\nAgain.';
    expect(pageSections({ id: 'p1', title: 'Guide' }, `Lead text.\n\n${markdown}`)).toEqual([
      { ordinal: 0, id: 'p1', title: 'Guide', body: 'Lead text.' },
      { ordinal: 1, id: 'intro', title: 'Intro?', body: 'Before.' },
      { ordinal: 2, id: 'usage', title: 'Usage', body: 'Run it.\n# not a heading\nDeep\nStill usage.' },
      { ordinal: 3, id: 'usage-1', title: 'Usage', body: 'Again.' },
    ]);
  });

  it('keeps words apart across blocks and list items, and code and alt texts in', () => {
    const [first] = pageSections({ id: 'p', title: 'T' }, '- one\n- two\n\n![diagram alt](x.png) `getSpaceById`');
    expect(first!.body).toBe('one\ntwo\ndiagram alt getSpaceById');
  });
});

describe('snippet', () => {
  it('shows the text around the first match of a stem or a prefix', () => {
    const body = `${'filler '.repeat(80)}the connections are restored ${'tail '.repeat(80)}`;
    const text = snippet(body, lexemesOf("'connect' & 'restor':*"));
    expect(text.startsWith('…')).toBe(true);
    expect(text).toContain('the connections are restored');
    expect(text.length).toBeLessThanOrEqual(302);
  });

  it('answers short bodies whole and finds CJK bigrams anywhere', () => {
    expect(snippet('Short  text', [])).toBe('Short text');
    const body = `${'前'.repeat(400)}全文検索${'後'.repeat(400)}`;
    expect(snippet(body, lexemesOf("'検索'"))).toContain('全文検索');
  });
});
