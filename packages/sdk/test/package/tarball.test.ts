// The tarball `pnpm pack` makes from a clean tree (scripts/pack-clean.mjs): what is in it, what its
// package.json promises, and a README whose links work on npm.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const packDir = new URL('../../.pack/', import.meta.url);
const packageDir = new URL('package/', packDir);
const tarball = new URL(readdirSync(packDir).find((name) => name.endsWith('.tgz'))!, packDir);
const manifest = JSON.parse(readFileSync(new URL('package.json', packageDir), 'utf8')) as Record<string, any>;
const readme = readFileSync(new URL('README.md', packageDir), 'utf8');

describe('the tarball', () => {
  it('holds the built code, its declarations, the README and the license, and nothing else', () => {
    const files = execFileSync('tar', ['-tzf', tarball.pathname], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(files).toEqual([
      'package/LICENSE',
      'package/README.md',
      'package/dist/index.cjs',
      'package/dist/index.d.cts',
      'package/dist/index.d.mts',
      'package/dist/index.mjs',
      'package/package.json',
    ]);
  });

  it('carries the repository license', () => {
    const license = readFileSync(new URL('LICENSE', packageDir), 'utf8');
    expect(license).toBe(readFileSync(new URL('../../../../LICENSE', import.meta.url), 'utf8'));
    expect(license).toMatch(/^MIT License/);
  });

  it('inlines the contract: the declarations import nothing but openapi-fetch', () => {
    for (const file of ['index.d.mts', 'index.d.cts', 'index.mjs', 'index.cjs']) {
      const code = readFileSync(new URL(`dist/${file}`, packageDir), 'utf8');
      const imported = [...code.matchAll(/(?:from |require\()["']([^"']+)["']/g)].map((match) => match[1]);
      expect(new Set(imported), file).toEqual(new Set(['openapi-fetch']));
    }
  });
});

describe('package.json as published', () => {
  it('points every entry at a file of the tarball', () => {
    const targets = [manifest.main, manifest.module, manifest.types, ...JSON.stringify(manifest.exports).match(/\.\/dist\/[^"]+/g)!];
    expect(targets.length).toBeGreaterThan(4);
    for (const target of targets) expect(existsSync(new URL(target, packageDir)), target).toBe(true);
    expect(manifest.exports['.'].import.types).toBe('./dist/index.d.mts');
    expect(manifest.exports['.'].require.types).toBe('./dist/index.d.cts');
  });

  it('depends on openapi-fetch only, as a caret range (no duplicate copy forced on applications)', () => {
    expect(manifest.dependencies).toEqual({ 'openapi-fetch': expect.stringMatching(/^\^\d+\.\d+\.\d+$/) });
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
  });

  it('names its license, repository, homepage and issue tracker', () => {
    expect(manifest.license).toBe('MIT');
    expect(manifest.repository).toEqual({
      type: 'git',
      url: 'git+https://github.com/content-workspace/content-workspace.git',
      directory: 'packages/sdk',
    });
    expect(manifest.homepage).toBe('https://github.com/content-workspace/content-workspace/tree/main/packages/sdk#readme');
    expect(manifest.bugs).toEqual({ url: 'https://github.com/content-workspace/content-workspace/issues' });
  });
});

describe('the README on npm', () => {
  it('links only to absolute https addresses (npm has no repository to resolve relative links in)', () => {
    const links = [
      ...[...readme.matchAll(/\]\(([^)\s]+)/g)].map((match) => match[1]!),
      ...[...readme.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)].map((match) => match[1]!),
      ...[...readme.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1]!),
    ];
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) expect(link).toMatch(/^https:\/\//);
  });

  it('shows how to install the package', () => {
    expect(readme).toContain('npm install @content-workspace/sdk');
  });
});
