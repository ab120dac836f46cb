// Lint for every package (part of `pnpm test`). Besides typescript-eslint's recommended rules, it keeps
// the server's layers pointing one way (docs/architecture.md, "Layers"): areas use access, auth,
// content and db; the content engine, access and auth never reach into areas or HTTP; db knows nothing
// above it; http knows no area; repositories know nothing of HTTP; mappers call no services or
// repositories. And every path a comment cites exists (tools/lint/, docs/contributing.md "Citing files").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';
import repository from './tools/lint/eslint-plugin-repository.js';

const SERVER = 'packages/server/src';

// The server's floors (docs/architecture.md, "The server's layers"), as eslint-plugin-boundaries element
// types: the first descriptor matching a file gives its type.
const elements = [
  { type: 'areas-registry', pattern: `${SERVER}/areas/index.ts`, mode: 'file' },
  { type: 'area-kit', pattern: `${SERVER}/areas/{area,lifecycle,permissions-objects}.ts`, mode: 'file' },
  { type: 'area', pattern: `${SERVER}/areas/*`, capture: ['area'] },
  ...['agents', 'cli', 'http', 'access', 'auth', 'content', 'jobs', 'parsing', 'db'].map((type) => ({ type, pattern: `${SERVER}/${type}` })),
  // Leaves every floor may use: the closed set of API errors, ids, addresses, keys, the guarded fetch…
  { type: 'leaf', pattern: `${SERVER}/{errors,ids,urls,keys,outbound,logger,schemas,metrics,config,version,processes,start-failure,mcp-http}.ts`, mode: 'file' },
  // The state of the process (AppContext, the caches): its types are used everywhere, its code by the process.
  { type: 'state', pattern: `${SERVER}/{context,caches}.ts`, mode: 'file' },
  { type: 'process', pattern: `${SERVER}/*.ts`, mode: 'file' },
];
// Files with a role of their own inside any floor.
const files = [
  { category: 'repository', pattern: `${SERVER}/**/*.repository.ts` },
  { category: 'mapper', pattern: `${SERVER}/**/*.mapper.ts` },
  { category: 'test', pattern: `${SERVER}/**/*.test.ts` },
];

const AREA_USES = ['area', 'area-kit', 'access', 'auth', 'content', 'jobs', 'parsing', 'db', 'leaf'];
/** What each floor may import (value imports), and what it may import for types only. */
const floors = {
  process: { uses: ['areas-registry', 'area-kit', 'area', 'agents', 'cli', 'http', 'access', 'auth', 'content', 'jobs', 'parsing', 'db', 'leaf', 'state', 'process'] },
  cli: { uses: ['process', 'area', 'auth', 'db', 'leaf', 'state'] },
  'areas-registry': { uses: ['area-kit', 'area', 'access', 'leaf'], types: ['http', 'jobs', 'state'] },
  // Agents (MCP, Markdown for agents) stand beside the areas: they call the API through http/'s operations.
  agents: { uses: ['area', 'http', 'access', 'auth', 'content', 'db', 'leaf'], types: ['state'] },
  area: { uses: AREA_USES, types: ['http', 'state'] },
  'area-kit': { uses: ['area-kit', 'access', 'db', 'leaf'], types: ['http', 'jobs', 'state'] },
  http: { uses: ['access', 'auth', 'db', 'leaf'], types: ['jobs', 'state'] },
  content: { uses: ['db', 'parsing', 'leaf'], types: ['access', 'jobs', 'state'] },
  access: { uses: ['auth', 'db', 'leaf'], types: ['area', 'state'] },
  auth: { uses: ['db', 'leaf'], types: ['state'] },
  jobs: { uses: ['db', 'leaf'] },
  // The parse worker loads the areas' and the content engine's pure readers by name (parsing/tasks.ts).
  parsing: { uses: ['area', 'content', 'leaf'] },
  db: { uses: ['leaf'], types: ['state'] },
  leaf: { uses: ['leaf'], types: ['db'] },
  state: { types: ['area', 'access', 'auth', 'content', 'db', 'http', 'jobs', 'parsing', 'area-kit', 'leaf', 'state'] },
};

const layerPolicies = Object.entries(floors).flatMap(([type, { uses = [], types = [] }]) => [
  ...(uses.length ? [{ from: { element: { type } }, allow: { to: { element: { types: uses } } } }] : []),
  ...(types.length ? [{ from: { element: { type } }, allow: { to: { element: { types } }, dependency: { kind: 'type' } } }] : []),
]);

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
  {
    // The floors hold (issue 27, item 3): each floor imports only the floors below it; an area reaches
    // another area only through that area's index.ts; repositories know no area and nothing of HTTP,
    // on every floor (added to the floors' rules, not replacing them). Proven on planted files by
    // tools/lint/boundaries.test.ts.
    files: [`${SERVER}/**/*.ts`],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'boundaries/files': files,
      'boundaries/include': [`${SERVER}/**/*.ts`],
      // The single-file floors (the leaves, the state, the process) use `mode: 'file'`, deprecated in 7.x
      // but working; 7.2.0 has no other way to make one file an element.
      'boundaries/legacy-warnings': false,
      // Imports name the built `.js`; the resolver finds the `.ts` source.
      'import/resolver': { typescript: { project: 'packages/server/tsconfig.json' } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message: '{{from.element.type}} may not import {{to.element.type}} (docs/architecture.md, "The server\'s layers").',
          policies: [
            ...layerPolicies,
            {
              from: { element: { types: ['area', 'agents', 'cli', 'process', 'access'] } },
              disallow: { to: { element: { type: 'area', fileInternalPath: '!index.ts' } } },
              message: 'Another area is reached only through its index.ts (docs/architecture.md, "The server\'s layers").',
            },
            {
              from: { file: { categories: 'repository' } },
              disallow: { to: { element: { types: ['area', 'areas-registry', 'agents', 'cli', 'http', 'process'] } } },
              message: 'Repositories return rows or undefined: they know no area and nothing of HTTP.',
            },
            // The purge of idempotency keys (http/) runs as a job of the users area, which owns the keys.
            { from: { element: { type: 'area' } }, allow: { to: { element: { type: 'http', fileInternalPath: '*.job.ts' } } } },
            // Unit tests beside the code may reach what they test.
            { from: { file: { categories: 'test' } }, allow: { to: { element: { types: '*' } } } },
          ],
        },
      ],
    },
  },
  {
    files: [`${SERVER}/**/*.repository.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/errors.js'], message: 'Repositories return rows or undefined; they know nothing of HTTP or its errors.' }] }],
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
