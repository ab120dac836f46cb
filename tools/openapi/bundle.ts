// Bundles the multi-file spec into one OpenAPI document with Redocly, the same tool that lints it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, unknown> };

/** Bundles `spec/openapi.yaml` (or the file given) into a single document; $refs to components are kept. */
export function bundleSpec(entry = join(repoRoot, 'spec/openapi.yaml')): OpenApiDocument {
  const dir = mkdtempSync(join(tmpdir(), 'cw-bundle-'));
  try {
    const out = join(dir, 'openapi.json');
    execFileSync(
      join(repoRoot, 'node_modules/.bin/redocly'),
      ['bundle', entry, '--config', join(repoRoot, 'spec/redocly.yaml'), '--ext', 'json', '--output', out],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    );
    return JSON.parse(readFileSync(out, 'utf8')) as OpenApiDocument;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
