// The production artifact as an operator gets it: `pnpm release` (tools/release.ts) makes the archive
// from the pnpm store, offline; unpacked into a fresh folder outside the checkout — no development
// dependency, no node_modules above it to fall back on — its CLI migrates a new database and creates
// an administrator, and its server, run by plain node, answers /readyz, the API and /docs/, and stops
// on SIGTERM. Its size is printed for the release notes.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createClient } from '@content-workspace/sdk';
import { readableFontFiles } from '../../src/areas/sites/published/social-fonts.js';
import { captureOutput } from '../fault/child-server.js';
import { freePorts, repoRoot, run, serverDir, serviceEnvironment } from './build.js';

const exec = promisify(execFile);
const serverPackage = JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('the release archive, unpacked on a fresh host', { timeout: 300_000 }, () => {
  let dir: string;
  let archive: string;
  let home: string;
  let databaseUrl: string;
  const database = `cw_artifact_${process.pid}`;
  const admin = () => new pg.Client({ connectionString: inject('databaseAdminUrl') });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cw-artifact-'));
    // The command the release notes name, as CI runs it: the whole environment (pnpm finds its store by it).
    const released = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn('pnpm', ['release', '--out', join(dir, 'out'), '--fast'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output }));
    });
    expect(released.code, released.output).toBe(0);
    archive = join(dir, 'out', `content-workspace-${serverPackage.version}-${process.platform}-${process.arch}.tar.gz`);
    // What an operator does with it: check it, unpack it.
    const host = join(dir, 'opt');
    await exec('mkdir', [host]);
    await exec('tar', ['-xzf', archive, '-C', host]);
    home = join(host, `content-workspace-${serverPackage.version}`);

    const client = admin();
    await client.connect();
    await client.query(`CREATE DATABASE ${database}`);
    await client.end();
    const url = new URL(inject('databaseAdminUrl'));
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }, 300_000);

  afterAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
    await client.end();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  it('is one archive named by version and platform, with its checksum', async () => {
    const [expected, name] = readFileSync(`${archive}.sha256`, 'utf8').trim().split(/\s+/);
    expect(name).toBe(`content-workspace-${serverPackage.version}-${process.platform}-${process.arch}.tar.gz`);
    expect(createHash('sha256').update(readFileSync(archive)).digest('hex')).toBe(expected);
    const top = (await exec('tar', ['-tzf', archive], { maxBuffer: 256 * 1024 * 1024 })).stdout.split('\n').filter(Boolean).map((path) => path.split('/')[0]);
    expect(new Set(top)).toEqual(new Set([`content-workspace-${serverPackage.version}`]));
    expect(readdirSync(home).sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'deploy', 'dist', 'node_modules', 'package.json', 'pnpm-lock.yaml']);
    expect(readdirSync(join(home, 'deploy'), { recursive: true }).sort()).toEqual(
      expect.arrayContaining(['systemd/content-workspace@.service', 'nginx/content-workspace.conf', 'nginx/content-workspace-proxy.conf']),
    );
    const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    const unpacked = Number((await exec('du', ['-sk', home])).stdout.split('\t')[0]) * 1024;
    console.info(`release archive: ${megabytes(readFileSync(archive).length)} (compressed with --fast), ${megabytes(unpacked)} unpacked`);
  });

  it('holds the runtime dependencies only, with the patches applied, and nothing above it to fall back on', () => {
    for (let folder = dirname(home); folder !== dirname(folder); folder = dirname(folder)) expect(existsSync(join(folder, 'node_modules')), folder).toBe(false);
    const installed = readdirSync(join(home, 'node_modules'), { withFileTypes: true }).flatMap((entry) =>
      entry.name.startsWith('@') ? readdirSync(join(home, 'node_modules', entry.name)).map((name) => `${entry.name}/${name}`) : entry.name.startsWith('.') ? [] : [entry.name],
    );
    expect(installed.sort()).toEqual(Object.keys(serverPackage.dependencies).sort());
    // Nor anywhere deeper: the development toolchain is not in the store folder either.
    const stored = readdirSync(join(home, 'node_modules/.pnpm'));
    for (const tool of ['vitest', 'typescript', 'tsdown', 'tsx', 'esbuild', 'playwright-core', 'kysely-codegen', 'fast-check', '@redocly+cli', 'eslint']) {
      expect(stored.filter((name) => name.startsWith(`${tool}@`)), tool).toEqual([]);
    }
    expect(readFileSync(join(home, 'node_modules/express-openapi-validator/dist/middlewares/openapi.metadata.js'), 'utf8')).toContain('Patched (content-workspace)');
  });

  it("holds every font file the social image reads, and none of the font packages' other files", () => {
    for (const { packageName, files } of readableFontFiles()) {
      const shipped = readdirSync(join(home, 'node_modules', packageName, 'files'));
      expect(shipped.sort(), packageName).toEqual([...files].sort());
    }
  });

  it('says its version; its CLI migrates a new database and creates the first administrator; the server answers and stops', async () => {
    const node = (args: string[], env: Record<string, string> = {}) => run(process.execPath, args, env, home);
    expect((await node(['dist/main.js', '--version'])).stdout).toBe(`content-workspace ${serverPackage.version}\n`);
    expect((await node(['dist/cli.js', '--version'])).stdout).toBe(`content-workspace ${serverPackage.version}\n`);

    const migrated = await node(['dist/cli.js', 'migrate'], { DATABASE_URL: databaseUrl });
    expect(migrated, migrated.stderr).toMatchObject({ code: 0, stdout: 'Database is up to date.\n' });
    const bootstrapped = await node(['dist/cli.js', 'admin', 'bootstrap', '--email', 'ops@example.com', '--org', 'Operations'], { DATABASE_URL: databaseUrl });
    expect(bootstrapped.code, bootstrapped.stderr).toBe(0);
    const token = bootstrapped.stdout.trim().split('\n').at(-1)!;

    const [port] = await freePorts(1);
    const server = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
      cwd: home,
      env: serviceEnvironment({ DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null }>((resolve) => server.once('exit', (code) => resolve({ code })));
    const output = captureOutput(server);
    try {
      const listening = await output.waitForLog(/^listening$/, 120_000);
      expect(listening).toMatchObject({ address: `127.0.0.1:${port}`, url: `http://127.0.0.1:${port}` });
      const url = `http://127.0.0.1:${port}`;
      expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready' });
      const { data } = await createClient({ baseUrl: url, token, maxRetries: 0 }).GET('/v1/orgs');
      expect(data?.items.map((organization) => organization.title)).toEqual(['Operations']);
      // The contract (openapi.json, read from its package at run time) is in the archive: the reference renders.
      expect((await fetch(`${url}/docs/`)).status).toBe(200);
      // Production: no demo account, no banner.
      expect(output.stderr()).toBe('');
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited).toEqual({ code: 0 });
    expect(output.logs.map((line) => line.msg)).toContain('stopped');
  });
});
