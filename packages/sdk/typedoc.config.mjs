// API reference: `pnpm docs` writes docs-api/ (gitignored). Warnings fail the run, so broken
// {@link}s and undocumented surprises are caught.
import { OptionDefaults } from 'typedoc';

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  entryPoints: ['src/index.ts'],
  tsconfig: 'tsconfig.build.json',
  out: 'docs-api',
  name: '@content-workspace/sdk',
  readme: 'none',
  excludePrivate: true,
  excludeInternal: true,
  treatWarningsAsErrors: true,
  // The contract's generated comments use OpenAPI's vocabulary.
  blockTags: [...OptionDefaults.blockTags, '@description', '@constant'],
  // The contract's raw types (`paths`, `components`, `operations`: every path, schema and response)
  // are exported for advanced use but not rendered: as pages they made 55 MB of HTML, repeating each
  // schema wherever it is used. Their documentation is the API reference (/docs/ and `pnpm
  // docs:build`), and editors show their JSDoc from the declarations. The SDK's own API is rendered.
  externalPattern: ['**/node_modules/**', '**/packages/contract/**'],
  excludeExternals: true,
  // Type helpers that only shape the exported signatures.
  intentionallyNotExported: [
    'BodyArgs',
    'InitArgs',
    'Media',
    'NoArguments',
    'OkBody',
    'OnlySuccess',
    'PaginateArgs',
    'ParameterArgs',
    'PathArgs',
    'Simplify',
  ],
};
