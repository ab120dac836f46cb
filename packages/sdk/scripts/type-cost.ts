// `pnpm --filter @content-workspace/sdk bench:types [--rounds N] [--against <packed package dir>]`: what
// the SDK's published types cost an application (issue 29 item 9), measured, not asserted. The consumer
// of test/package/consumer-source.ts is type-checked by `tsc` against the packed package
// (.pack/package, from `pnpm pack:clean`), rounds alternating with a baseline project that does not use
// the SDK, in the same run: the ratio of the medians is the figure (the target is under 2×), beside
// the declarations' sizes and TypeScript's own counts (types, instantiations, memory), which do not
// depend on the machine's load. `--against` adds another packed SDK (an earlier build) as a side.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consumerSource } from '../test/package/consumer-source.js';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(sdkDir, 'node_modules/typescript/bin/tsc');
const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
};
const rounds = Number(option('rounds') ?? 5);
const against = option('against');

// An application of about the same length that calls the API with fetch: what TypeScript costs anyway.
const baselineSource = `
declare const process: { argv: string[] };

type Organization = { id: string; title: string };
type Page<Item> = { items: Item[]; next?: { page: string } };

async function main(): Promise<void> {
  const base = process.argv[2]!;
  const organizations: Organization[] = [];
  let page: string | undefined;
  do {
    const response = await fetch(\`\${base}/v1/orgs?limit=1\${page ? \`&page=\${page}\` : ''}\`, { headers: { authorization: 'Bearer cw_consumer' } });
    const body = (await response.json()) as Page<Organization>;
    organizations.push(...body.items);
    page = body.next?.page;
  } while (page);
  const space = (await (await fetch(\`\${base}/v1/spaces/s1\`)).json()) as { title: string };
  const missing = await fetch(\`\${base}/v1/orgs/gone\`);
  console.log(JSON.stringify({ titles: organizations.map((org) => org.title), space: space.title, notFound: missing.status === 404 }));
}

void main();
`;

const tsconfig = (skipLibCheck: boolean) =>
  JSON.stringify({
    compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022', lib: ['es2022', 'dom'], types: [], strict: true, skipLibCheck, noEmit: true },
    include: ['index.ts'],
  });

const root = mkdtempSync(join(tmpdir(), 'cw-sdk-type-cost-'));
const openapiFetch = realpathSync(dirname(createRequire(join(sdkDir, 'package.json')).resolve('openapi-fetch/package.json')));

/** A project of `source`, with the packed SDK at `packageDir` installed when given. */
function project(name: string, source: string, packageDir?: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  writeFileSync(join(dir, 'index.ts'), source);
  if (packageDir) {
    cpSync(packageDir, join(dir, 'node_modules/@content-workspace/sdk'), { recursive: true });
    symlinkSync(openapiFetch, join(dir, 'node_modules/openapi-fetch'), 'dir');
    // openapi-fetch's one dependency, beside it in pnpm's store.
    symlinkSync(realpathSync(join(openapiFetch, '../openapi-typescript-helpers')), join(dir, 'node_modules/openapi-typescript-helpers'), 'dir');
  }
  return dir;
}

/** One `tsc` run: its wall time, and TypeScript's counts from --extendedDiagnostics. */
function typeCheck(dir: string, skipLibCheck: boolean): { seconds: number; types: number; instantiations: number; memoryMb: number } {
  writeFileSync(join(dir, 'tsconfig.json'), tsconfig(skipLibCheck));
  const started = performance.now();
  const output = execFileSync(process.execPath, [tsc, '-p', dir, '--extendedDiagnostics'], { encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  const count = (label: string) => Number(new RegExp(`^${label}:\\s+(\\d+)`, 'm').exec(output)?.[1]);
  return { seconds, types: count('Types'), instantiations: count('Instantiations'), memoryMb: Math.round(count('Memory used') / 1024) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The declaration files of a packed SDK and their sizes. */
function declarations(packageDir: string): Record<string, number> {
  const dist = join(packageDir, 'dist');
  return Object.fromEntries(readdirSync(dist).filter((file) => /\.d\.[cm]?ts$/.test(file)).map((file) => [file, statSync(join(dist, file)).size]));
}

const sides = [
  { label: 'baseline (no SDK)', dir: project('baseline', baselineSource) },
  { label: 'this SDK', dir: project('sdk', consumerSource, resolve(sdkDir, '.pack/package')), packageDir: resolve(sdkDir, '.pack/package') },
  ...(against ? [{ label: `SDK at ${against}`, dir: project('against', consumerSource, resolve(against)), packageDir: resolve(against) }] : []),
];

try {
  const times = sides.map(() => [] as number[]);
  let counts: ReturnType<typeof typeCheck>[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternating, so a change in the machine's load falls on every side alike.
    const results = sides.map((side) => typeCheck(side.dir, true));
    results.forEach((result, i) => times[i]!.push(result.seconds));
    counts = results;
  }
  const full = sides.map((side) => typeCheck(side.dir, false));
  const baseline = median(times[0]!);
  for (const [i, side] of sides.entries()) {
    console.log(`\n${side.label}`);
    if (side.packageDir) {
      const files = declarations(side.packageDir);
      const total = Object.values(files).reduce((sum, size) => sum + size, 0);
      console.log(`  declarations: ${Object.entries(files).map(([file, size]) => `${file} ${(size / 1024).toFixed(0)} kB`).join(', ')} (${(total / 1024).toFixed(0)} kB in all)`);
    }
    const ratio = median(times[i]!) / baseline;
    console.log(
      `  tsc with skipLibCheck: median ${median(times[i]!).toFixed(2)} s of ${rounds} (${times[i]!.map((t) => t.toFixed(2)).join(', ')}), ${ratio.toFixed(2)}× the baseline; ` +
        `${counts[i]!.types} types, ${counts[i]!.instantiations} instantiations, ${counts[i]!.memoryMb} MB`,
    );
    console.log(`  tsc without skipLibCheck: ${full[i]!.seconds.toFixed(2)} s, ${full[i]!.memoryMb} MB`);
  }
  const loads = loadavg().map((load) => load.toFixed(1));
  console.log(`\nload average at the end: ${loads.join(' ')}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
