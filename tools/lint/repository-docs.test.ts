// Citations of paths and links between documents lead somewhere: the rules on planted fixtures (a
// small repository in a temporary folder, and a planted source file linted with the repository's own
// ESLint configuration), then the repository itself. docs/contributing.md, "Citing files".
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/paths.js';
import { findCitations, knownRoots, PathResolver } from './cited-paths.js';
import { brokenLinksIn, checkRepositoryTexts, hashComments, headingAnchors, missingCitationsIn } from './repository-texts.js';

const ROOTS = new Set(['src', 'docs', 'packages', 'areas', 'http', 'test', 'spec', 'bench']);
const cited = (text: string) => findCitations(text, ROOTS).map((citation) => citation.path);

describe('what counts as a citation', () => {
  it('takes paths under the repository’s folders, paths and bare names with its file extensions', () => {
    expect(cited('See docs/decisions.md, http/router.ts and areas/spaces/ (routes/index.ts; DESIGN.md).')).toEqual([
      'docs/decisions.md',
      'http/router.ts',
      'areas/spaces/',
      'routes/index.ts',
      'DESIGN.md',
    ]);
    expect(cited('`src/app.ts`, [a](../docs/x.md#part), spec/openapi.yaml:12 and ./rules.js')).toEqual(['src/app.ts', '../docs/x.md', 'spec/openapi.yaml', './rules.js']);
  });

  it('leaves out addresses, API paths, packages, quoted code, placeholders, libraries and kinds of files', () => {
    expect(
      cited(
        'https://example.com/docs/a.md node:fs /v1/spaces/{spaceId} /etc/passwd @scope/name --format ' +
          "new URL('./x.worker.mjs', …) a link 'guides/install.md' <area>.handlers.ts ipaddr.js res.json main.js .d.ts text/markdown read/write SUMMARY.md",
      ),
    ).toEqual([]);
  });

  it('checks a path up to its first placeholder', () => {
    expect(cited('areas/<area>/index.ts, packages/server/.dist-test-*/ and spec/paths/{area}/x.yaml')).toEqual(['areas/', 'packages/server/', 'spec/paths/']);
  });

  it('reads the folders that start citations from the repository', () => {
    const roots = knownRoots(repoRoot);
    for (const folder of ['docs', 'packages', 'spec', 'tools', 'src', 'test', 'areas', 'http', 'content', 'paths', 'components']) expect(roots.has(folder), folder).toBe(true);
  });
});

