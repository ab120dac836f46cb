// Events and webhooks figures (docs/design/budgets.md): what recording events adds to a one-page edit and to the
// merge of a change request touching 100 pages, in a 10,000-page space (budget: ≤ 10% over the same
// write without recording, measured in this run), and webhook delivery throughput from one instance
// to a local receiver (budget ≥ 500 events/s). The organization has a webhook, so every event is
// recorded as waiting for the dispatcher (the costlier case). Services are called directly (no HTTP)
// on an embedded PostgreSQL of its own, durable, in a temporary folder.
//
// Without recording is today's write: the space's head pointer without a listener (the content
// service adds one), the merge with a recorder that records nothing. The two alternate ABBA, so drift
// of the machine hits both alike.
//
//   npx tsx bench/events.ts                     (from the repository root)
//   EDITS=100 MERGES=12 EVENTS=10000 npx tsx bench/events.ts
//   ONLY=delivery npx tsx bench/events.ts       (the delivery throughput alone)
//   ONLY=delivery AGAINST=main npx tsx bench/events.ts
//                                               (this tree's sender beside a commit's, ABBA, same run)
//
// Delivery is reported as events/s and as the CPU per event of each process (the sender — this
// process, which does nothing else meanwhile —, PostgreSQL and the receiver), with the sender's
// capacity on one idle core (1 s divided by its CPU per event): on a shared machine the throughput
// follows the load, the CPU per event much less. With AGAINST, the sender (the delivery loop and all
// it imports) of that commit is loaded from its own worktree (bench/lib/builds.ts, checkoutCommit)
// and run on the same database, receiver and events as this tree's, in the order commit, this tree,
// this tree, commit, after one unreported warm-up run of each.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createChangeRequest } from '../packages/server/src/areas/change-requests/change-requests.service.js';
import { applyChangeRequestChanges } from '../packages/server/src/areas/change-requests/change-request-content.service.js';
import { mergeChangeRequest, recordingMerges, type MergeRecorder } from '../packages/server/src/areas/change-requests/change-request-merge.js';
import { applySpaceChanges, writeBatch } from '../packages/server/src/areas/content/space-content.service.js';
import { recordingContentUpdates } from '../packages/server/src/areas/content/content-events.js';
import { recordEvents, type NewEvent } from '../packages/server/src/areas/events/index.js';
import * as thisTreeSender from '../packages/server/src/areas/webhooks/delivery-worker.js';
import { toApiSpace } from '../packages/server/src/areas/spaces/space.mapper.js';
import { createWebhook } from '../packages/server/src/areas/webhooks/webhooks.service.js';
import { loadConfig } from '../packages/server/src/config.js';
import type { ContentChange } from '../packages/server/src/content/apply-changes.js';
import { spaceHeadPointer } from '../packages/server/src/content/space-head.js';
import { loadServerKeys } from '../packages/server/src/keys.js';
import { createLogger } from '../packages/server/src/logger.js';
import { checkoutCommit } from './lib/builds.js';
import { processTreeCpuSeconds } from './lib/cpus.js';
import { BATCH, body, quantile, seedTenThousandPages } from './lib/ten-thousand-pages.js';

/** `delivery`: only the delivery throughput, on a space of its own (no 10,000-page seeding). */
const ONLY = process.env.ONLY;
const EDITS = Number(process.env.EDITS ?? 60);
const MERGES = Number(process.env.MERGES ?? 8);
const EVENTS = Number(process.env.EVENTS ?? 5000);
/** The sender's deliveries in flight (default: the server's own setting). */
const CONCURRENCY = Number(process.env.CONCURRENCY ?? thisTreeSender.DEFAULT_TUNING.concurrency);
/** A commit whose sender runs beside this tree's (ABBA), with ONLY=delivery. */
const AGAINST = process.env.AGAINST;
const TOUCHED = 100;
export const RECORDING_BUDGET = 0.1;
export const THROUGHPUT_BUDGET = 500;

