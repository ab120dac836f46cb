// `pnpm bench permissions`: what the permissions objects (packages/server/src/access/permissions.ts) cost
// a list, in process (no I/O): the objects of a 100-item page — spaces and collections under a mix of
// roles and edit modes, comments by their author and by others — and the organization, site and team
// objects, in microseconds per object. Each kind's median of ROUNDS rounds, with the load average
// (the machine is shared: compare figures of runs at similar loads, or the two sides of one commit's
// change measured one after the other). Prints a table and one JSON line.
import { loadavg } from 'node:os';
import '../packages/server/src/areas/index.js';
import { permissions } from '../packages/server/src/areas/permissions-objects.js';
import type { Role } from '../packages/server/src/access/roles.js';

const ROUNDS = 7;
const PAGE = 100;
const PAGES = 200;

const roles: Array<Role | null> = ['read', 'edit', 'read', 'create', 'admin', 'comment', 'review', null];
const editModes = ['open', 'open', 'open', 'locked'] as const;
const spaces = Array.from({ length: PAGE }, (_, i) => ({
  id: `space${i}`,
  organizationId: 'org',
  title: `Space ${i}`,
  editMode: editModes[i % editModes.length]!,
  visibility: 'private',
  deletedAt: null,
}));
const collections = Array.from({ length: PAGE }, (_, i) => ({ id: `collection${i}`, organizationId: 'org', title: `Collection ${i}`, defaultLevel: 'inherit' }));
const comments = Array.from({ length: PAGE }, (_, i) => ({ postedBy: i % 3 === 0 ? 'me' : `user${i}` }));
const organization = { id: 'org', sso: false };

const objects = permissions();
const kinds: Record<string, () => unknown> = {
  space: () => {
    let last: unknown;
    for (let i = 0; i < PAGE; i++) last = objects.space(spaces[i] as never, roles[i % roles.length]!);
    return last;
  },
  collection: () => {
    let last: unknown;
    for (let i = 0; i < PAGE; i++) last = objects.collection(collections[i] as never, roles[i % roles.length]!);
    return last;
  },
  comment: () => {
    let last: unknown;
    for (let i = 0; i < PAGE; i++) last = objects.comment('me', roles[i % roles.length]!, comments[i]!);
    return last;
  },
  organization: () => {
    let last: unknown;
    for (let i = 0; i < PAGE; i++) {
      const role = roles[i % roles.length]!;
      last = objects.organization({ organization: organization as never, membership: { role, sso: i % 2 === 0 } as never });
    }
    return last;
  },
  site: () => {
    let last: unknown;
    for (let i = 0; i < PAGE; i++) last = objects.site(roles[i % roles.length]!);
    return last;
  },
  team: () => {
    let last: unknown;
    for (let i = 0; i < PAGE; i++) last = objects.team(roles[i % roles.length]!, { callerTeamRole: i % 5 === 0 ? 'owner' : null });
    return last;
  },
};

/** Microseconds per object of one kind over PAGES pages. */
function measure(run: () => unknown): number {
  const started = process.hrtime.bigint();
  for (let page = 0; page < PAGES; page++) run();
  return Number(process.hrtime.bigint() - started) / 1000 / (PAGES * PAGE);
}

const load = loadavg()[0]!.toFixed(1);
for (const run of Object.values(kinds)) measure(run); // warm-up (JIT)
const perKind: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) for (const [name, run] of Object.entries(kinds)) perKind[name]!.push(measure(run));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const result = Object.fromEntries(Object.entries(perKind).map(([name, values]) => [name, median(values)]));
console.log(`permissions objects, µs per object (median of ${ROUNDS} rounds of ${PAGES} pages of ${PAGE}; load average ${load} before, ${loadavg()[0]!.toFixed(1)} after):`);
for (const [name, micros] of Object.entries(result)) console.log(`  ${name.padEnd(13)} ${micros.toFixed(3)} µs  (${(micros * PAGE).toFixed(1)} µs per 100-item page)`);
console.log(JSON.stringify({ loadAverage: load, microsPerObject: result }));
