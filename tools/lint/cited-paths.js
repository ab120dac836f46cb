// Paths that comments and documents cite, and whether they exist in the repository. Used by the ESLint
// rule `repository/cited-paths-exist` (eslint-plugin-repository.js: comments of JavaScript and
// TypeScript) and by repository-texts.ts (Markdown, and the comments of YAML and other text files),
// which repository-docs.test.ts runs in `pnpm test`. Plain JavaScript, so that eslint.config.js loads
// it without a TypeScript loader. For contributors: docs/contributing.md, "Citing files".
//
// A citation is a word of the text that names a file or folder of the repository:
// - a word with a slash whose first folder is one of the repository's (`src/`, `docs/`, `http/`,
//   `areas/`, `test/`, …: a folder at the top of the repository, of a workspace package, of its `src/`
//   or `test/`, or of `spec/` and `bench/`), or whose last part has a file extension of the repository
//   ('routes/index.ts', 'design/content-model.md');
// - a bare file name ending in a source or document extension ('DESIGN.md', 'access.repository.ts',
//   `openapi.yaml`). Bare `.js`, `.json` and `.conf` names are not: they are as often libraries
//   (`ipaddr.js`), methods (`res.json`), build outputs (`main.js`) or other programs' files.
// Not citations: addresses (`https://…`, `node:fs`), API paths and absolute paths (`/v1/…`, `/etc/…`),
// package names (`@scope/name`), options (`--format`), and anything in single or double quotes, which
// shows code or data (`new URL('./x.worker.mjs', …)`, a link 'guides/install.md' in a page's body)
// rather than cites the repository. A placeholder (`<area>`, `{id}`, `*`, `…`, `$X`) ends the part that
// is checked: `areas/<area>/index.ts` checks `areas/`. A `#fragment`, `?query` or `:line` after a path is
// not part of it. The file names of the content formats the import reads (FORMAT_FILE_NAMES) are not
// the repository's.
//
// A citation resolves when it exists relative to the citing file's folder or any folder above it, to a
// workspace package or its `src/` (so `http/router.ts` from a test or a document means the server's), or
// to `spec/` (`components/schemas/Space.yaml`, as `$ref`s say). `./` and `../` are relative to the citing
// file's folder only. A `.js` path also names its TypeScript source ('./rules.js' is `rules.ts`, as ES
// module imports write it). A bare file name resolves when any file of the repository has that name. A
// path the repository's .gitignore covers (`dist/`, `.data/`, `bench/results/`) is a build output or
// local data, never a missing file.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Extensions of files this repository holds: a path ending in one is taken for a file. */
export const FILE_EXTENSIONS = ['ts', 'mts', 'cts', 'tsx', 'js', 'mjs', 'cjs', 'json', 'md', 'yaml', 'yml', 'patch', 'conf', 'service', 'pem'];
/** Extensions a bare file name (no folder) must end in to be taken for a file of the repository. */
export const BARE_NAME_EXTENSIONS = ['ts', 'mts', 'cts', 'tsx', 'md', 'yaml', 'yml', 'patch', 'service', 'pem'];
/**
 * Files of the content formats the import reads (GitBook and docs archives), named in comments about
 * them: not files of the repository.
 */
export const FORMAT_FILE_NAMES = new Set(['SUMMARY.md', '.gitbook.yaml', 'index.md']);

