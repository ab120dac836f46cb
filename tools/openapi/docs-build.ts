// `pnpm docs:build [--out DIR]`: the API reference as static files (default dist/reference/, git-ignored):
// index.html, its stylesheet and script, and the bundled openapi.json it links to. The same page the
// server serves at /docs/, rendered from spec/ as it is now.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { REFERENCE_ASSETS, REFERENCE_CSS, REFERENCE_JS } from '../../packages/server/src/http/reference-assets.js';
import { renderReference } from '../../packages/server/src/http/reference-render.js';
import { bundleSpec } from './bundle.js';
import { repoRoot } from './paths.js';

const outIndex = process.argv.indexOf('--out');
const out = resolve(outIndex >= 0 && process.argv[outIndex + 1] ? process.argv[outIndex + 1]! : join(repoRoot, 'dist/reference'));

const spec = bundleSpec();
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'index.html'), renderReference(spec as never));
writeFileSync(join(out, REFERENCE_ASSETS.css), REFERENCE_CSS);
writeFileSync(join(out, REFERENCE_ASSETS.js), REFERENCE_JS);
writeFileSync(join(out, REFERENCE_ASSETS.spec), `${JSON.stringify(spec, null, 2)}\n`);
console.log(`docs:build: wrote ${relative(process.cwd(), join(out, 'index.html')) || 'index.html'} and its assets.`);
