// The spec diff for people: plain text for a terminal, Markdown for a pull-request comment (or a CI
// job summary), JSON for tools. Every form says the same: the verdict, each breaking change with its
// address, file and line, the operations it reaches and how to accept it; then the rest.
import { ACCEPTED_FILE, entryFor, type AcceptedEntry } from './spec-accept.js';
import type { Change } from './spec-compare.js';
import { RULES } from './spec-rules.js';

export type DiffResult = {
  base: { commit: string; short: string; description: string };
  baseVersion: string | undefined;
  headVersion: string | undefined;
  majorMoved: boolean;
  changes: Change[];
  unaccepted: Change[];
  accepted: Array<{ change: Change; entry: AcceptedEntry }>;
  stale: AcceptedEntry[];
  errors: string[];
  passed: boolean;
};

export type Format = 'text' | 'markdown' | 'json';

export function render(result: DiffResult, format: Format): string {
  if (format === 'json') return `${JSON.stringify(result, null, 2)}\n`;
  return format === 'markdown' ? markdown(result) : text(result);
}

function verdict(result: DiffResult): string {
  const breaking = result.unaccepted.length;
  const parts: string[] = [];
  if (breaking && !result.majorMoved) parts.push(`${breaking} breaking change${breaking === 1 ? '' : 's'} not accepted (info.version's major did not move: ${result.baseVersion} → ${result.headVersion})`);
  if (result.stale.length) parts.push(`${result.stale.length} stale entr${result.stale.length === 1 ? 'y' : 'ies'} in spec/${ACCEPTED_FILE}`);
  if (result.errors.length) parts.push(`${result.errors.length} error${result.errors.length === 1 ? '' : 's'} in spec/${ACCEPTED_FILE}`);
  if (!result.passed) return `FAILED: ${parts.join('; ')}.`;
  if (breaking && result.majorMoved) return `passed: ${breaking} breaking change${breaking === 1 ? '' : 's'} under a new major version (${result.baseVersion} → ${result.headVersion}).`;
  const accepted = result.accepted.length ? `, ${result.accepted.length} accepted on purpose` : '';
  return `passed: no breaking change${accepted}.`;
}

function counts(result: DiffResult): string {
  const by = (severity: string) => result.changes.filter((change) => change.severity === severity).length;
  return `${by('breaking')} breaking, ${by('non-breaking')} non-breaking, ${by('info')} prose`;
}

const location = (change: Change) => `${change.location.file}:${change.location.line}${change.location.side === 'base' ? ' (in the base)' : ''}`;
const used = (change: Change) => (change.directions.length ? `used in ${change.directions.map((direction) => `${direction}s`).join(' and ')}` : 'not used by any operation');
const reachSummary = (change: Change) => {
  const count = `reaches ${change.operations.length} operation${change.operations.length === 1 ? '' : 's'}`;
  // A change of an operation itself has no direction of use to tell.
  return change.directions.length ? `${count} (${used(change)})` : count;
};
const show = (value: unknown) => (value === null || value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value));

// ---- text ------------------------------------------------------------------------------------------

function text(result: DiffResult): string {
  const out: string[] = [];
  out.push(`spec:diff: spec/ at ${result.base.short} (${result.base.description}) → working tree: ${counts(result)}`);
  const section = (title: string, changes: Change[], detail: (change: Change) => string[]) => {
    if (!changes.length) return;
    out.push('', `${title} (${changes.length}):`);
    for (const change of changes) {
      out.push('', `  ${change.rule}  ${change.at}`, `    ${change.message}`, `    ${location(change)}`);
      out.push(...detail(change).map((line) => `    ${line}`));
    }
  };
  const operations = (change: Change) => {
    if (!change.operations.length) return [`(${used(change)})`];
    const width = Math.max(...change.operations.map((operation) => operation.key.length));
    const idWidth = Math.max(...change.operations.map((operation) => (operation.operationId ?? '').length));
    return [
      `${reachSummary(change)}:`,
      ...change.operations.map((operation) => `  ${operation.key.padEnd(width)}  ${(operation.operationId ?? '').padEnd(idWidth)}  ${operation.via}`),
    ];
  };
  const values = (change: Change) => [...('before' in change ? [`before: ${show(change.before)}`] : []), ...('after' in change ? [`after:  ${show(change.after)}`] : [])];

  section(result.majorMoved ? 'Breaking, under a new major version' : 'BREAKING, not accepted', result.unaccepted, (change) => [
    ...values(change),
    ...operations(change),
    ...(result.majorMoved ? [] : [`to accept it on purpose, add to spec/${ACCEPTED_FILE}:`, ...entryFor(change).split('\n')]),
  ]);
  const accepted = result.accepted.map(({ change }) => change);
  section('Breaking, accepted on purpose', accepted, (change) => [`reason: ${result.accepted.find((item) => item.change === change)!.entry.reason}`, ...values(change), ...operations(change)]);
  section('Non-breaking', result.changes.filter((change) => change.severity === 'non-breaking'), (change) => [...values(change), ...operations(change)]);
  section('Prose', result.changes.filter((change) => change.severity === 'info'), (change) => [
    ...prose(change.before).map((line) => `- ${line}`),
    ...prose(change.after).map((line) => `+ ${line}`),
    ...(change.operations.length ? [reachSummary(change)] : []),
  ]);
  if (result.stale.length) {
    out.push('', `Stale entries in spec/${ACCEPTED_FILE} (added, but no such breaking change: remove them):`);
    for (const entry of result.stale) out.push(`  spec/${ACCEPTED_FILE}:${entry.line}  ${entry.change}  ${entry.at}`);
  }
  if (result.errors.length) out.push('', `Errors in spec/${ACCEPTED_FILE}:`, ...result.errors.map((error) => `  ${error}`));
  out.push('', `spec:diff ${verdict(result)}`, '');
  return out.join('\n');
}

