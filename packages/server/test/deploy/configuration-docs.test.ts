// Every environment variable the server reads is documented, in the README's configuration table and
// in docs/deploy.md's, and nothing else is: a variable added to the code without its line fails here.
// And the systemd unit holds only settings systemd knows (where systemd-analyze is installed).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../src/config.js';
import { repoRoot, run, serverDir } from './build.js';

/** Names read straight from the environment anywhere in the server's sources (besides config.ts's schema). */
function readInSources(): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        for (const [, name] of readFileSync(path, 'utf8').matchAll(/process\.env(?:\.|\[['"])([A-Z][A-Z0-9_]*)/g)) names.add(name!);
      }
    }
  };
  walk(join(serverDir, 'src'));
  return [...names];
}

/** The variables named in the first column of the tables under `## Configuration` (or `## 3. Configuration`). */
function documentedIn(file: string): string[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const section = /^## (?:\d+\. )?Configuration\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1];
  if (!section) throw new Error(`${file} has no "## Configuration" section`);
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!));
}

describe('the configuration documentation', () => {
  const read = [...new Set([...CONFIG_VARIABLES, ...readInSources()])].sort();

  it.each(['README.md', 'docs/deploy.md'])('%s documents exactly the variables the server reads', (file) => {
    expect([...new Set(documentedIn(file))].sort()).toEqual(read);
  });

  it('does not mention NODE_ENV, which the server does not read', () => {
    expect(read).not.toContain('NODE_ENV');
    const files = ['README.md', 'docs/deploy.md', ...readdirSync(join(repoRoot, 'deploy'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))];
    for (const file of files) expect(readFileSync(file.startsWith('/') ? file : join(repoRoot, file), 'utf8'), file).not.toContain('NODE_ENV');
  });

  const systemdAnalyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((path) => existsSync(path));
  it.skipIf(!systemdAnalyze)(`the systemd unit passes systemd-analyze verify${systemdAnalyze ? '' : ' (skipped: systemd-analyze is not installed)'}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cw-unit-'));
    try {
      symlinkSync(join(repoRoot, 'deploy/systemd/content-workspace@.service'), join(dir, 'content-workspace@.service'));
      const verified = await run(systemdAnalyze!, ['verify', '--man=no', join(dir, 'content-workspace@8081.service')], {});
      expect(verified.stderr).toBe('');
      expect(verified.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
