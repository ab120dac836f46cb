import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyFromAgentMarkdown, bodyToAgentMarkdown, pageFromAgentMarkdown, pageToAgentMarkdown } from './agent-markdown.js';

const readBack = (markdown: string) => bodyToAgentMarkdown(bodyFromAgentMarkdown(bodyToAgentMarkdown(markdown)));

describe('agent Markdown', () => {
  it('turns each GitBook block into its agent form and back', () => {
    const cases: [string, string][] = [
      ['{% hint style="danger" %}\nNo.\n{% endhint %}\nAfter.', '> [!CAUTION]\n> No.\n\nAfter.'],
      ['{% hint style="success" %}\n\nYes.\n\n{% endhint %}', '> [!TIP]\n> Yes.'],
      ['{% code title="a.js" %}\n```js\nx\n```\n{% endcode %}', '```js title="a.js"\nx\n```'],
      ['{% tabs %}\n{% tab title="A" %}\na\n{% endtab %}\n{% endtabs %}', '<!-- tabs -->\n#### A\na\n<!-- /tabs -->'],
      ['{% embed url="https://example.com/v" %}', '<!-- embed url="https://example.com/v" -->'],
      ['{% content-ref url="x.md" %}\n[x](x.md)\n{% endcontent-ref %}', '<!-- content-ref url="x.md" -->\n[x](x.md)\n<!-- /content-ref -->'],
      ['<details><summary>More</summary>\n\nHidden\n\n</details>', '<details><summary>More</summary>\n\nHidden\n\n</details>'],
      ['{% unknown %}\nkept\n{% endunknown %}', 'kept'],
    ];
    for (const [stored, agent] of cases) {
      expect(bodyToAgentMarkdown(stored), stored).toBe(agent);
      expect(bodyToAgentMarkdown(bodyFromAgentMarkdown(agent)), agent).toBe(agent);
    }
    expect(bodyFromAgentMarkdown('> [!WARNING]\n> Careful.\n')).toBe('{% hint style="warning" %}\nCareful.\n{% endhint %}\n');
  });

  it('leaves tags shown in code alone, in both directions', () => {
    const body = '```liquid\n{% hint style="info" %}\n> [!NOTE]\n<!-- tabs -->\n```';
    expect(bodyToAgentMarkdown(body)).toBe(body);
    expect(bodyFromAgentMarkdown(body)).toBe(body);
  });

  it('splits a page into title, description and body, and back', () => {
    const page = { title: 'Install', description: 'First steps', markdown: '{% hint style="info" %}\nHi\n{% endhint %}\n' };
    const agent = pageToAgentMarkdown(page);
    expect(agent).toBe('# Install\n\n> First steps\n\n> [!NOTE]\n> Hi\n');
    expect(pageFromAgentMarkdown(agent)).toEqual(page);
    // An alert right under the title is the body's, not a description.
    expect(pageFromAgentMarkdown('# T\n\n> [!NOTE]\n> Hi\n')).toEqual({ title: 'T', description: null, markdown: '{% hint style="info" %}\nHi\n{% endhint %}\n' });
    expect(pageFromAgentMarkdown('No title')).toBeUndefined();
  });

  it('rewrites link addresses with the rewriter it is given, code left alone', () => {
    const agent = pageToAgentMarkdown({ title: 'T', markdown: '[a](/pages/x) `[b](/pages/y)`\n\n{% content-ref url="/pages/x" %}\n[x](/pages/x)\n{% endcontent-ref %}\n' }, (href) =>
      href.startsWith('/pages/') ? `/docs/${href.slice(7)}.md` : undefined,
    );
    expect(agent).toBe('# T\n\n[a](/docs/x.md) `[b](/pages/y)`\n\n<!-- content-ref url="/docs/x.md" -->\n[x](/docs/x.md)\n<!-- /content-ref -->\n');
  });

  it('reads back what it wrote for any mix of blocks (read → write → read is stable)', () => {
    const line = fc.constantFrom(
      'text',
      '',
      '> quote',
      '{% hint style="info" %}',
      '{% hint style="warning" %}',
      '{% endhint %}',
      '{% tabs %}',
      '{% tab title="A" %}',
      '{% endtab %}',
      '{% endtabs %}',
      '{% code title="f.js" %}',
      '{% endcode %}',
      '```js',
      '```',
      '{% embed url="https://e.com" %}',
      '- item',
      '# heading',
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const agent = bodyToAgentMarkdown(lines.join('\n'));
        expect(readBack(lines.join('\n'))).toBe(agent);
      }),
      { numRuns: 500 },
    );
  });
});
