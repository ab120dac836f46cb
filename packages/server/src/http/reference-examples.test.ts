// The reference page's request examples (reference-examples.ts) for every operation of the contract:
// each SDK example is type-checked against the SDK as an application would write it (strict, one
// function per operation), and each curl example sends the operation's method to its path.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadSpec, type JsonObject } from './operations.js';
import { ExampleWriter } from './reference-examples.js';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

function allExamples() {
  const spec = loadSpec();
  const writer = new ExampleWriter(spec);
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const operation = item[method] as JsonObject;
      return { path, method, operationId: operation.operationId as string, ...writer.examples(path, method, item, operation) };
    }),
  );
}

/** TypeScript's errors for `source` as a module of this package that imports the SDK. */
function typeErrors(source: string): string[] {
  // A file beside this one, so '@content-workspace/sdk' resolves as it does for the server's own code.
  const file = fileURLToPath(new URL('./reference-examples.check.ts', import.meta.url));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) => (name === file ? ts.createSourceFile(name, source, language) : getSourceFile.call(host, name, language, ...rest));
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? source : readFile.call(host, name));
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

const header = `import type { ContentWorkspace } from '@content-workspace/sdk';\ndeclare const cw: ContentWorkspace<true>;\n`;

describe('the reference page’s request examples', () => {
  const examples = allExamples();

  it('calls every operation by its SDK name, and every SDK example type-checks against the SDK', { timeout: 300_000 }, () => {
    expect(examples.length).toBeGreaterThan(150);
    const source = header + examples.map(({ operationId, sdk }) => `export async function ${operationId}() {\n  ${sdk.replace(/\n/g, '\n  ')}\n  return data;\n}\n`).join('\n');
    // A deliberate mistake (a misspelt path parameter) proves the check reads the SDK's types.
    const mistake = `export async function misspelt() {\n  await cw.spaces.get({ spaceID: 'x' });\n}\n`;
    const errors = typeErrors(source + mistake);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/spaceID/);
  });

  it('sends each curl example to its method and path, with the token when the operation needs one', () => {
    for (const { method, path, curl } of examples) {
      const [first] = curl.split('\n');
      expect(first, path).toMatch(new RegExp(`^curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "\\$CONTENT_WORKSPACE_URL${path.replace(/\{[^}]+\}/g, '[^/"?]+').replace(/[.]/g, '\\.')}(\\?[^"]*)?"`));
    }
    const create = examples.find(({ operationId }) => operationId === 'createSpace')!;
    expect(create.sdk).toMatch(/^const \{ data \} = await cw\.spaces\.create\(\{ organizationId: "[^"]+", body: /);
    expect(create.curl).toContain('-H "Authorization: Bearer $CONTENT_WORKSPACE_TOKEN"');
    expect(create.curl).toMatch(/--data '\{.*"title"/);
    const download = examples.find(({ operationId }) => operationId === 'downloadFile')!;
    expect(download.curl).not.toContain('Authorization');
  });
});
