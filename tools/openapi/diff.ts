// `pnpm spec:diff [REF] [-- redocly diff options]`: what changed in spec/ since REF (default: the
// previous commit), each change rated by the semver bump it needs; breaking changes are "major".
// Reports only, unless given `--fail-on major` (the CI gate of the hardening work).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const ref = args[0] && !args[0].startsWith('--') ? args.shift()! : 'HEAD~1';
const passThrough = args.length ? args : ['--fail-on', 'none'];

const dir = mkdtempSync(join(tmpdir(), 'cw-spec-diff-'));
try {
  try {
    const archive = execFileSync('git', ['archive', ref, 'spec'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
  } catch {
    console.log(`spec:diff: ${ref} has no spec/ (or is not a git ref): nothing to compare.`);
    process.exit(0);
  }
  const base = join(dir, 'spec/openapi.yaml');
  if (!existsSync(base)) {
    console.log(`spec:diff: ${ref} has no spec/openapi.yaml: nothing to compare.`);
    process.exit(0);
  }
  console.log(`spec:diff: ${ref} → working tree`);
  execFileSync(
    join(repoRoot, 'node_modules/.bin/redocly'),
    ['diff', base, join(repoRoot, 'spec/openapi.yaml'), '--config', join(repoRoot, 'spec/redocly.yaml'), ...passThrough],
    { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
  );
} catch (error) {
  process.exitCode = (error as { status?: number }).status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