const NOTHING_RECORDED: MergeRecorder = { contentMoved: async () => {}, merged: async () => {}, updated: async () => {} };

const median = (values: number[]) => quantile([...values].sort((a, b) => a - b), 0.5);
const p95 = (values: number[]) => quantile([...values].sort((a, b) => a - b), 0.95);
const ms = (value: number) => `${value.toFixed(2)} ms`;

/**
 * A receiver in a process of its own answering 204 to every POST, counting them; `GET /?until=N`
 * answers the count once it reaches N (one request per run: polling would charge the sender's CPU).
 * Resolves with its port.
 */
function startReceiver(): Promise<{ port: number; pid: number; count(until?: number): Promise<number>; stop(): void }> {
  const source = `
    const http = require('node:http');
    let received = 0;
    let waiting = [];
    const server = http.createServer((request, response) => {
      if (request.method === 'GET') {
        const until = Number(new URL(request.url, 'http://receiver').searchParams.get('until') ?? 0);
        if (received >= until) return response.end(String(received));
        return void waiting.push({ until, response });
      }
      request.resume();
      request.on('end', () => {
        received++;
        response.writeHead(204).end();
        if (waiting.length === 0) return;
        for (const wait of waiting) if (received >= wait.until) wait.response.end(String(received));
        waiting = waiting.filter((wait) => received < wait.until);
      });
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    child.stdout!.once('data', (chunk: Buffer) => {
      const port = Number(chunk.toString().trim());
      const count = async (until = 0) => Number(await (await fetch(`http://127.0.0.1:${port}/?until=${until}`, { signal: AbortSignal.timeout(120_000) })).text());
      resolve({ port, pid: child.pid!, count, stop: () => child.kill() });
    });
  });
}

/** A sender to measure: the delivery loop of this tree or of an earlier commit. */
type Sender = { label: string; startDelivery: typeof thisTreeSender.startDelivery; DEFAULT_TUNING: typeof thisTreeSender.DEFAULT_TUNING };

/** A commit's sender, loaded from its worktree's sources (the same database schema as this tree's). */
async function senderOf(revision: string): Promise<Sender> {
  const { commit, dir } = await checkoutCommit(revision);
  const module = (await import(pathToFileURL(join(dir, 'packages/server/src/areas/webhooks/delivery-worker.ts')).href)) as typeof thisTreeSender;
  return { label: commit.slice(0, 7), startDelivery: module.startDelivery, DEFAULT_TUNING: module.DEFAULT_TUNING };
}

export type DeliveryFigures = {
  label: string;
  events: number;
  elapsedMs: number;
  throughput: number;
  /** CPU per event, in µs: the sender's process, PostgreSQL's process tree, the receiver's. */
  senderMicros: number;
  databaseMicros: number;
  receiverMicros: number;
  /** Events per second the sender's CPU per event allows on one idle core. */
  capacity: number;
  succeeded: number;
  exchangeMs: { p50: number; p95: number };
};

