import { describe, expect, it } from 'vitest';
import { markTerms, queryWords, readableSnippet } from './search-text.js';

describe('readableSnippet', () => {
  it('reads code escapes as what they stand for and drops the punctuation of data', () => {
    expect(readableSnippet('Send {"name": "tool", "tags": ["a", "b"], "note": "line one\\nline two"} to the API.')).toBe('Send name tool tags a b note line one line two to the API.');
    expect(readableSnippet('Caf\\u00e9 \\"quoted\\" path C:\\\\tmp')).toBe('Café "quoted" path C:\\tmp');
  });
  it('keeps prose as it is, whitespace runs made one', () => {
    expect(readableSnippet('Hello,  world.\nIt is "fine": really, it is.')).toBe('Hello, world. It is "fine": really, it is.');
  });
});

describe('queryWords and markTerms', () => {
  it('leaves excluded words and operators out', () => {
    expect(queryWords('Install -linux "from source" or macOS')).toEqual(['install', 'from', 'source', 'macos']);
    expect(queryWords('built-in')).toEqual(['built', 'in']);
  });
  it('marks the words of the text that begin with a query word, accents folded', () => {
    const text = 'Installing the tool: installation on Linux, then a café.';
    const marks = markTerms(text, queryWords('install cafe'));
    expect(marks.map(([start, end]) => text.slice(start, end))).toEqual(['Installing', 'installation', 'café']);
    expect(markTerms('nothing here', ['absent'])).toEqual([]);
  });
  it('marks CJK words wherever they occur', () => {
    const text = '如何安装工具';
    expect(markTerms(text, queryWords('安装')).map(([start, end]) => text.slice(start, end))).toEqual(['安装']);
  });
});
