// The repository's texts that ESLint does not read: Markdown documents, and the comments of YAML files
// (the spec, the CI workflow), shell scripts and configuration files — checked for citations of
// paths that do not exist (cited-paths.js, the rules ESLint applies to JavaScript and TypeScript
// comments), and Markdown for links between files that lead nowhere: a missing file, or a `#fragment`
// naming no heading of the target document (GitHub's heading anchors).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Definition, Heading, Image, Link, Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { PathResolver } from './cited-paths.js';

/** A problem found in a file, at a line (1-based). */
export type Problem = { file: string; line: number; problem: string };

/** What of a file is checked for citations: all of a document, the `#` comments of the others. */
type Kind = 'markdown' | 'hash-comments';

/** Files that are not the repository's prose: generated, third-party, or lists of patterns. */
const SKIPPED = [/^packages\/contract\//, /^packages\/sdk\/src\/generated\//, /^pnpm-lock\.yaml$/, /^patches\//, /(^|\/)\.gitignore$/, /(^|\/)LICENSE$/];

/** How a file's text is checked; undefined for files ESLint reads (JavaScript, TypeScript) or none checks. */
export function kindOf(file: string): Kind | undefined {
  if (SKIPPED.some((pattern) => pattern.test(file))) return undefined;
  if (file.endsWith('.md')) return 'markdown';
  if (/\.(ya?ml|conf|service|sh)$/.test(file) || /(^|\/)\.npmrc$/.test(file) || file === '.ci/run') return 'hash-comments';
  return undefined;
}

/** The repository's files (tracked, and new ones not ignored), relative to its root. */
export function repositoryFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
  return listed.split('\0').filter((file) => file !== '' && existsSync(join(root, file)));
}

/**
 * The `#` comments of a YAML, shell or configuration file; everything else blanked (offsets kept). A
 * `#` inside a word (`'#/components/…'`, `$#`) starts no comment, and a comment line ending like a
 * directive (`;`, `{`, `}`) is commented-out configuration, whose paths are the configured program's.
 */
export function hashComments(text: string): string {
  return text.replace(/^([^#\n]*?)(#.*)?$/gm, (_line, code: string, comment: string | undefined) => {
    const blank = ' '.repeat(code.length + (comment?.length ?? 0));
    if (comment === undefined || (code !== '' && !/\s$/.test(code))) return blank;
    if (/[;{}]\s*$/.test(comment)) return blank;
    return ' '.repeat(code.length) + comment;
  });
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** Citations of missing paths in one file's text. */
export function missingCitationsIn(resolver: PathResolver, file: string, text: string): Problem[] {
  const kind = kindOf(file);
  if (!kind) return [];
  const checked = kind === 'markdown' ? text : hashComments(text);
  return resolver.missing(checked, file).map((citation) => ({
    file,
    line: lineAt(text, citation.index),
    problem: `cites "${citation.path}", which is not in the repository`,
  }));
}

function parseMarkdown(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

function visit(node: Nodes, each: (node: Nodes) => void): void {
  const stack: Nodes[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    each(current);
    if ('children' in current) stack.push(...(current.children as Nodes[]));
  }
}

/** The anchors GitHub gives a document's headings (github-slugger, as it renders Markdown). */
export function headingAnchors(markdown: string): Set<string> {
  return anchorsOfTree(parseMarkdown(markdown));
}

function anchorsOfTree(tree: Root): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const headings: Heading[] = [];
  visit(tree, (node) => {
    if (node.type === 'heading') headings.push(node);
  });
  // Slugs number duplicates in document order.
  headings.sort((a, b) => (a.position?.start.offset ?? 0) - (b.position?.start.offset ?? 0));
  for (const heading of headings) anchors.add(slugger.slug(toString(heading)));
  return anchors;
}

/** Whether a link target leaves the repository (an address with a scheme, or protocol-relative). */
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Links of one Markdown file to files of the repository that lead nowhere: the target file or folder
 * is missing (relative to the document's folder, or to the repository's root for `/…`), or its
 * `#fragment` names no heading of the target document (or of this one, for `#…` alone).
 */
export function brokenLinksIn(root: string, file: string, text: string): Problem[] {
  return linkProblems(root, file, parseMarkdown(text), (path) => headingAnchors(readFileSync(join(root, path), 'utf8')));
}

/** brokenLinksIn over a parsed document, with the anchors of other documents from `anchorsOf`. */
function linkProblems(root: string, file: string, tree: Root, anchorsOf: (file: string) => Set<string>): Problem[] {
  const problems: Problem[] = [];
  const targets: Array<{ url: string; line: number; offset: number }> = [];
  visit(tree, (node) => {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') {
      targets.push({ url: (node as Link | Image | Definition).url, line: node.position?.start.line ?? 1, offset: node.position?.start.offset ?? 0 });
    }
  });
  targets.sort((a, b) => a.offset - b.offset);
  for (const { url, line } of targets) {
    if (url === '' || EXTERNAL.test(url)) continue;
    const [rawPath = '', fragment] = url.split('#', 2);
    const path = decodeURIComponent(rawPath.split('?')[0]!);
    // `#…` alone names a heading of this document, read from the text given.
    const target = path === '' ? file : relative(root, path.startsWith('/') ? join(root, path) : resolve(root, dirname(file), path));
    if (target.startsWith('..')) {
      problems.push({ file, line, problem: `links to "${url}", outside the repository` });
      continue;
    }
    if (path !== '' && !existsSync(join(root, target))) {
      problems.push({ file, line, problem: `links to "${url}": ${target} does not exist` });
      continue;
    }
    if (fragment === undefined || fragment === '') continue;
    if (!target.endsWith('.md') || (path !== '' && statSync(join(root, target)).isDirectory())) continue;
    const anchors = path === '' ? anchorsOfTree(tree) : anchorsOf(target);
    if (!anchors.has(decodeURIComponent(fragment))) {
      problems.push({ file, line, problem: `links to "${url}": ${target} has no heading with the anchor #${fragment}` });
    }
  }
  return problems;
}

/** Every problem of the repository's non-ESLint texts: missing citations, broken Markdown links. */
export function checkRepositoryTexts(root: string): Problem[] {
  const resolver = new PathResolver(root);
  const problems: Problem[] = [];
  // Each document is parsed once, for its own links and for the anchors other documents link to.
  const trees = new Map<string, Root>();
  const treeOf = (file: string) => {
    let tree = trees.get(file);
    if (!tree) trees.set(file, (tree = parseMarkdown(readFileSync(join(root, file), 'utf8'))));
    return tree;
  };
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => {
    let found = anchors.get(file);
    if (!found) anchors.set(file, (found = anchorsOfTree(treeOf(file))));
    return found;
  };
  for (const file of repositoryFiles(root)) {
    if (!kindOf(file)) continue;
    problems.push(...missingCitationsIn(resolver, file, readFileSync(join(root, file), 'utf8')));
    if (file.endsWith('.md')) problems.push(...linkProblems(root, file, treeOf(file), anchorsOf));
  }
  return problems;
}