const EXTENSION = new RegExp(`\\.(?:${FILE_EXTENSIONS.join('|')})$`);
const BARE_NAME = new RegExp(`^\\.?[\\w-][\\w.-]*\\.(?:${BARE_NAME_EXTENSIONS.join('|')})$`);
/** The TypeScript sources an ES module path names (`rules.js` → `rules.ts`). */
/** @type {Record<string, string[]>} */
const SOURCE_OF = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };
/** Characters that end a word (whatever else could not be part of a path). */
const SEPARATORS = /[\s`'"()[\]|,;=!?§\\]+/;
/** Characters that start a placeholder: the checked path stops before the segment holding one. */
const PLACEHOLDER = /[<{*…$%]/;
/** A quoted string: an opening quote after a space or an opening bracket, a closing one before a space or punctuation. */
const QUOTED = /(^|[\s([{=,:`])(['"])(?=\S)[^'"\n]*?\S\2(?=$|[\s)\]},.;:!?`])/g;

/**
 * @typedef {{ path: string, index: number }} Citation
 * A word of the text that cites a path (as it should resolve), with its offset in the text.
 */

/** Folders whose names start citations: the repository's own, read once per root. */
/** @type {Map<string, Set<string>>} */
const rootsCache = new Map();

/**
 * The folder names a citation may start with, read from the repository: its top-level folders, the
 * folders of each workspace package, of their `src/` and `test/`, and of `spec/` and `bench/`.
 * @param {string} repoRoot
 * @returns {Set<string>}
 */
export function knownRoots(repoRoot) {
  let roots = rootsCache.get(repoRoot);
  if (roots) return roots;
  roots = new Set();
  /** @param {string} dir @returns {string[]} */
  const folders = (dir) => {
    try {
      return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== 'node_modules').map((entry) => entry.name);
    } catch {
      return [];
    }
  };
  for (const top of folders(repoRoot)) {
    if (top === '.git') continue;
    roots.add(top);
  }
  for (const base of [...workspacePackages(repoRoot), 'spec', 'bench']) {
    for (const name of folders(join(repoRoot, base))) {
      roots.add(name);
      if (name === 'src' || name === 'test') for (const inner of folders(join(repoRoot, base, name))) roots.add(inner);
    }
  }
  // Output and data folders named in the configuration tables (ignored by git, so absent in a clone).
  for (const output of ['dist', '.data']) roots.add(output);
  rootsCache.set(repoRoot, roots);
  return roots;
}

/**
 * The workspace packages' folders, relative to the root (`packages/server`, …, `bench`).
 * @param {string} repoRoot
 * @returns {string[]}
 */
export function workspacePackages(repoRoot) {
  const found = [];
  const packagesDir = join(repoRoot, 'packages');
  if (existsSync(packagesDir)) {
    for (const entry of readdirSync(packagesDir, { withFileTypes: true })) {
      if (entry.isDirectory() && existsSync(join(packagesDir, entry.name, 'package.json'))) found.push(`packages/${entry.name}`);
    }
  }
  if (existsSync(join(repoRoot, 'bench', 'package.json'))) found.push('bench');
  return found;
}

/**
 * One word as the path it cites, or undefined when it cites nothing (see the rules above).
 * @param {string} word
 * @param {Set<string>} roots
 * @returns {string | undefined}
 */
export function citedPath(word, roots) {
  let path = word.replace(/^[<>'"`([{]+/, '');
  if (path === '' || /^[/~@$#+-]/.test(path) || path.includes('//') || /^[A-Za-z][\w+.-]*:/.test(path)) return undefined;
  path = path.replace(/[#?].*$/, '').replace(/(?::\d+)+$/, '');
  const placeholder = path.search(PLACEHOLDER);
  if (placeholder >= 0) {
    const lastSlash = path.lastIndexOf('/', placeholder);
    if (lastSlash < 0) return undefined;
    path = path.slice(0, lastSlash + 1);
  }
  path = path.replace(/[.,:;!?>)\]]+$/, '');
  if (path === '' || path === '.' || path === '..') return undefined;
  if (!/^[\w./-]+$/.test(path)) return undefined;
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  if (segments.length === 0) return undefined;
  if (!path.includes('/')) {
    // A file name alone: one of this repository's kinds, with a stem of its own (`.d.ts` is a kind of file).
    if (!BARE_NAME.test(path) || FORMAT_FILE_NAMES.has(path)) return undefined;
    return (path.replace(/^\./, '').split('.')[0] ?? '').length >= 2 ? path : undefined;
  }
  if (EXTENSION.test(segments.at(-1) ?? '') || roots.has(segments[0] ?? '')) return path;
  return undefined;
}

/**
 * Every citation in a text (a comment, a document).
 * @param {string} text
 * @param {Set<string>} roots
 * @returns {Citation[]}
 */
export function findCitations(text, roots) {
  // Quoted strings are blanked, keeping offsets.
  const scanned = text.replace(QUOTED, (quoted, before) => before + ' '.repeat(quoted.length - before.length));
  const found = [];
  const word = new RegExp(`[^${SEPARATORS.source.slice(1, -2)}]+`, 'g');
  for (const match of scanned.matchAll(word)) {
    // Only a word with a slash or a dot can cite anything.
    if (!match[0].includes('/') && !match[0].includes('.')) continue;
    const path = citedPath(match[0], roots);
    if (path !== undefined) found.push({ path, index: match.index ?? 0 });
  }
  return found;
}

/**
 * Decides whether cited paths exist, for files of one repository. Remembers what it looked up.
 */
export class PathResolver {
  /** @param {string} repoRoot absolute */
  constructor(repoRoot) {
    this.root = resolve(repoRoot);
    this.roots = knownRoots(this.root);
    this.bases = [...workspacePackages(this.root).flatMap((dir) => [join(this.root, dir), join(this.root, dir, 'src')]), join(this.root, 'spec')];
    /** @type {Set<string> | undefined} */
    this.names = undefined;
    /** @type {Map<string, boolean>} */
    this.ignored = new Map();
    /** @type {Map<string, boolean>} Answers of `exists` by citing folder and path: citations repeat. */
    this.known = new Map();
  }

  /**
   * Every citation of `text` (written in `file`) that names nothing of the repository.
   * @param {string} text
   * @param {string} file absolute, or relative to the repository's root
   * @returns {Citation[]}
   */
  missing(text, file) {
    return findCitations(text, this.roots).filter((citation) => !this.exists(citation.path, file));
  }

  /**
   * Whether `path`, cited in `file`, names a file or folder of the repository (or an ignored output).
   * @param {string} path
   * @param {string} file
   */
  exists(path, file) {
    const from = dirname(isAbsolute(file) ? file : join(this.root, file));
    const key = `${from}\0${path}`;
    let known = this.known.get(key);
    if (known === undefined) this.known.set(key, (known = this.lookUp(path, from)));
    return known;
  }

  /** @param {string} path @param {string} from the citing file's folder (absolute) */
  lookUp(path, from) {
    const names = [path, ...sourcesOf(path)];
    const candidates = names.flatMap((name) => this.candidates(name, from));
    if (candidates.some((candidate) => existsSync(candidate))) return true;
    if (!path.includes('/') && names.some((name) => this.fileNames().has(basename(name)))) return true;
    // A folder may be cited without its final slash; git matches folder patterns (`dist/`) only with it.
    return candidates.some((candidate) => this.isIgnored(candidate) || (!candidate.endsWith('/') && this.isIgnored(`${candidate}/`)));
  }

  /** @param {string} path @param {string} from @returns {string[]} */
  candidates(path, from) {
    // join() drops a final slash of `path`: kept, since git needs it to match a folder pattern.
    const slash = path.endsWith('/') ? '/' : '';
    if (/^\.\.?\//.test(path)) return [resolve(from, path) + slash];
    const bases = [];
    for (let dir = from; ; dir = dirname(dir)) {
      bases.push(dir);
      if (dir === this.root || !dir.startsWith(this.root + sep)) break;
    }
    if (!bases.includes(this.root)) bases.push(this.root);
    return [...new Set([...bases, ...this.bases])]
      .map((base) => join(base, path).replace(/\/$/, '') + slash)
      .filter((candidate) => candidate === this.root || candidate.startsWith(this.root + sep));
  }

  /** The names of the repository's files (tracked or not yet added), for bare file names. */
  fileNames() {
    if (!this.names) {
      const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: this.root, maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
      this.names = new Set(listed.split('\0').filter(Boolean).map((file) => basename(file)));
    }
    return this.names;
  }

  /** Whether git ignores `candidate` (absolute): a build output or local data. @param {string} candidate */
  isIgnored(candidate) {
    let known = this.ignored.get(candidate);
    if (known === undefined) {
      const path = relative(this.root, candidate) + (candidate.endsWith('/') ? '/' : '');
      try {
        execFileSync('git', ['check-ignore', '--quiet', '--no-index', path], { cwd: this.root, stdio: 'ignore' });
        known = true;
      } catch {
        known = false;
      }
      this.ignored.set(candidate, known);
    }
    return known;
  }
}

/**
 * The TypeScript sources an ES module path may name ('a/rules.js' → 'a/rules.ts', 'a/rules.tsx').
 * @param {string} path
 * @returns {string[]}
 */
function sourcesOf(path) {
  const extension = /\.[mc]?js$/.exec(path)?.[0];
  return extension ? (SOURCE_OF[extension] ?? []).map((source) => path.slice(0, -extension.length) + source) : [];
}

/** @type {Map<string, PathResolver>} */
const resolvers = new Map();

/**
 * The resolver of the repository holding `file` (the folder with `pnpm-workspace.yaml` above it).
 * @param {string} file absolute
 * @returns {PathResolver | undefined}
 */
export function resolverFor(file) {
  for (let dir = dirname(resolve(file)); ; dir = dirname(dir)) {
    const known = resolvers.get(dir);
    if (known) return known;
    if (existsSync(join(dir, 'pnpm-workspace.yaml')) && statSync(join(dir, 'pnpm-workspace.yaml')).isFile()) {
      const resolver = new PathResolver(dir);
      resolvers.set(dir, resolver);
      return resolver;
    }
    if (dirname(dir) === dir) return undefined;
  }
}