function prose(value: unknown): string[] {
  if (value === null || value === undefined) return ['(none)'];
  return String(value).replace(/\n$/, '').split('\n');
}

// ---- markdown ----------------------------------------------------------------------------------------

function markdown(result: DiffResult): string {
  const out: string[] = [];
  const icon = result.passed ? '✅' : '❌';
  out.push(`## API contract changes`, '');
  out.push(`${icon} **${verdict(result)}**`, '');
  out.push(`Compared \`spec/\` with \`${result.base.short}\` (${result.base.description}): ${counts(result)}. Rules: \`tools/openapi/spec-rules.ts\`.`);

  const operationsTable = (change: Change): string[] => {
    if (!change.operations.length) return [`_${used(change)}_`];
    const rows = ['| operation | operationId | via |', '| --- | --- | --- |', ...change.operations.map((operation) => `| \`${operation.key}\` | \`${operation.operationId ?? ''}\` | ${cell(operation.via)} |`)];
    const summary = reachSummary(change);
    return change.operations.length > 3 ? ['<details>', `<summary>${summary}</summary>`, '', ...rows, '', '</details>'] : [`${summary}:`, '', ...rows];
  };
  const values = (change: Change): string[] =>
    'before' in change || 'after' in change ? [`before: ${code(show(change.before ?? null))} → after: ${code(show(change.after ?? null))}`, ''] : [];

  const detailed = (title: string, changes: Change[], extra: (change: Change) => string[]) => {
    if (!changes.length) return;
    out.push('', `### ${title} (${changes.length})`);
    for (const change of changes) {
      out.push('', `#### \`${change.rule}\`: ${escapeText(change.message)}`, '', `\`${change.at}\` · \`${location(change)}\` · ${RULES[change.rule].title}`, '');
      out.push(...values(change), ...extra(change), ...operationsTable(change));
    }
  };
  detailed(result.majorMoved ? '⚠️ Breaking, under a new major version' : '❌ Breaking, not accepted', result.unaccepted, (change) =>
    result.majorMoved ? [] : [`To accept it on purpose, add to \`spec/${ACCEPTED_FILE}\`:`, '', '```yaml', entryFor(change), '```', ''],
  );
  detailed('☑️ Breaking, accepted on purpose', result.accepted.map(({ change }) => change), (change) => [`> ${escapeText(result.accepted.find((item) => item.change === change)!.entry.reason)}`, '']);

  const nonBreaking = result.changes.filter((change) => change.severity === 'non-breaking');
  if (nonBreaking.length) {
    out.push('', `### Non-breaking (${nonBreaking.length})`, '', '| change | at | what | where | operations |', '| --- | --- | --- | --- | --- |');
    for (const change of nonBreaking) {
      const reached = change.operations.map((operation) => `\`${operation.key}\``);
      const list = reached.length > 3 ? `${reached.slice(0, 3).join('<br>')}<br>and ${reached.length - 3} more` : reached.join('<br>') || '—';
      out.push(`| \`${change.rule}\` | ${code(change.at)} | ${cell(change.message)} | \`${location(change)}\` | ${list} |`);
    }
  }
  const proseChanges = result.changes.filter((change) => change.severity === 'info');
  if (proseChanges.length) {
    out.push('', `### Prose (${proseChanges.length})`);
    for (const change of proseChanges) {
      const reach = change.operations.length ? ` · ${change.operations.length} operation${change.operations.length === 1 ? '' : 's'}` : '';
      out.push('', `\`${change.at}\` · \`${location(change)}\`${reach}`, '', '```diff', ...prose(change.before).map((line) => `- ${line}`), ...prose(change.after).map((line) => `+ ${line}`), '```');
    }
  }
  if (result.stale.length) {
    out.push('', `### ❌ Stale entries in \`spec/${ACCEPTED_FILE}\``, '', 'Added, but this comparison has no such breaking change: remove them.', '');
    for (const entry of result.stale) out.push(`- \`spec/${ACCEPTED_FILE}:${entry.line}\`: \`${entry.change}\` at \`${entry.at}\``);
  }
  if (result.errors.length) out.push('', `### ❌ Errors in \`spec/${ACCEPTED_FILE}\``, '', ...result.errors.map((error) => `- ${escapeText(error)}`));
  return `${out.join('\n')}\n`;
}

function cell(value: string): string {
  return value.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** A Markdown code span that survives backticks in the value. */
function code(value: string): string {
  const longest = Math.max(0, ...(value.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${cell(value)}${pad}${fence}`;
}

function escapeText(value: string): string {
  return value.replace(/</g, '&lt;').replace(/\n/g, ' ');
}
