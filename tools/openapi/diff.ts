// `pnpm spec:diff [REF] [--format text|markdown|json] [--output FILE]`: what changed in spec/ (the
// working tree) since REF, judged by tools/openapi/spec-rules.ts. Without REF it compares with the
// branch's merge base with main (on main: the previous commit), which is the gate `pnpm test` and CI run.
// Exits 1 on a breaking change that is neither listed in spec/accepted-breaking-changes.yaml nor under
// a new major `info.version`, or on a stale or malformed entry there; 2 when it cannot compare.
import { execFileSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ACCEPTED_FILE, judge, majorMoved, parseAccepted } from './spec-accept.js';
import { compareSpecs } from './spec-compare.js';
import { BaseError, commitReader, resolveBase, shortCommit, workingTreeReader } from './spec-git.js';
import { render, type DiffResult, type Format } from './spec-report.js';
import { loadSpec, SpecLoadError } from './spec-source.js';
import { repoRoot } from './paths.js';

export type SpecDiffOptions = { root?: string; ref?: string | undefined };

/** Compares the working tree's spec/ with a base commit; undefined when there is no base (a first commit). */
export function runSpecDiff({ root = repoRoot, ref }: SpecDiffOptions = {}): DiffResult | undefined {
  const base = resolveBase(root, ref);
  if (!base) return undefined;
  const baseRead = commitReader(root, base.commit);
  const headRead = workingTreeReader(root);
  const { changes, baseVersion, headVersion } = compareSpecs(loadSpec(baseRead), loadSpec(headRead));
  const verdict = judge(changes, parseAccepted(headRead(ACCEPTED_FILE)), parseAccepted(baseRead(ACCEPTED_FILE)));
  const moved = majorMoved(baseVersion, headVersion);
  return {
    base: { commit: base.commit, short: shortCommit(root, base.commit), description: base.description },
    baseVersion,
    headVersion,
    majorMoved: moved,
    changes,
    ...verdict,
    passed: verdict.errors.length === 0 && verdict.stale.length === 0 && (verdict.unaccepted.length === 0 || moved),
  };
}

function parseArgs(argv: string[]): { ref?: string; format: Format; output?: string } {
  const args = argv.filter((arg) => arg !== '--');
  const options: { ref?: string; format: Format; output?: string } = { format: 'text' };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new BaseError(`${arg} needs a value`);
      return next;
    };
    if (arg === '--format') {
      const format = value();
      if (!['text', 'markdown', 'json'].includes(format)) throw new BaseError(`--format is text, markdown or json (got ${format})`);
      options.format = format as Format;
    } else if (arg.startsWith('--format=')) {
      options.format = arg.slice('--format='.length) as Format;
    } else if (arg === '--output') options.output = value();
    else if (arg.startsWith('--')) throw new BaseError(`unknown option ${arg}`);
    else if (options.ref === undefined) options.ref = arg;
    else throw new BaseError(`one REF at most (got ${options.ref} and ${arg})`);
  }
  return options;
}

/** The work tree the command runs in (pnpm runs scripts at the workspace root), else this checkout. */
function workTree(): string {
  try {
    return execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return repoRoot;
  }
}

function main(): number {
  let options: ReturnType<typeof parseArgs>;
  let result: DiffResult | undefined;
  try {
    options = parseArgs(process.argv.slice(2));
    result = runSpecDiff({ root: workTree(), ref: options.ref });
  } catch (error) {
    if (error instanceof BaseError || error instanceof SpecLoadError) {
      console.error(`spec:diff: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (!result) {
    console.log('spec:diff: no earlier commit to compare with: nothing to check.');
    return 0;
  }
  const report = render(result, options.format);
  if (options.output) writeFileSync(options.output, report);
  else process.stdout.write(report);
  // In GitHub Actions the Markdown report also goes to the job's summary page.
  if (process.env.GITHUB_STEP_SUMMARY && options.format !== 'markdown') appendFileSync(process.env.GITHUB_STEP_SUMMARY, render(result, 'markdown'));
  return result.passed ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();
