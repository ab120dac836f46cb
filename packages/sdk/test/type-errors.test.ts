// The errors TypeScript reports for common mistakes must say what is wrong (a wrong path names the
// path, a misspelt key suggests the right one), not count arguments. Compiles test/fixtures/type-errors.ts
// and matches each error with the `// error:` line above it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/type-errors.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));

describe('type errors', () => {
  // Compiling the contract's types takes a few seconds, more on a busy machine.
  it('are readable for a wrong path, a misspelt key and a wrong type', { timeout: 180_000 }, () => {
    const { config } = ts.readConfigFile(tsconfig, ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, fileURLToPath(new URL('..', import.meta.url)));
    // The fixture is outside the composite project's file list on purpose (it must not typecheck), so it is
    // compiled as a plain program: `composite` would report every file it imports as unlisted.
    const program = ts.createProgram([fixture], { ...options, composite: false, emitDeclarationOnly: false, noEmit: true });
    const source = program.getSourceFile(fixture)!;
    const reported = new Map<number, string>();
    for (const diagnostic of ts.getPreEmitDiagnostics(program, source)) {
      const line = source.getLineAndCharacterOfPosition(diagnostic.start!).line;
      reported.set(line, `${reported.get(line) ?? ''}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}\n`);
    }

    const expected = new Map<number, string>();
    readFileSync(fixture, 'utf8')
      .split('\n')
      .forEach((text, line) => {
        const match = /^\/\/ error: (.*)$/.exec(text);
        if (match) expected.set(line + 1, match[1]!);
      });

    expect(expected.size).toBe(10);
    expect([...reported.keys()].sort((a, b) => a - b)).toEqual([...expected.keys()]);
    for (const [line, text] of expected) {
      expect(reported.get(line), `line ${line + 1}`).toContain(text);
      expect(reported.get(line)).not.toMatch(/Expected \d+ arguments/);
    }
  });
});
