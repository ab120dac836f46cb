import { describe, expect, it } from 'vitest';
import { anchorOf, documentBlocks, previewOf, reanchor, type Anchor } from './anchoring.js';

const body = (...blocks: string[]) => blocks.join('\n\n') + '\n';

const ORIGINAL = body(
  '# Install',
  'Run the installer with the default options, then restart the machine before you continue.',
  'Configure the proxy in the settings file.',
  '- first step\n- second step',
);

/** The anchor of the block whose text starts with `start` in `markdown`. */
function anchorAt(markdown: string, start: string): Anchor {
  const blocks = documentBlocks(markdown);
  const block = blocks.find((candidate) => candidate.text.startsWith(start))!;
  return anchorOf(blocks, block.id)!;
}

describe('documentBlocks', () => {
  it('lists leaf blocks in order with ids derived from their normalised text', () => {
    const blocks = documentBlocks(ORIGINAL);
    expect(blocks.map((block) => block.text)).toEqual([
      'Install',
      'Run the installer with the default options, then restart the machine before you continue.',
      'Configure the proxy in the settings file.',
      'first step',
      'second step',
    ]);
    for (const block of blocks) expect(block.id).toMatch(/^[0-9a-f]{16}$/);
    // Same text, same id, whatever the markup or the whitespace around it.
    expect(documentBlocks('## Install\n')[0]!.id).toBe(blocks[0]!.id);
    expect(documentBlocks('Configure   the proxy\nin the settings file.\n')[0]!.id).toBe(blocks[2]!.id);
  });

  it('numbers later blocks with the same text, and keeps other ids when one block changes', () => {
    const blocks = documentBlocks(body('Note', 'Text', 'Note', 'Note'));
    expect(blocks.map((block) => block.id)).toEqual([blocks[0]!.id, blocks[1]!.id, `${blocks[0]!.id}-1`, `${blocks[0]!.id}-2`]);
    const edited = documentBlocks(ORIGINAL.replace('proxy', 'HTTP proxy'));
    expect(edited.map((block) => block.id).filter((id) => !documentBlocks(ORIGINAL).some((block) => block.id === id))).toHaveLength(1);
  });

  it('reads table rows, code blocks and nested quotes; skips blocks without text', () => {
    const blocks = documentBlocks(body('| a | b |\n| - | - |\n| 1 | 2 |', '```js\nlet x = 1;\n```', '> quoted *text*', '![](image.png)', '---'));
    expect(blocks.map((block) => block.text)).toEqual(['a | b', '1 | 2', 'let x = 1;', 'quoted text']);
  });
});

describe('previewOf', () => {
  it('keeps short text and cuts long text with an ellipsis, by characters', () => {
    expect(previewOf('short')).toBe('short');
    const long = '😀'.repeat(200);
    expect([...previewOf(long)]).toHaveLength(140);
    expect(previewOf(long).endsWith('…')).toBe(true);
  });
});

describe('anchorOf', () => {
  it('keeps the quote and the end and start of the neighbouring blocks', () => {
    const blocks = documentBlocks(ORIGINAL);
    expect(anchorOf(blocks, blocks[2]!.id)).toEqual({
      nodeId: blocks[2]!.id,
      quote: 'Configure the proxy in the settings file.',
      prefix: blocks[1]!.text.slice(-64),
      suffix: 'first step',
    });
    expect(anchorOf(blocks, 'ffffffffffffffff')).toBeUndefined();
  });
});

describe('reanchor', () => {
  const proxy = anchorAt(ORIGINAL, 'Configure');

  it('finds the same block in the same body', () => {
    expect(reanchor(proxy, documentBlocks(ORIGINAL))?.text).toBe('Configure the proxy in the settings file.');
  });

  it('follows text that moved elsewhere in the page', () => {
    const moved = body('Configure the proxy in the settings file.', '# Install', 'Something new.');
    const found = reanchor(proxy, documentBlocks(moved));
    expect(found).toEqual(documentBlocks(moved)[0]);
  });

  it('follows text that was edited, within the allowed share of changes', () => {
    const edited = ORIGINAL.replace('Configure the proxy in the settings file.', 'Configure the HTTP proxy in the settings.');
    expect(reanchor(proxy, documentBlocks(edited))?.text).toBe('Configure the HTTP proxy in the settings.');
  });

  it('finds text merged into a larger block', () => {
    const merged = ORIGINAL.replace('continue.\n\nConfigure', 'continue. Configure');
    expect(reanchor(proxy, documentBlocks(merged))?.text).toMatch(/^Run the installer.*Configure the proxy/);
  });

  it('loses a block that was deleted or rewritten beyond recognition', () => {
    expect(reanchor(proxy, documentBlocks(ORIGINAL.replace('Configure the proxy in the settings file.\n\n', '')))).toBeUndefined();
    expect(reanchor(proxy, documentBlocks(ORIGINAL.replace('Configure the proxy in the settings file.', 'Nothing to see here at all.')))).toBeUndefined();
    expect(reanchor(proxy, [])).toBeUndefined();
  });

  it('does not re-anchor a deleted short heading to a passing mention of the word', () => {
    const heading = anchorAt(ORIGINAL, 'Install');
    const without = ORIGINAL.replace('# Install\n\n', '').replace('Run the installer', 'Run the install wizard');
    expect(reanchor(heading, documentBlocks(without))).toBeUndefined();
    // A renamed heading is still found.
    expect(reanchor(heading, documentBlocks(ORIGINAL.replace('# Install', '# Installs')))?.text).toBe('Installs');
  });

  it('tells duplicated text apart by its neighbours', () => {
    const twice = body('Intro one.', 'Same words here.', 'After one.', 'Intro two.', 'Same words here.', 'After two.');
    const second = documentBlocks(twice)[4]!;
    expect(second.id).toMatch(/-1$/);
    const anchor = anchorOf(documentBlocks(twice), second.id)!;
    // A paragraph inserted at the top shifts nothing; the first copy removed moves the id, not the anchor.
    const shifted = documentBlocks(body('New.', twice));
    expect(reanchor(anchor, shifted)).toEqual(shifted[5]);
    const firstRemoved = documentBlocks(body('Intro one.', 'After one.', 'Intro two.', 'Same words here.', 'After two.'));
    expect(reanchor(anchor, firstRemoved)).toEqual(firstRemoved[3]);
    // The first copy's anchor stays on the first copy when both remain.
    const first = anchorOf(documentBlocks(twice), documentBlocks(twice)[1]!.id)!;
    expect(reanchor(first, shifted)).toEqual(shifted[2]);
  });

  it('quotes long blocks by their beginning and still finds them', () => {
    const long = 'word '.repeat(400).trim();
    const anchor = anchorAt(body('Before.', long), 'word');
    expect(anchor.quote).toHaveLength(1000);
    expect(reanchor(anchor, documentBlocks(body(long, 'Before.')))?.text).toBe(long);
  });
});