export async function runEventsBenchmark(options: { log?: (line: string) => void } = {}) {
  const say = options.log ?? ((line: string) => console.log(line));
  const world = ONLY === 'delivery' ? await seedTenThousandPages({ pages: 0 }) : await seedTenThousandPages();
  const { pool, db, app, user, actor, children, organizationId } = world;
  let { space } = world;
  const config = loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'true' });
  const keys = await loadServerKeys(db);
  const context = { db, config, keys, urls: app.urls, log: createLogger({ logLevel: 'warn' }) };
  const receiver = await startReceiver();
  try {
    say(`seeded ${world.tops.length + children.length} pages in ${(world.seededInMs / 1000).toFixed(1)} s`);
    // A webhook for every event type: each event is recorded as waiting for the dispatcher.
    await createWebhook(context, organizationId, actor, user.id, { url: `http://127.0.0.1:${receiver.port}/hooks` });

    // Time spent recording, measured inside the writes that record (the listener, the merge's recorder):
    // what events add to a write, without comparing two noisy distributions.
    let recordingMs = 0;
    const timed = <A extends unknown[]>(work: (...args: A) => Promise<void>) => async (...args: A) => {
      const begin = performance.now();
      await work(...args);
      recordingMs += performance.now() - begin;
    };

    const edits = { without: [] as number[], with: [] as number[], recording: [] as number[] };
    const merges = { without: [] as number[], with: [] as number[], recording: [] as number[] };
    let [editCost, editShare, mergeCost, mergeShare] = [NaN, NaN, NaN, NaN];
    if (ONLY !== 'delivery') {
      // ---- One-page edits, alternating without and with recording (ABBA) ----
      for (let i = 0; i < EDITS; i++) {
        const recording = i % 4 === 1 || i % 4 === 2;
        const target = children[(i * 7919) % children.length]!;
        const changes: ContentChange[] = [{ type: 'update_page', page: target.id, title: `Edited topic ${i}`, markdown: body(2_000_000 + i) }];
        const batch = () => ({ changes, files: new Map() });
        recordingMs = 0;
        const started = performance.now();
        const listener = timed(recordingContentUpdates(space, { actor, urls: app.urls, revisionType: 'edits' }));
        const pointer = spaceHeadPointer(space, recording ? listener : undefined);
        space = (await writeBatch(app, pointer, user.id, batch)).moved;
        (recording ? edits.with : edits.without).push(performance.now() - started);
        if (recording) edits.recording.push(recordingMs);
      }
      editCost = median(edits.with) / median(edits.without) - 1;
      editShare = median(edits.recording) / median(edits.with);
      say(
        `\nOne-page edit, 10,000-page space (${EDITS / 2} each): without events median ${ms(median(edits.without))} (p95 ${ms(p95(edits.without))}), ` +
          `with median ${ms(median(edits.with))} (p95 ${ms(p95(edits.with))}): ${(editCost * 100).toFixed(1)}%; recording itself median ${ms(median(edits.recording))}, ` +
          `${(editShare * 100).toFixed(1)}% of the edit (budget ≤ ${RECORDING_BUDGET * 100}%): ${Math.min(editCost, editShare) <= RECORDING_BUDGET ? 'met' : 'MISSED'}`,
      );

      // ---- Merges of a change request touching 100 pages (3-way), alternating ABBA ----
      for (let run = 0; run < MERGES; run++) {
        const recording = run % 4 === 1 || run % 4 === 2;
        const pick = (offset: number) => children[(run * 7919 + offset * 97 + 13) % children.length]!;
        const requested = Array.from({ length: TOUCHED }, (_, i) => pick(i));
        const direct = Array.from({ length: TOUCHED }, (_, i) => pick(TOUCHED + i));
        const changeRequest = await createChangeRequest(db, space, user.id, { subject: `Run ${run}` }, { actor, urls: app.urls });
        for (let i = 0; i < TOUCHED; i += BATCH) {
          const slice = requested.slice(i, i + BATCH).map((target): ContentChange => ({ type: 'update_page', page: target.id, title: `Topic ${target.seed}, run ${run}`, markdown: body(target.seed, { 1: `Request, run ${run}.` }) }));
          await applyChangeRequestChanges(app, space, changeRequest.id, user.id, slice, { actor });
        }
        for (let i = 0; i < TOUCHED; i += BATCH) {
          const slice = direct.slice(i, i + BATCH).map((target): ContentChange => ({ type: 'update_page', page: target.id, markdown: body(target.seed, { 3: `Primary, run ${run}.` }) }));
          space = (await applySpaceChanges(app, space, user.id, slice, { actor })).space;
        }
        const recording_ = recordingMerges({ actor, urls: app.urls }, changeRequest.id, space);
        const recorder: MergeRecorder = recording ? { contentMoved: timed(recording_.contentMoved), merged: timed(recording_.merged), updated: timed(recording_.updated) } : NOTHING_RECORDED;
        recordingMs = 0;
        const started = performance.now();
        const merged = await mergeChangeRequest(app, space, changeRequest.id, user.id, app.parsing, recorder);
        (recording ? merges.with : merges.without).push(performance.now() - started);
        if (recording) merges.recording.push(recordingMs);
        if (merged.result !== 'merge') throw new Error(`run ${run}: expected a clean merge, got ${merged.result}`);
        space = (await db.selectFrom('spaces').selectAll().where('id', '=', space.id).executeTakeFirstOrThrow()) as typeof space;
      }
      mergeCost = median(merges.with) / median(merges.without) - 1;
      mergeShare = median(merges.recording) / median(merges.with);
      say(
        `Merge of a change request touching ${TOUCHED} pages (${MERGES / 2} each): without events median ${ms(median(merges.without))}, with median ${ms(median(merges.with))}: ` +
          `${(mergeCost * 100).toFixed(1)}%; recording itself median ${ms(median(merges.recording))}, ${(mergeShare * 100).toFixed(1)}% of the merge ` +
          `(budget ≤ ${RECORDING_BUDGET * 100}%): ${Math.min(mergeCost, mergeShare) <= RECORDING_BUDGET ? 'met' : 'MISSED'}`,
      );

    }

    // ---- Delivery throughput: EVENTS events recorded, then one instance's sender drains them ----
    const object = toApiSpace(space, 'admin', app.urls);
    // PostgreSQL's CPU (its postmaster's process tree) and the receiver's, beside the sender's: on a
    // shared machine the three share the cores, so their sum per event is what bounds the throughput.
    const backend = (await pool.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const backendStat = readFileSync(`/proc/${backend}/stat`, 'utf8');
    const postmaster = Number(backendStat.slice(backendStat.lastIndexOf(')') + 2).split(' ')[1]);
    const othersCpu = () => ({ database: processTreeCpuSeconds(postmaster) ?? NaN, receiver: processTreeCpuSeconds(receiver.pid) ?? NaN });
    const deliver = async (sender: Sender, events: number): Promise<DeliveryFigures> => {
      // Only these events: what was recorded before (the writes above, an earlier run) is set aside.
      await db.deleteFrom('webhookDeliveries').execute();
      await db.updateTable('events').set({ undispatched: false }).where('undispatched', '=', true).execute();
      for (let i = 0; i < events; i += 500) {
        const batch: NewEvent[] = Array.from({ length: Math.min(500, events - i) }, (_, j) => ({
          type: 'space.updated',
          organizationId,
          spaceId: space.id,
          actor,
          data: { object: { ...object, title: `Event ${i + j}` } },
        }));
        await recordEvents(db, batch);
      }
      const before = await receiver.count();
      const othersBefore = othersCpu();
      const started = performance.now();
      const cpu = process.cpuUsage();
      const running = sender.startDelivery(context, { ...sender.DEFAULT_TUNING, concurrency: CONCURRENCY });
      const delivered = (await receiver.count(before + events)) - before;
      const elapsedMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const othersAfter = othersCpu();
      await running.stop(5000);
      if (delivered < events) throw new Error(`${sender.label}: only ${delivered} of ${events} deliveries`);
      const succeeded = (await pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'succeeded'`)).rows[0].n as number;
      // How long an exchange with the receiver took, as the delivery log has it: what holds a sending slot.
      const exchange = (await pool.query(`SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95 FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.organization_id = a.organization_id AND d.id = a.delivery_id`)).rows[0] as { p50: number; p95: number };
      const senderMicros = (used.user + used.system) / events;
      return {
        label: sender.label,
        events,
        elapsedMs,
        throughput: events / (elapsedMs / 1000),
        senderMicros,
        databaseMicros: ((othersAfter.database - othersBefore.database) * 1e6) / events,
        receiverMicros: ((othersAfter.receiver - othersBefore.receiver) * 1e6) / events,
        capacity: 1e6 / senderMicros,
        succeeded,
        exchangeMs: exchange,
      };
    };
    const report = (figures: DeliveryFigures) =>
      say(
        `Webhook delivery (${figures.label}), one instance to a local receiver: ${figures.events} events (dispatched, signed, sent, logged) in ${(figures.elapsedMs / 1000).toFixed(2)} s: ` +
          `${figures.throughput.toFixed(0)} events/s (budget ≥ ${THROUGHPUT_BUDGET}): ${figures.throughput >= THROUGHPUT_BUDGET ? 'met' : 'MISSED'}; ${figures.succeeded} logged as succeeded; ` +
          `CPU per event: sender ${(figures.senderMicros / 1000).toFixed(3)} ms, PostgreSQL ${(figures.databaseMicros / 1000).toFixed(3)} ms, receiver ${(figures.receiverMicros / 1000).toFixed(3)} ms; ` +
          `the sender's capacity on one idle core: ${figures.capacity.toFixed(0)} events/s (budget ≥ ${THROUGHPUT_BUDGET}): ${figures.capacity >= THROUGHPUT_BUDGET ? 'met' : 'MISSED'}; ` +
          `an exchange with the receiver took ${Math.round(figures.exchangeMs.p50)} ms (median), ${Math.round(figures.exchangeMs.p95)} ms (p95)`,
      );
    const thisTree: Sender = { label: 'this tree', startDelivery: thisTreeSender.startDelivery, DEFAULT_TUNING: thisTreeSender.DEFAULT_TUNING };
    const deliveries: DeliveryFigures[] = [];
    if (AGAINST && ONLY === 'delivery') {
      const against = await senderOf(AGAINST);
      say(`\nSenders compared on the same database, receiver and events: ${against.label} (${AGAINST}) and this tree, ABBA, after a warm-up run of each`);
      for (const sender of [against, thisTree]) await deliver(sender, EVENTS);
      for (const sender of [against, thisTree, thisTree, against]) {
        const figures = await deliver(sender, EVENTS);
        report(figures);
        deliveries.push(figures);
      }
      const mean = (label: string, pick: (f: DeliveryFigures) => number) => {
        const runs = deliveries.filter((f) => f.label === label);
        return runs.reduce((sum, f) => sum + pick(f), 0) / runs.length;
      };
      say(
        `Means of two runs each: ${against.label} ${mean(against.label, (f) => f.throughput).toFixed(0)} events/s, sender ${(mean(against.label, (f) => f.senderMicros) / 1000).toFixed(3)} ms/event ` +
          `(capacity ${(1e6 / mean(against.label, (f) => f.senderMicros)).toFixed(0)} events/s); this tree ${mean('this tree', (f) => f.throughput).toFixed(0)} events/s, ` +
          `sender ${(mean('this tree', (f) => f.senderMicros) / 1000).toFixed(3)} ms/event (capacity ${(1e6 / mean('this tree', (f) => f.senderMicros)).toFixed(0)} events/s); ` +
          `sender CPU per event ×${(mean('this tree', (f) => f.senderMicros) / mean(against.label, (f) => f.senderMicros)).toFixed(2)}`,
      );
    } else {
      const figures = await deliver(thisTree, EVENTS);
      report(figures);
      deliveries.push(figures);
    }
    const measured = deliveries.find((f) => f.label === 'this tree')!;
    return {
      edits,
      merges,
      editCost,
      editShare,
      mergeCost,
      mergeShare,
      throughput: measured.throughput,
      elapsedMs: measured.elapsedMs,
      cpuMicrosPerEvent: measured.senderMicros,
      databaseMicrosPerEvent: measured.databaseMicros,
      receiverMicrosPerEvent: measured.receiverMicros,
      events: EVENTS,
      deliveries,
    };
  } finally {
    receiver.stop();
    await world.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runEventsBenchmark().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
