import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ownLineJsdoc } from '../scripts/own-line-jsdoc.js';

/** The JSDoc text TypeScript attaches to each property of the type alias `T`. */
function propertyDocs(code: string): Record<string, string | undefined> {
  const source = ts.createSourceFile('t.d.ts', code, ts.ScriptTarget.Latest, true);
  const docs: Record<string, string | undefined> = {};
  const visit = (node: ts.Node): void => {
    if (ts.isPropertySignature(node)) docs[node.name.getText()] = ts.getJSDocCommentsAndTags(node)[0]?.getText();
    ts.forEachChild(node, visit);
  };
  visit(source);
  return docs;
}

describe('ownLineJsdoc', () => {
  it('rewrites one-line JSDoc comments as blocks, at their indentation', () => {
    const input = ['type T = {', '    /** The id. */', '    id: string;', '    /** @description The title. */', '    title: string;', '};'].join('\n');
    expect(ownLineJsdoc(input)).toBe(
      ['type T = {', '    /**', '     * The id.', '     */', '    id: string;', '    /**', '     * @description The title.', '     */', '    title: string;', '};'].join(
        '\n',
      ),
    );
  });

  it('keeps what TypeScript attaches to each property', () => {
    const input = 'type T = {\n  /** a */\n  a: `/** not a comment */`;\n  /**\n   * b\n   */\n  b: "/** x */";\n  // c\n  c: 1; /* d */\n  d: 2;\n};\n';
    const output = ownLineJsdoc(input);
    expect(output).toContain('a: `/** not a comment */`;');
    expect(output).toContain('b: "/** x */";');
    expect(output).toContain('// c\n');
    expect(output).toContain('/* d */');
    expect(propertyDocs(output)).toEqual({ a: '/**\n   * a\n   */', b: '/**\n   * b\n   */', c: undefined, d: undefined });
  });

  it('leaves a file without one-line JSDoc as it is', () => {
    const input = 'export interface A {\n  /**\n   * Two\n   * lines.\n   */\n  a: string;\n}\n';
    expect(ownLineJsdoc(input)).toBe(input);
  });
});
