// A build step for the declaration files: puts every one-line JSDoc comment (`/** text */`) on lines
// of its own before tsdown bundles the declarations.
//
// Why: rolldown-plugin-dts 0.23 (tsdown 0.21) prints the bundled .d.ts with Babel's generator after
// dropping the nodes' locations, and Babel then prints a one-line comment of a type-literal member
// at the end of the previous member's line (`a: string; /** doc of b */`). TypeScript reads such a
// comment as trailing `a`, so editors lost the description of `b`: 320 of the contract's 679. The
// upstream fix (sxzz/rolldown-plugin-dts#182) ships only in versions that need Node 22. Babel keeps
// multi-line comments on their own lines, so the same text in the multi-line form comes out right.
import ts from 'typescript';

/** Rewrites each one-line JSDoc comment of a declaration file as `/**`, ` * text`, ` *\/` lines. */
export function ownLineJsdoc(code: string): string {
  const source = ts.createSourceFile('input.d.ts', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const comments = new Map<number, number>();
  const visit = (node: ts.Node): void => {
    for (const range of ts.getLeadingCommentRanges(code, node.pos) ?? []) comments.set(range.pos, range.end);
    ts.forEachChild(node, visit);
  };
  visit(source);

  let output = '';
  let copied = 0;
  for (const [start, end] of [...comments].sort(([a], [b]) => a - b)) {
    const text = code.slice(start, end);
    if (!text.startsWith('/**') || text.length < 5 || text.includes('\n')) continue;
    const lineStart = code.lastIndexOf('\n', start - 1) + 1;
    const indent = /^[ \t]*/.exec(code.slice(lineStart, start))![0];
    output += `${code.slice(copied, start)}/**\n${indent} * ${text.slice(3, -2).trim()}\n${indent} */`;
    copied = end;
  }
  return output + code.slice(copied);
}

/** The rolldown plugin applying {@link ownLineJsdoc} to declaration files, before rolldown-plugin-dts reads them. */
export function ownLineJsdocPlugin() {
  return {
    name: 'own-line-jsdoc',
    transform: {
      order: 'pre' as const,
      filter: { id: /\.d\.[cm]?ts$/ },
      handler: (code: string) => ownLineJsdoc(code),
    },
  };
}
