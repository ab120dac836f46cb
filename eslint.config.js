// Lint for every package (part of `pnpm test`). Besides typescript-eslint's recommended rules, it keeps
// the server's layers pointing one way (docs/architecture.md, "Layers"): areas use access, auth,
// content and db; the content engine, access and auth never reach into areas or HTTP; db knows nothing
// above it; http knows no area; repositories know nothing of HTTP; mappers call no services or
// repositories. And every path a comment cites exists (tools/lint/, docs/contributing.md "Citing files").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import repository from './tools/lint/eslint-plugin-repository.js';

const SERVER = 'packages/server/src';

/**
 * `no-restricted-imports` for `files`, forbidding imports of the named folders (`typesOnly`: those
 * folders may still be imported for types).
 */
function layer(files, forbidden, message, typesOnly = []) {
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...forbidden.map((folder) => ({ group: [`**/${folder}/*`, `**/${folder}/**`], message })),
            ...typesOnly.map((folder) => ({ group: [`**/${folder}/*`, `**/${folder}/**`], allowTypeImports: true, message })),
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'packages/server/.dist-test-*/**', // builds of test/deploy, removed after each run
      '**/.pack/**',
      'packages/contract/**', // generated
      'packages/sdk/src/generated/**', // generated
      'packages/sdk/docs-api/**',
      'bench/results/**',
      '.data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    plugins: { repository },
    rules: {
      'repository/cited-paths-exist': 'error',
      // Unused arguments named with a leading underscore document a fixed signature.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Type-only imports stay type-only at run time (no import cycles through types).
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // The SDK's argument types build objects by intersection, where `{}` is the identity ("no further
    // arguments"), and its client interfaces extend one base to give hovers a name.
    files: ['packages/sdk/src/**/*.ts', 'packages/sdk/test/**/*.ts'],
    rules: { '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends', allowObjectTypes: 'always' }] },
  },
  {
    // Tests and benchmarks drive real servers with loosely typed fixtures and raw responses.
    files: ['**/*.test.ts', '**/test/**/*.ts', 'bench/**/*.ts', 'tools/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  layer([`${SERVER}/db/**/*.ts`], ['http', 'access', 'auth', 'areas', 'content', 'jobs'], 'db/ knows nothing above it.'),
  layer([`${SERVER}/content/**/*.ts`], ['http', 'areas'], 'The content engine is shared by areas: it knows no area and nothing of HTTP (access only for its row types).', ['access']),
  layer([`${SERVER}/access/**/*.ts`], ['http'], 'access/ decides from the declarations and the database: it knows no area (but for row types) and nothing of HTTP.', ['areas']),
  layer([`${SERVER}/auth/**/*.ts`], ['http', 'access', 'areas', 'content'], 'auth/ (tokens, identity) sits below access and the areas.'),
  layer([`${SERVER}/http/**/*.ts`], ['areas', 'content'], 'http/ knows no area: handlers reach it through the registry.'),
  layer([`${SERVER}/jobs/**/*.ts`], ['http', 'access', 'areas'], 'jobs/ is the queue: workers come from the area descriptors.'),
  {
    files: [`${SERVER}/**/*.repository.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/http/*', '**/errors.js'], message: 'Repositories return rows or undefined; they know nothing of HTTP or its errors.' }] },
      ],
    },
  },
  {
    files: [`${SERVER}/**/*.mapper.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/*.service.js', '**/*.repository.js'], allowTypeImports: true, message: 'Mappers turn rows into API objects: they call no services or repositories.' },
            { group: ['**/http/*'], message: 'Mappers know nothing of HTTP.' },
          ],
        },
      ],
    },
  },
);
