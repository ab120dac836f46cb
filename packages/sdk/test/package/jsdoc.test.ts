// Editors show a property's JSDoc only when TypeScript attaches the comment to that property, i.e.
// when it sits right above it. Bundling the declarations once moved 320 of the contract's
// descriptions to the end of the previous line (scripts/own-line-jsdoc.ts). Here, every JSDoc of the
// contract's types (in the packed contract's declarations file) and of the SDK's exported declarations (in the packed
// .d.mts and .d.cts) is looked up the way TypeScript attaches it, and must be there with the same text.
import { readFileSync, readdirSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const contractTypes = new URL('../../../contract/src/types.ts', import.meta.url);
const sdkSources = new URL('../../src/', import.meta.url);
const dist = new URL('../../.pack/package/dist/', import.meta.url);

/**
 * The JSDoc TypeScript attaches to each declaration and member, by a path of names
 * (`paths › "/v1/user" › get`), with its text normalized (no `*` margins, trimmed lines).
 * With `exportedOnly`, top-level declarations without `export` are skipped (bundling may rename them).
 */
function documented(file: string, text: string, exportedOnly = false): Map<string, string> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const docs = new Map<string, string>();
  const visit = (node: ts.Node, trail: string[]): void => {
    let next = trail;
    const name = declarationName(node);
    if (name !== undefined) {
      const topLevel = node.parent === source || ts.isModuleBlock(node.parent);
      if (topLevel && exportedOnly && !(ts.getCombinedModifierFlags(node as ts.Declaration) & ts.ModifierFlags.Export)) return;
      next = [...trail, name];
      const comments = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
      // Members of the alternatives of a union share a path: number them in the order they come.
      let key = next.join(' › ');
      for (let n = 2; docs.has(key); n++) key = `${next.join(' › ')} #${n}`;
      if (comments.length) docs.set(key, comments.map((doc) => normalize(doc.getText())).join('\n---\n'));
    }
    ts.forEachChild(node, (child) => visit(child, next));
  };
  visit(source, []);
  return docs;
}

function declarationName(node: ts.Node): string | undefined {
  if (
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isPropertySignature(node) ||
    ts.isPropertyDeclaration(node) ||
    ts.isMethodSignature(node)
  ) {
    return node.name ? node.name.getText() : undefined;
  }
  return undefined;
}

function normalize(comment: string): string {
  return comment
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*?\s?/, '').trimEnd())
    .filter((line) => line.trim() !== '')
    .join('\n');
}

const expected = documented('types.ts', readFileSync(contractTypes, 'utf8'));
const sdkDocs = new Map(
  readdirSync(sdkSources, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) => [...documented(name, readFileSync(new URL(name, sdkSources), 'utf8'), true)]),
);

/** The names the declaration file exports (`export { a, b as c }`), as declared in it. */
function exportedNames(text: string): Set<string> {
  const names = [...text.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((match) => match[1]!.split(','));
  return new Set(names.map((name) => name.trim().replace(/^type /, '').split(/\s+as\s+/)[0]!).filter(Boolean));
}

describe.each(['index.d.mts', 'index.d.cts'])('dist/%s', (file) => {
  const text = readFileSync(new URL(file, dist), 'utf8');
  const built = documented(file, text);
  // The SDK's own declarations that the package exports (internal ones may be renamed by bundling).
  const exported = exportedNames(text);
  const expectedSdk = new Map([...sdkDocs].filter(([path]) => exported.has(path.split(' › ')[0]!)));

  it("keeps every JSDoc of the SDK's exported declarations on its own declaration", () => {
    expect(expectedSdk.size).toBeGreaterThan(50);
    const misplaced = [...expectedSdk].filter(([path, doc]) => built.get(path) !== doc).map(([path]) => path);
    expect(misplaced, `${misplaced.length} of ${expectedSdk.size} moved or lost`).toEqual([]);
  });
});

// The contract's types ship once, in dist/contract.d.cts, which both index files import (tsdown.config.ts).
describe('dist/contract.d.cts', () => {
  it("keeps every JSDoc of the contract's types on its own declaration", () => {
    const built = documented('contract.d.cts', readFileSync(new URL('contract.d.cts', dist), 'utf8'));
    // Every comment of the generated contract is a property's (or a type's) documentation.
    expect(expected.size).toBe(readFileSync(contractTypes, 'utf8').match(/\/\*\*/g)!.length);
    const misplaced = [...expected].filter(([path, doc]) => built.get(path) !== doc).map(([path]) => path);
    expect(misplaced, `${misplaced.length} of ${expected.size} moved or lost`).toEqual([]);
  });
});
