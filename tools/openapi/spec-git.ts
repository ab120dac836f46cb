// Where the compared versions of spec/ come from: the working tree, and a git commit read straight
// from the object store (no temporary checkout, so reported locations are real spec/ paths).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SpecReader } from './spec-source.js';

export class BaseError extends Error {}

function git(root: string, args: string[], input?: string): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
}

function tryGit(root: string, args: string[]): string | undefined {
  try {
    return git(root, args).trim();
  } catch {
    return undefined;
  }
}

export function workingTreeReader(root: string): SpecReader {
  return (path) => {
    try {
      return readFileSync(join(root, 'spec', path), 'utf8');
    } catch {
      return undefined;
    }
  };
}

/** Reads every file of spec/ at a commit in two git processes. */
export function commitReader(root: string, commit: string): SpecReader {
  const names = git(root, ['ls-tree', '-r', '-z', '--name-only', commit, '--', 'spec/'])
    .split('\0')
    .filter(Boolean);
  const files = new Map<string, string>();
  if (names.length > 0) {
    const output = execFileSync('git', ['cat-file', '--batch'], {
      cwd: root,
      input: names.map((name) => `${commit}:${name}`).join('\n') + '\n',
      maxBuffer: 256 * 1024 * 1024,
    });
    let offset = 0;
    for (const name of names) {
      const headerEnd = output.indexOf(0x0a, offset);
      const header = output.subarray(offset, headerEnd).toString('utf8');
      const size = Number(header.split(' ')[2]);
      if (!Number.isFinite(size)) throw new BaseError(`git cat-file: unexpected answer for ${name}: ${header}`);
      files.set(name.slice('spec/'.length), output.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8'));
      offset = headerEnd + 1 + size + 1;
    }
  }
  return (path) => files.get(path);
}

export type Base = {
  /** The commit compared against. */
  commit: string;
  /** How it was chosen, for the report: `merge base with origin/main`, `v1.2.0`. */
  description: string;
};

/**
 * The version of spec/ a change is judged against (docs/contributing.md, "Changing the contract"):
 * - an explicit ref (`pnpm spec:diff REF`, or `SPEC_DIFF_BASE`);
 * - on a branch: its merge base with `main` (`origin/main` when that exists, else the local `main`),
 *   i.e. what the branch changes, which is what its reviewer reads;
 * - on `main` itself (the branch main, or a detached checkout of main's tip): main's previous commit
 *   (first parent), so a push or a merge to main is checked for what it brought.
 * Returns undefined when there is nothing to compare against (a repository with a single commit).
 * Throws a BaseError saying what to fetch when the history needed is missing (a shallow clone).
 */
export function resolveBase(root: string, explicit: string | undefined): Base | undefined {
  if (tryGit(root, ['rev-parse', '--is-inside-work-tree']) !== 'true') {
    throw new BaseError(`${root} is not a git work tree: there is no earlier spec/ to compare with.`);
  }
  const ref = explicit ?? (process.env.SPEC_DIFF_BASE || undefined);
  if (ref) {
    const commit = tryGit(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    if (!commit) throw new BaseError(`${ref} is not a commit here${isShallow(root) ? ' (this clone is shallow: git fetch --unshallow)' : ''}.`);
    return { commit, description: ref };
  }
  const head = tryGit(root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (!head) throw new BaseError('HEAD has no commit yet.');
  const main = ['origin/main', 'main'].find((name) => tryGit(root, ['rev-parse', '--verify', '--quiet', `${name}^{commit}`]));
  if (!main) {
    const unshallow = isShallow(root) ? ' --unshallow' : '';
    throw new BaseError(`neither origin/main nor main exists here: fetch it (git fetch${unshallow} origin +refs/heads/main:refs/remotes/origin/main) or name a base (pnpm spec:diff REF).`);
  }
  const mainCommit = tryGit(root, ['rev-parse', `${main}^{commit}`])!;
  const branch = tryGit(root, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  // On main: the branch main, or a detached checkout of main's tip (CI after a push). A new branch
  // still at main's tip is not on main: its changes are the working tree's.
  if (branch === 'main' || (branch === undefined && mainCommit === head)) {
    const parent = tryGit(root, ['rev-parse', '--verify', '--quiet', 'HEAD^1^{commit}']);
    if (parent) return { commit: parent, description: `the previous commit of main` };
    if (isShallow(root)) throw new BaseError(`this clone is shallow and lacks HEAD's parent: git fetch --deepen=1 (or --unshallow).`);
    return undefined;
  }
  const mergeBase = tryGit(root, ['merge-base', 'HEAD', main]);
  if (!mergeBase) {
    throw new BaseError(`no merge base of HEAD and ${main}${isShallow(root) ? ': this clone is shallow (git fetch --unshallow origin)' : ''}.`);
  }
  return { commit: mergeBase, description: `merge base with ${main}` };
}

function isShallow(root: string): boolean {
  return tryGit(root, ['rev-parse', '--is-shallow-repository']) === 'true';
}

/** `abc1234` */
export function shortCommit(root: string, commit: string): string {
  return tryGit(root, ['rev-parse', '--short', commit]) ?? commit.slice(0, 7);
}
