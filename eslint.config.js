// Lint for every package (part of `pnpm test`). Besides typescript-eslint's recommended rules, it keeps
// the server's layers pointing one way (docs/architecture.md, "Layers"): areas use access, auth,
// content, publication and db; the content engine, access and auth never reach into areas or HTTP; db knows nothing
// above it; http knows no area; repositories know nothing of HTTP; mappers call no services or
// repositories. And every path a comment cites exists (tools/lint/, docs/contributing.md "Citing files").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';
import repository from './tools/lint/eslint-plugin-repository.js';

const SERVER = 'packages/server/src';

// The server's floors (docs/architecture.md, "The server's layers"), in eslint-plugin-boundaries 7's terms.
// Every file of the server belongs to one floor, its file category (`boundaries/files`, the first
// descriptor matching it: `files-single-match`), which the policies below select on. The floors that are
// folders are also elements (`boundaries/elements`, matched from the repository root:
// `partialMatch: false`), so that imports inside one folder — within an area, within db/ — are the
// element's own business; an area is its own element, named by `area`. The single-file floors (the
// leaves, the state, the process, the areas' registry and kit) are no element: each import between them
// is checked.
const FOLDER_FLOORS = ['agents', 'cli', 'http', 'access', 'auth', 'content', 'publication', 'jobs', 'parsing', 'db'];
const elements = [
  { type: 'area', pattern: `${SERVER}/areas/*`, capture: ['area'], partialMatch: false },
  ...FOLDER_FLOORS.map((type) => ({ type, pattern: `${SERVER}/${type}`, partialMatch: false })),
];
const files = [
  { category: 'areas-registry', pattern: `${SERVER}/areas/index.ts` },
  { category: 'area-kit', pattern: `${SERVER}/areas/{area,lifecycle,permissions-objects}.ts` },
  { category: 'area', pattern: `${SERVER}/areas/*/**/*` },
  ...FOLDER_FLOORS.map((category) => ({ category, pattern: `${SERVER}/${category}/**/*` })),
  // Leaves every floor may use: the closed set of API errors, ids, addresses, keys, the guarded fetch…
  { category: 'leaf', pattern: `${SERVER}/{errors,ids,urls,keys,outbound,logger,schemas,metrics,config,version,processes,start-failure,mcp-http}.ts` },
  // The state of the process (AppContext, the caches): its types are used everywhere, its code by the process.
  { category: 'state', pattern: `${SERVER}/{context,caches}.ts` },
  { category: 'process', pattern: `${SERVER}/*.ts` },
];
/** The files of a floor, as a policy selects them. */
const floor = (name) => ({ file: { categories: name } });
// Files with a role of their own inside any floor.
const REPOSITORY = { file: { path: `${SERVER}/**/*.repository.ts` } };
const TEST = { file: { path: `${SERVER}/**/*.test.ts` } };

const AREA_USES = ['area', 'area-kit', 'access', 'auth', 'content', 'publication', 'jobs', 'parsing', 'db', 'leaf'];
/** What each floor may import (value imports), and what it may import for types only. */
const floors = {
  process: { uses: ['areas-registry', 'area-kit', 'area', 'agents', 'cli', 'http', 'access', 'auth', 'content', 'publication', 'jobs', 'parsing', 'db', 'leaf', 'state', 'process'] },
  cli: { uses: ['process', 'area', 'auth', 'db', 'leaf', 'state'] },
  'areas-registry': { uses: ['area-kit', 'area', 'access', 'leaf'], types: ['http', 'jobs', 'state'] },
  // Agents (MCP, Markdown for agents) stand beside the areas: they call the API through http/'s operations.
  agents: { uses: ['area', 'http', 'access', 'auth', 'content', 'db', 'leaf'], types: ['state'] },
  area: { uses: AREA_USES, types: ['http', 'state'] },
  'area-kit': { uses: ['area-kit', 'access', 'db', 'leaf'], types: ['http', 'jobs', 'state'] },
  http: { uses: ['access', 'auth', 'db', 'leaf'], types: ['jobs', 'state'] },
  content: { uses: ['db', 'parsing', 'leaf'], types: ['access', 'jobs', 'state'] },
  // Where published sites and their spaces are read (site, section and space addresses): below the areas,
  // so that spaces, collections and content show a space's published address without the sites area.
  publication: { uses: ['db', 'leaf'] },
  access: { uses: ['auth', 'db', 'leaf'], types: ['area', 'state'] },
  auth: { uses: ['db', 'leaf'], types: ['state'] },
  jobs: { uses: ['db', 'leaf'] },
  // The parse worker loads the areas' and the content engine's pure readers by name (parsing/tasks.ts).
  parsing: { uses: ['area', 'content', 'leaf'] },
  db: { uses: ['leaf'], types: ['state'] },
  leaf: { uses: ['leaf'], types: ['db'] },
  state: { types: ['area', 'access', 'auth', 'content', 'publication', 'db', 'http', 'jobs', 'parsing', 'area-kit', 'leaf', 'state'] },
};

const layerPolicies = Object.entries(floors).flatMap(([name, { uses = [], types = [] }]) => [
  ...(uses.length ? [{ from: floor(name), allow: { to: uses.map(floor) } }] : []),
  ...(types.length ? [{ from: floor(name), allow: { to: types.map(floor), dependency: { kind: 'type' } } }] : []),
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
      'boundaries/files-single-match': true,
      'boundaries/include': [`${SERVER}/**/*.ts`],
      // Imports name the built `.js`; the resolver finds the `.ts` source.
      'import/resolver': { typescript: { project: 'packages/server/tsconfig.json' } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message: '{{from.file.categories.[0]}} may not import {{to.file.categories.[0]}} (docs/architecture.md, "The server\'s layers").',
          policies: [
            ...layerPolicies,
            {
              from: ['area', 'agents', 'cli', 'process', 'access'].map(floor),
              disallow: { to: { element: { type: 'area', fileInternalPath: '!index.ts' } } },
              message: 'Another area is reached only through its index.ts (docs/architecture.md, "The server\'s layers").',
            },
            {
              from: REPOSITORY,
              disallow: { to: ['area', 'areas-registry', 'agents', 'cli', 'http', 'process'].map(floor) },
              message: 'Repositories return rows or undefined: they know no area and nothing of HTTP.',
            },
            // The purge of idempotency keys (http/) runs as a job of the users area, which owns the keys.
            { from: floor('area'), allow: { to: { element: { type: 'http', fileInternalPath: '*.job.ts' } } } },
            // Unit tests beside the code may reach what they test.
            { from: TEST, allow: { to: { file: { categories: '*' } } } },
          ],
        },
      ],
      // No import cycle between areas (tools/lint/area-cycles.js): one fails lint, with no exception.
      'repository/no-area-cycles': 'error',
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
