// `pnpm lint`'s dead-code step fails on dead code (knip.jsonc, issue 27 item 9): the step exactly as the
// lint script runs it, with the repository's own knip.jsonc, on a small copy of the repository's layout
// made in a temporary folder — a server whose entry uses one module — once with an export nobody
// imports and a file nothing loads (it fails and names them), once without (it passes, so the failure
// is theirs).
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/paths.js';

const run = promisify(execFile);

/** The knip step of `pnpm lint`, its arguments as the script gives them. */
function knipStep(): string[] {
  const lint: string = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts.lint;
  const step = lint
    .split('&&')
    .map((part) => part.trim())
    .find((part) => part.startsWith('knip'));
  if (!step) throw new Error(`pnpm lint runs no knip step: ${lint}`);
  return step.split(/\s+/).slice(1);
}

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A project laid out like the repository (its knip.jsonc, a server package), holding `files`. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'knip-fixture-'));
  folders.push(root);
  cpSync(join(repoRoot, 'knip.jsonc'), join(root, 'knip.jsonc'));
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'fixture', private: true, type: 'module' }),
    'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
    'packages/server/package.json': JSON.stringify({ name: '@content-workspace/server', private: true, type: 'module' }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Runs the lint's knip step in `root`: its exit code and what it printed. */
async function knip(root: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(repoRoot, 'node_modules/knip/bin/knip.js'), ...knipStep()], { cwd: root });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

const ENTRY = { 'packages/server/src/dev.ts': "import { used } from './used.js';\nconsole.log(used);\n" };

describe("pnpm lint's knip step", () => {
  it('fails on an export nobody imports and on a file nothing loads, naming them', async () => {
    const { code, output } = await knip(
      project({
        ...ENTRY,
        'packages/server/src/used.ts': 'export const used = 1;\nexport const forgotten = 2;\n',
        'packages/server/src/dead.ts': 'export const dead = 3;\n',
      }),
    );
    expect(code).not.toBe(0);
    expect(output).toContain('packages/server/src/dead.ts');
    expect(output).toMatch(/forgotten\s+packages\/server\/src\/used\.ts/);
  }, 120_000);

  it('passes the same project without them', async () => {
    const { code, output } = await knip(project({ ...ENTRY, 'packages/server/src/used.ts': 'export const used = 1;\n' }));
    expect(output).not.toContain('used.ts');
    expect(code).toBe(0);
  }, 120_000);
});
