import { describe, expect, it } from 'vitest';
import { bodyContent, imageFileIds, parseBody } from './pdf-markdown.js';

const ctx = {
  imageOf: (id: string) => (id === 'shown' ? { name: 'file-shown', width: 1000, height: 100 } : undefined),
  hasPage: (id: string) => id === 'inside',
  width: 500,
};

describe('bodyContent', () => {
  it('links pages of the PDF inside it, keeps web links, and drops other targets', () => {
    const [paragraph] = bodyContent(parseBody('[a](/pages/inside#x) [b](/pages/outside) [c](https://x.test/) [d](javascript:alert(1))'), ctx);
    expect(paragraph).toEqual({
      text: [
        { text: ['a'], linkToDestination: 'page-inside', style: 'link' },
        ' ',
        { text: ['b'] },
        ' ',
        { text: ['c'], link: 'https://x.test/', style: 'link' },
        ' ',
        { text: ['d'] },
      ],
      style: 'paragraph',
    });
  });

  it('sets code in Courier only when Courier can encode it', () => {
    const [latin] = bodyContent(parseBody('```\nlet café = 1;\n```'), ctx) as Array<{ table: { body: Array<Array<Record<string, unknown>>> } }>;
    expect(latin!.table.body[0]![0]).toMatchObject({ text: 'let café = 1;', font: 'Courier' });
    const [other] = bodyContent(parseBody('```\nlet 名前 = 1;\n```'), ctx) as Array<{ table: { body: Array<Array<Record<string, unknown>>> } }>;
    expect(other!.table.body[0]![0]).not.toHaveProperty('font');
  });

  it('shows images of files at their size, shrunk to the width, and a placeholder for the others', () => {
    const blocks = bodyContent(parseBody('![one](/files/shown) ![two](/files/missing) ![three](https://x.test/a.png)'), ctx);
    expect(blocks).toEqual([
      { image: 'file-shown', width: 500, height: 50, margin: [0, 2, 0, 8] },
      { text: [' ', { text: '[image: two]', style: 'missing' }, ' ', { text: '[image: three]', style: 'missing' }], style: 'paragraph' },
    ]);
    expect(imageFileIds(parseBody('![a](/files/shown) <img src="/files/raw" alt="">'))).toEqual(['shown', 'raw']);
  });

  it('lays out a GFM table with its header row and alignments', () => {
    const [table] = bodyContent(parseBody('| a | b |\n| :-- | --: |\n| 1 | 2 |'), ctx);
    expect(table).toEqual({
      table: {
        headerRows: 1,
        widths: ['*', '*'],
        body: [
          [{ text: ['a'], alignment: 'left', style: 'tableHeader' }, { text: ['b'], alignment: 'right', style: 'tableHeader' }],
          [{ text: ['1'], alignment: 'left' }, { text: ['2'], alignment: 'right' }],
        ],
      },
      layout: 'lightHorizontalLines',
      style: 'table',
    });
  });
});
