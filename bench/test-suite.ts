// `pnpm bench test-suite` (issue 30, item 5): the README's test command, `pnpm test`, timed step by step
// (spec lint, spec diff, codegen check, lint, typecheck, vitest, the SDK's package check), with the load
// average before and after each step, and vitest's test files by wall time, slowest first, so that the
// next change to the suite's speed starts from where its time goes. The steps are read from the root
// package.json's `test` script, so this times what the README runs. `--files-from <vitest json>`
// summarises an earlier vitest run's JSON report instead (`vitest run --reporter=json --outputFile=…`).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { repoRoot } from './lib/builds.js';

export type StepTime = { step: string; seconds: number; exitCode: number; loadBefore: string; loadAfter: string };
export type FileTime = { file: string; seconds: number; tests: number; failed: number };
export type TestSuiteResult = { steps: StepTime[]; totalSeconds: number; files: FileTime[]; tests: number };

/** What vitest's JSON reporter writes, as far as read here. */
type VitestReport = {
  numTotalTests: number;
  testResults: Array<{ name: string; startTime: number; endTime: number; assertionResults: Array<{ status: string }> }>;
};

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

/** The test files of a vitest JSON report by wall time, slowest first. */
export function filesByTime(report: VitestReport): FileTime[] {
  return report.testResults
    .map((file) => ({
      file: relative(repoRoot, file.name),
      seconds: (file.endTime - file.startTime) / 1000,
      tests: file.assertionResults.length,
      failed: file.assertionResults.filter((test) => test.status === 'failed').length,
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

function runStep(command: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd: repoRoot, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', reject);
  });
}

export function formatTestSuite(result: TestSuiteResult, slowest = 20): string {
  const lines: string[] = [];
  if (result.steps.length) {
    lines.push('| step | wall time | load average before → after | exit |', '|---|---|---|---|');
    for (const step of result.steps) lines.push(`| \`${step.step}\` | ${(step.seconds / 60).toFixed(1)} min | ${step.loadBefore} → ${step.loadAfter} | ${step.exitCode} |`);
    lines.push(`| whole | ${(result.totalSeconds / 60).toFixed(1)} min | | |`, '');
  }
  if (result.files.length) {
    const sum = result.files.reduce((total, file) => total + file.seconds, 0);
    lines.push(`${result.files.length} test files, ${result.tests} tests; ${(sum / 60).toFixed(1)} min of file wall time in all. Slowest ${slowest}:`, '');
    lines.push('| file | wall time | tests | failed |', '|---|---|---|---|');
    for (const file of result.files.slice(0, slowest)) lines.push(`| ${file.file} | ${file.seconds.toFixed(1)} s | ${file.tests} | ${file.failed} |`);
  }
  return lines.join('\n');
}

/**
 * The steps of `pnpm test`, with `pnpm test:unit-and-integration` opened into its own steps: arguments
 * given to a pnpm script go to the end of its last command, so a JSON reporter added to it would report
 * the hostile-input pass alone (test:hostile), not the main vitest run.
 */
function testSteps(scripts: Record<string, string>): string[] {
  const split = (script: string) => script.split('&&').map((part) => part.trim());
  return split(scripts.test!).flatMap((step) => (step === 'pnpm test:unit-and-integration' ? split(scripts['test:unit-and-integration']!) : [step]));
}

/** Runs `pnpm test`'s steps one by one, the main vitest step with a JSON report beside its usual output. */
export async function runTestSuite(): Promise<TestSuiteResult> {
  const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const dir = mkdtempSync(join(tmpdir(), 'cw-test-suite-'));
  const report = join(dir, 'vitest.json');
  const steps: StepTime[] = [];
  let files: FileTime[] = [];
  let tests = 0;
  try {
    for (const step of testSteps(scripts)) {
      const vitest = step.startsWith('vitest run ');
      const command = vitest ? `${step} --reporter=default --reporter=json --outputFile=${report}` : step;
      const loadBefore = loadAverage();
      const started = performance.now();
      const exitCode = await runStep(command);
      steps.push({ step, seconds: (performance.now() - started) / 1000, exitCode, loadBefore, loadAfter: loadAverage() });
      if (vitest) {
        const parsed = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
        files = filesByTime(parsed);
        tests = parsed.numTotalTests;
      }
      // Unlike `pnpm test`, go on after a failing step: the point is each step's time.
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { steps, totalSeconds: steps.reduce((total, step) => total + step.seconds, 0), files, tests };
}

/** `--files-from <vitest json>`: an earlier run's files by time. */
export function summariseReport(path: string): TestSuiteResult {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as VitestReport;
  return { steps: [], totalSeconds: 0, files: filesByTime(parsed), tests: parsed.numTotalTests };
}
