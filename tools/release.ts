// `pnpm release [--out DIR] [--fast] [--tag]`: the server as one archive an operator copies to a host
// and runs with `node` — `content-workspace-<version>-<platform>-<arch>.tar.gz` and its `.sha256`.
//
// Inside, one folder `content-workspace-<version>/`: `dist/` (the build: main.js, cli.js, workers),
// `node_modules/` with the server's runtime dependencies only (`pnpm deploy --prod`, from the pnpm
// store the install filled: no network; of the social image's font packages, only the files it reads),
// `package.json`, `deploy/` (the systemd unit, the nginx
// example), CHANGELOG.md and LICENSE. The version is the server package's; CHANGELOG.md must have
// its section. `--tag` then tags the commit `v<version>` (the tree must be clean). `--fast`
// compresses less (tests). docs/deploy.md, "Install a release", says how operators install it; the test
// packages/server/test/deploy/artifact.test.ts unpacks it in a fresh folder and runs it.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, createReadStream, createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { readableFontFiles } from '../packages/server/src/areas/sites/published/social-fonts.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const serverDir = join(repoRoot, 'packages/server');

export type Release = { archive: string; checksum: string; version: string; folder: string; bytes: number };

class ReleaseError extends Error {}

/** The version to release: the server package's, with its section in CHANGELOG.md. */
function releaseVersion(): string {
  const { version } = JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8')) as { version: string };
  const changelog = readFileSync(join(repoRoot, 'CHANGELOG.md'), 'utf8');
  if (!new RegExp(`^## ${version.replaceAll('.', '\\.')}(\\s|$)`, 'm').test(changelog)) {
    throw new ReleaseError(`CHANGELOG.md has no "## ${version}" section: describe the release there first.`);
  }
  return version;
}

function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise() : reject(new ReleaseError(`${command} ${args.join(' ')} failed (exit ${code}):\n${output.slice(-4000)}`))));
  });
}

/** `folder` (inside `parent`) as a gzip-compressed tar archive at `archive`. */
async function writeArchive(parent: string, folder: string, archive: string, level: number): Promise<void> {
  const tar = spawn('tar', ['-cf', '-', '-C', parent, folder], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolvePromise, reject) => {
    tar.on('error', reject);
    tar.on('close', (code) => (code === 0 ? resolvePromise() : reject(new ReleaseError(`tar failed (exit ${code})`))));
  });
  await Promise.all([pipeline(tar.stdout, createGzip({ level }), createWriteStream(archive)), exited]);
}

/**
 * Removes from the deployed font packages the files the social image never reads (the weights it does
 * not draw, the `.woff2` copies: ~250 MB of CJK faces), as
 * packages/server/src/areas/sites/published/social-fonts.ts lists them. `pnpm deploy` links or copies
 * files out of the store: removing them here leaves the store as it was.
 */
function pruneFontFiles(root: string): void {
  for (const { packageName, files } of readableFontFiles()) {
    const folder = join(realpathSync(join(root, 'node_modules', packageName)), 'files');
    if (!folder.startsWith(`${realpathSync(root)}/`)) throw new ReleaseError(`${packageName} is not inside the release folder (${folder})`);
    const kept = new Set(files);
    for (const name of readdirSync(folder)) if (!kept.has(name)) rmSync(join(folder, name));
  }
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

export async function buildRelease(options: { out: string; fast?: boolean }): Promise<Release> {
  const version = releaseVersion();
  const folder = `content-workspace-${version}`;
  const name = `${folder}-${process.platform}-${process.arch}.tar.gz`;
  const staging = mkdtempSync(join(tmpdir(), 'cw-release-'));
  try {
    const root = join(staging, folder);
    // The runtime dependencies from the lockfile, out of the store (`--offline`: nothing is fetched).
    // pnpm 10 deploys from a shared lockfile only with injected workspace packages; for this command
    // only, so the workspace itself keeps its links (the contract package stays live while editing).
    await run('pnpm', ['--config.inject-workspace-packages=true', '--filter', '@content-workspace/server', 'deploy', '--prod', '--offline', root], repoRoot);
    pruneFontFiles(root);
    // The build, straight into the archive's folder (tsdown.config.ts: the contract bundled, workers copied).
    await run(join(serverDir, 'node_modules/.bin/tsdown'), ['--out-dir', join(root, 'dist'), '--log-level', 'warn'], serverDir);
    cpSync(join(repoRoot, 'deploy'), join(root, 'deploy'), { recursive: true });
    for (const file of ['CHANGELOG.md', 'LICENSE']) cpSync(join(repoRoot, file), join(root, file));
    mkdirSync(options.out, { recursive: true });
    const archive = join(options.out, name);
    await writeArchive(staging, folder, archive, options.fast ? 1 : 9);
    const checksum = `${archive}.sha256`;
    writeFileSync(checksum, `${await sha256(archive)}  ${name}\n`);
    return { archive, checksum, version, folder, bytes: statSync(archive).size };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Tags HEAD `v<version>` (annotated), refusing a tree with changes or a tag that exists. */
function tagRelease(version: string): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  if (git('status', '--porcelain')) throw new ReleaseError('The working tree has changes: commit them before tagging a release.');
  const tag = `v${version}`;
  if (git('tag', '--list', tag)) throw new ReleaseError(`Tag ${tag} exists already: raise the version in packages/server/package.json (and CHANGELOG.md).`);
  git('tag', '--annotate', tag, '--message', `Content Workspace ${version}`);
  return tag;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: join(repoRoot, 'releases') }, fast: { type: 'boolean', default: false }, tag: { type: 'boolean', default: false } } });
  try {
    const release = await buildRelease({ out: resolve(values.out!), fast: values.fast! });
    console.log(`${release.archive} (${(release.bytes / 1024 / 1024).toFixed(1)} MB)`);
    console.log(`${release.checksum}`);
    if (values.tag) console.log(`Tagged ${tagRelease(release.version)}: push it with \`git push origin v${release.version}\`, then attach ${basename(release.archive)} and its .sha256 to the release.`);
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