describe('a planted repository', () => {
  let root: string;
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cited-paths-'));
    write('pnpm-workspace.yaml', 'packages:\n  - packages/*\n');
    write('.gitignore', 'dist/\n');
    write('packages/server/package.json', '{}\n');
    write('packages/server/src/http/router.ts', '');
    write('packages/server/src/access/rules.ts', '');
    write('packages/server/test/support/factories.ts', '');
    write('spec/components/schemas/Space.yaml', '');
    write('docs/guide.md', '# Guide\n\n## The request’s path\n\nText.\n');
    execFileSync('git', ['init', '--quiet'], { cwd: root });
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('resolves from the citing folder and above, from each package and its src/, and from spec/', () => {
    const resolver = new PathResolver(root);
    const from = 'packages/server/src/access/rules.ts';
    for (const path of ['http/router.ts', 'src/http/router.ts', 'test/support/factories.ts', 'docs/guide.md', 'components/schemas/Space.yaml', './rules.js', '../http/router.js', 'guide.md', 'dist/', 'packages/server/dist/main.js']) {
      expect(resolver.exists(path, from), path).toBe(true);
    }
    for (const path of ['routes/index.ts', 'auth/viewer.ts', 'DESIGN.md', './router.ts', 'docs/design/content-model.md', 'packages/server/src/jobs/']) {
      expect(resolver.exists(path, from), path).toBe(false);
    }
  });

  it('reports the citations of missing paths in documents and in the comments of YAML and configuration files', () => {
    const resolver = new PathResolver(root);
    expect(missingCitationsIn(resolver, 'docs/a.md', 'Read `DESIGN.md` §9 and docs/guide.md.\n\nThen routes/index.ts.\n')).toEqual([
      { file: 'docs/a.md', line: 1, problem: 'cites "DESIGN.md", which is not in the repository' },
      { file: 'docs/a.md', line: 3, problem: 'cites "routes/index.ts", which is not in the repository' },
    ]);
    const yaml = "# The space schema (design/content-model.md).\ndescription: a $ref like ../x.yaml in a client's text\n$ref: '#/components/schemas/Space'\n";
    expect(missingCitationsIn(resolver, 'spec/paths/x.yaml', yaml).map((problem) => problem.problem)).toEqual(['cites "design/content-model.md", which is not in the repository']);
    const nginx = '# Copy content-workspace-proxy.conf from docs/missing.md\n#     include snippets/content-workspace-proxy.conf;\n';
    expect(missingCitationsIn(resolver, 'deploy/nginx/site.conf', nginx).map((problem) => problem.line)).toEqual([1]);
  });

  it('keeps only the comments of a YAML or configuration file, at their offsets', () => {
    const text = "key: value # a comment\nurl: 'a#b'\n#   listen 443;\n# prose\n";
    expect(hashComments(text)).toBe(`${' '.repeat(11)}# a comment\n${' '.repeat(10)}\n${' '.repeat(15)}\n# prose\n`);
  });

  it('reports Markdown links to missing files and to headings the target does not have', () => {
    const text = [
      'A [guide](guide.md), [its part](guide.md#the-requests-path), [here](#notes) and [out](https://example.com/x.md).',
      '',
      '[gone](missing.md), [no such part](guide.md#nothing), [up](../../outside.md).',
      '',
      '## Notes',
    ].join('\n');
    expect(brokenLinksIn(root, 'docs/a.md', text).map((problem) => `${problem.line}: ${problem.problem}`)).toEqual([
      '3: links to "missing.md": docs/missing.md does not exist',
      '3: links to "guide.md#nothing": docs/guide.md has no heading with the anchor #nothing',
      '3: links to "../../outside.md", outside the repository',
    ]);
  });

  it('names headings as GitHub does', () => {
    expect([...headingAnchors('# Decisions\n## Token scope (SSO tokens reach one organization)\n## Database outages (issue 12 §2, §3)\n## Notes\n## Notes\n')]).toEqual([
      'decisions',
      'token-scope-sso-tokens-reach-one-organization',
      'database-outages-issue-12-2-3',
      'notes',
      'notes-1',
    ]);
  });
});

// Linting through ESLint's API loads the whole configuration (typescript-eslint): seconds on a loaded machine.
describe('the ESLint rule, as eslint.config.js applies it', { timeout: 120_000 }, () => {
  const eslint = new ESLint({ cwd: repoRoot });
  const lint = async (comment: string) => {
    const [result] = await eslint.lintText(`${comment}\nexport const planted = 1;\n`, { filePath: join(repoRoot, 'packages/server/src/http/planted-citation.ts') });
    return result!.messages.filter((message) => message.ruleId === 'repository/cited-paths-exist').map((message) => `${message.line}:${message.column} ${message.message}`);
  };

  it('reports a comment citing a path that does not exist, where it stands', async () => {
    expect(await lint('// Handlers are registered in routes/index.ts (DESIGN.md §3).')).toEqual([
      '1:31 This comment cites "routes/index.ts", which is not in the repository (docs/contributing.md, "Citing files").',
      '1:48 This comment cites "DESIGN.md", which is not in the repository (docs/contributing.md, "Citing files").',
    ]);
    expect(await lint('/**\n * The viewer is cached (auth/viewer.ts).\n */')).toEqual([
      '2:26 This comment cites "auth/viewer.ts", which is not in the repository (docs/contributing.md, "Citing files").',
    ]);
  });

  it('accepts citations of what exists', async () => {
    expect(await lint('// Registered in areas/index.ts, dispatched by router.ts (docs/architecture.md, "A request\'s path"; ./router.js).')).toEqual([]);
  });
});

describe('the repository', () => {
  it('cites only paths that exist in its documents and in the comments of YAML, shell and configuration files, and its Markdown links lead somewhere', () => {
    expect(checkRepositoryTexts(repoRoot).map((problem) => `${problem.file}:${problem.line}: ${problem.problem}`)).toEqual([]);
  }, 180_000); // ~5 s of CPU, parsing every document once: more on a loaded machine
});
