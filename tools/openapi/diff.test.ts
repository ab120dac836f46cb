// The breaking-change gate end to end: a temporary git repository holding a copy of the real spec/,
// a breaking and an additive change planted in it, judged by `pnpm spec:diff`'s code and command.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSpecDiff } from './diff.js';
import { repoRoot } from './paths.js';
import { BaseError } from './spec-git.js';

const SPACE = 'spec/components/schemas/Space.yaml';
const ACCEPTED = 'spec/accepted-breaking-changes.yaml';
/** The operations that answered a Space when the issue was filed (the old report named one). */
const SPACE_OPERATIONS = ['getSpaceById', 'updateSpaceById', 'createSpace', 'restoreSpace', 'moveSpace', 'transferSpace', 'listSpacesInOrganization', 'listSpacesInCollection'];

let dir: string;
let repo: string;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@localhost', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@localhost' },
  }).trim();
const read = (file: string) => readFileSync(join(repo, file), 'utf8');
const write = (file: string, text: string) => writeFileSync(join(repo, file), text);
const edit = (file: string, from: string | RegExp, to: string) => {
  const text = read(file);
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${String(from)} not found in ${file}`);
  write(file, next);
};
const lineOf = (file: string, prefix: string) => read(file).split('\n').findIndex((line) => line.trimStart().startsWith(prefix)) + 1;

/** Runs `pnpm spec:diff`'s script in the temporary repository, as a process: its exit code and output. */
function specDiff(...args: string[]) {
  const run = spawnSync(join(repoRoot, 'node_modules/.bin/tsx'), [join(repoRoot, 'tools/openapi/diff.ts'), ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, GITHUB_STEP_SUMMARY: '', SPEC_DIFF_BASE: '' },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function resetTo(branch: string) {
  git(repo, 'checkout', '--quiet', '--force', branch);
  git(repo, 'clean', '--quiet', '-fd');
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cw-spec-gate-'));
  repo = join(dir, 'repo');
  cpSync(join(repoRoot, 'spec'), join(repo, 'spec'), { recursive: true });
  git(repo, 'init', '--quiet', '--initial-branch=main');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'spec');
  git(repo, 'checkout', '--quiet', '-b', 'feature');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pnpm spec:diff', () => {
  it('fails on a breaking change (Space.emoji made optional) and says where and what it reaches', () => {
    resetTo('feature');
    edit(SPACE, /^required: \[(.*)\bemoji, /m, 'required: [$1');
    edit(SPACE, 'An emoji, or an empty string when none is set.', 'An emoji; absent when none is set.');

    const result = runSpecDiff({ root: repo })!;
    expect(result.base.description).toBe('merge base with main');
    expect(result.passed).toBe(false);
    expect(result.unaccepted).toHaveLength(1);
    const [change] = result.unaccepted;
    expect(change).toMatchObject({
      rule: 'property-made-optional',
      at: '#/components/schemas/Space/properties/emoji',
      location: { file: SPACE, line: lineOf(SPACE, 'emoji:'), side: 'head' },
      directions: ['response'],
    });
    expect(change!.operations.map((operation) => operation.operationId)).toEqual(expect.arrayContaining(SPACE_OPERATIONS));
    expect(change!.operations.find((operation) => operation.operationId === 'listSpacesInOrganization')!.via).toBe('200 response › SpaceList › Space');
    expect(result.changes.find((other) => other.rule === 'description-changed')).toMatchObject({
      at: '#/components/schemas/Space/properties/emoji/description',
      before: 'An emoji, or an empty string when none is set.',
      after: 'An emoji; absent when none is set.',
    });

    const text = specDiff();
    expect(text.status).toBe(1);
    expect(text.stdout).toContain(`${SPACE}:${lineOf(SPACE, 'emoji:')}`);
    expect(text.stdout).toContain('GET /v1/spaces/{spaceId}');
    expect(text.stdout).toContain("at: '#/components/schemas/Space/properties/emoji'");
    expect(text.stdout).toContain('- An emoji, or an empty string when none is set.\n    + An emoji; absent when none is set.');
    expect(text.stdout).toContain('spec:diff FAILED: 1 breaking change not accepted');

    const markdown = specDiff('main', '--format', 'markdown');
    expect(markdown.status).toBe(1);
    expect(markdown.stdout).toMatch(/^## API contract changes\n\n❌ \*\*FAILED/);
    expect(markdown.stdout).toContain('| `GET /v1/spaces/{spaceId}` | `getSpaceById` | 200 response › Space |');
    expect(markdown.stdout).toContain('```diff\n- An emoji, or an empty string when none is set.\n+ An emoji; absent when none is set.\n```');
  });

  it('passes the same change when an entry accepts it, and fails on an entry that accepts nothing', () => {
    // The real file's list: empty, or holding main's earlier acceptances (history, in the base here).
    const accepted = `${read(ACCEPTED).replace(/^accepted: \[\]\s*$/m, 'accepted:').trimEnd()}\n${[
      '  - change: property-made-optional',
      "    at: '#/components/schemas/Space/properties/emoji'",
      '    reason: No client reads an empty emoji; they were told in the changelog.',
      '',
    ].join('\n')}`;
    write(ACCEPTED, accepted);
    const result = runSpecDiff({ root: repo })!;
    expect(result.passed).toBe(true);
    expect(result.accepted.map(({ entry }) => entry.reason)).toEqual(['No client reads an empty emoji; they were told in the changelog.']);
    expect(specDiff().stdout).toContain('Breaking, accepted on purpose (1)');

    write(ACCEPTED, `${accepted}  - change: property-removed\n    at: '#/components/schemas/Space/properties/title'\n    reason: Nothing like this happened in this change.\n`);
    const stale = runSpecDiff({ root: repo })!;
    expect(stale.passed).toBe(false);
    expect(stale.stale).toEqual([expect.objectContaining({ change: 'property-removed', at: '#/components/schemas/Space/properties/title' })]);
    expect(specDiff().status).toBe(1);

    // Merged into main, the entry is a record: later branches neither need nor trip over it.
    write(ACCEPTED, accepted);
    git(repo, 'commit', '--quiet', '-am', 'Space.emoji optional, accepted');
    git(repo, 'checkout', '--quiet', 'main');
    git(repo, 'merge', '--quiet', '--no-ff', '-m', 'merge', 'feature');
    expect(runSpecDiff({ root: repo })).toMatchObject({ passed: true, base: { description: 'the previous commit of main' } });
    git(repo, 'checkout', '--quiet', '-b', 'later');
    edit(SPACE, 'Number of open comments on the space.', 'Number of open comments.');
    expect(runSpecDiff({ root: repo })).toMatchObject({ passed: true, stale: [], unaccepted: [] });
  });

  it('passes a breaking change under a new major info.version', () => {
    resetTo('later');
    edit(SPACE, /^required: \[(.*)\btitle, /m, 'required: [$1');
    expect(runSpecDiff({ root: repo })).toMatchObject({ passed: false, majorMoved: false });
    edit('spec/openapi.yaml', /^ {2}version: 1\.\d+\.\d+$/m, '  version: 2.0.0');
    const result = runSpecDiff({ root: repo })!;
    expect(result).toMatchObject({ passed: true, majorMoved: true, baseVersion: '1.0.0', headVersion: '2.0.0' });
    expect(result.unaccepted.map((change) => change.at)).toEqual(['#/components/schemas/Space/properties/title']);
  });

  it('passes an additive change and lists it', () => {
    resetTo('later');
    edit(SPACE, /^ {2}emoji:\n/m, '  subtitle:\n    description: A line under the title.\n    type: string\n    maxLength: 100\n  emoji:\n');
    const result = runSpecDiff({ root: repo })!;
    expect(result.passed).toBe(true);
    expect(result.changes).toEqual([expect.objectContaining({ rule: 'property-added', severity: 'non-breaking', at: '#/components/schemas/Space/properties/subtitle' })]);
    const run = specDiff('--format', 'markdown');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('✅ **passed: no breaking change.**');
    expect(run.stdout).toContain('| `property-added` | `#/components/schemas/Space/properties/subtitle` |');
  });

  it('on main, checks what the last commit brought', () => {
    resetTo('main');
    edit(SPACE, /^required: \[(.*)\bvisibility, /m, 'required: [$1');
    git(repo, 'commit', '--quiet', '-am', 'breaking, straight to main');
    const result = runSpecDiff({ root: repo })!;
    expect(result).toMatchObject({ passed: false, base: { description: 'the previous commit of main' } });
    expect(result.unaccepted.map((change) => change.at)).toEqual(['#/components/schemas/Space/properties/visibility']);
    git(repo, 'reset', '--quiet', '--hard', 'HEAD~1');
  });

  it('in a shallow clone, says what to fetch; with the history fetched, compares', () => {
    resetTo('later');
    edit(SPACE, 'Number of open comments on the space.', 'Number of open comments.');
    git(repo, 'commit', '--quiet', '-am', 'a description');
    const clone = join(dir, 'shallow');
    git(dir, 'clone', '--quiet', '--depth=1', '--branch=later', `file://${repo}`, clone);
    expect(() => runSpecDiff({ root: clone })).toThrow(BaseError);
    expect(() => runSpecDiff({ root: clone })).toThrow('git fetch --unshallow origin +refs/heads/main:refs/remotes/origin/main');
    git(clone, 'fetch', '--quiet', '--depth=1', 'origin', '+refs/heads/main:refs/remotes/origin/main');
    expect(() => runSpecDiff({ root: clone })).toThrow('no merge base of HEAD and origin/main: this clone is shallow (git fetch --unshallow origin)');
    git(clone, 'fetch', '--quiet', '--unshallow', 'origin');
    expect(runSpecDiff({ root: clone })).toMatchObject({ passed: true, base: { description: 'merge base with origin/main' } });
  });

  it('exits 2 with a message when the base is not a commit', () => {
    resetTo('later');
    const run = specDiff('no-such-ref');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('spec:diff: no-such-ref is not a commit here.');
  });
});
