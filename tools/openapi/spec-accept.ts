// Breaking changes made on purpose: `spec/accepted-breaking-changes.yaml` lists each one (its rule, its
// address, and why clients are not hurt), so the acceptance is a line a reviewer reads in the diff. An
// entry added since the base must match a breaking change of this comparison, else it is stale and
// fails too; entries inherited from the base are the record of earlier decisions.
import { LineCounter, parseDocument, isMap, isSeq, type Node } from 'yaml';
import type { Change } from './spec-compare.js';
import { RULES } from './spec-rules.js';

export const ACCEPTED_FILE = 'accepted-breaking-changes.yaml';

export type AcceptedEntry = { change: string; at: string; reason: string; line: number };

export type AcceptedList = { entries: AcceptedEntry[]; errors: string[] };

export function parseAccepted(text: string | undefined): AcceptedList {
  if (text === undefined) return { entries: [], errors: [] };
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const where = (node: Node | null | undefined) => `spec/${ACCEPTED_FILE}:${lines.linePos(node?.range?.[0] ?? 0).line}`;
  if (doc.errors.length) return { entries: [], errors: [`spec/${ACCEPTED_FILE}: ${doc.errors[0]!.message}`] };
  const root = doc.contents;
  const list = isMap(root) ? root.get('accepted', true) : undefined;
  if (!isMap(root) || (list != null && !isSeq(list))) {
    return { entries: [], errors: [`${where(root as Node)}: expected \`accepted:\` followed by a list of {change, at, reason}`] };
  }
  const entries: AcceptedEntry[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const item of isSeq(list) ? list.items : []) {
    const value = (item as Node & { toJSON(): unknown }).toJSON() as Record<string, unknown> | null;
    const line = lines.linePos((item as Node).range?.[0] ?? 0).line;
    const at = `spec/${ACCEPTED_FILE}:${line}`;
    if (!value || typeof value !== 'object') {
      errors.push(`${at}: an entry is {change, at, reason}`);
      continue;
    }
    const { change, at: address, reason } = value;
    if (typeof change !== 'string' || !(change in RULES)) errors.push(`${at}: \`change\` must be one of the rules of tools/openapi/spec-rules.ts (got ${JSON.stringify(change)})`);
    if (typeof address !== 'string' || address === '') errors.push(`${at}: \`at\` must be the address the report prints`);
    if (typeof reason !== 'string' || reason.trim().length < 10) errors.push(`${at}: \`reason\` must say why clients are not hurt`);
    const key = `${String(change)} ${String(address)}`;
    if (seen.has(key)) errors.push(`${at}: duplicate entry for ${key}`);
    seen.add(key);
    entries.push({ change: String(change), at: String(address), reason: typeof reason === 'string' ? reason.trim() : '', line });
  }
  return { entries, errors };
}

export type Judgement = {
  /** Breaking changes no entry accepts. */
  unaccepted: Change[];
  accepted: Array<{ change: Change; entry: AcceptedEntry }>;
  /** Entries added since the base that match no breaking change of this comparison. */
  stale: AcceptedEntry[];
  errors: string[];
};

const keyOf = (entry: { change: string; at: string }) => `${entry.change} ${entry.at}`;

export function judge(changes: Change[], head: AcceptedList, base: AcceptedList): Judgement {
  const byKey = new Map(head.entries.map((entry) => [keyOf(entry), entry]));
  const inherited = new Set(base.entries.map(keyOf));
  const unaccepted: Change[] = [];
  const accepted: Judgement['accepted'] = [];
  const used = new Set<string>();
  for (const change of changes) {
    if (change.severity !== 'breaking') continue;
    const key = keyOf({ change: change.rule, at: change.at });
    const entry = byKey.get(key);
    if (entry) {
      accepted.push({ change, entry });
      used.add(key);
    } else unaccepted.push(change);
  }
  const stale = head.entries.filter((entry) => !used.has(keyOf(entry)) && !inherited.has(keyOf(entry)));
  return { unaccepted, accepted, stale, errors: head.errors };
}

/** The entry that accepts a change, for the report to print. */
export function entryFor(change: Change): string {
  return [`  - change: ${change.rule}`, `    at: ${yamlString(change.at)}`, `    reason: <why no client breaks, or what they were told>`].join('\n');
}

function yamlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** True when `head`'s semver major is greater than `base`'s. */
export function majorMoved(base: string | undefined, head: string | undefined): boolean {
  const major = (version: string | undefined) => Number(/^v?(\d+)\./.exec(version ?? '')?.[1] ?? NaN);
  return major(head) > major(base);
}

