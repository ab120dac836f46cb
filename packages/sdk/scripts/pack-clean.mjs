// Packs the SDK the way it is published, from a tree without a previous build: removes dist/ and
// .pack/, runs `pnpm pack` (whose `prepack` script builds), and unpacks the tarball into
// .pack/package/ for the package tests (vitest.package.config.ts), attw and publint. A tarball that
// came out without the code fails those tests, whatever was built before.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const packDir = resolve(root, '.pack');
rmSync(resolve(root, 'dist'), { recursive: true, force: true });
rmSync(packDir, { recursive: true, force: true });

execFileSync('pnpm', ['pack', '--pack-destination', packDir], { cwd: root, stdio: 'inherit' });
const tarballs = readdirSync(packDir).filter((name) => name.endsWith('.tgz'));
if (tarballs.length !== 1) throw new Error(`Expected one tarball in .pack/, found: ${tarballs.join(', ') || 'none'}`);
execFileSync('tar', ['-xzf', tarballs[0], '-C', packDir], { cwd: packDir, stdio: 'inherit' });
