// The webhook sender, one per instance (docs/decisions.md, Events and webhooks). It loops: dispatch
// committed events into deliveries (the first ones claimed at once for its free sending slots), claim
// due deliveries up to the slots still free, POST each one signed (Standard Webhooks) through the
// outbound guard, and write the answers in batches. At least
// once: a delivery is claimed for a lease longer than an attempt can last, so a process killed between
// the commit and the answer leaves it to be claimed again when the lease ends; a receiver that answers
// after a retry was sent may see an event twice (the `webhook-id` header is the event's id, to dedupe).
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import { isDatabaseUnavailable } from '../../db/errors.js';
import type { LoopWorker } from '../../jobs/queue.js';
import { createConnectionPool, OutboundError, postGuarded, type ConnectionPool } from '../../outbound.js';
import { eventJson, recordEvents, SYSTEM_ACTOR } from '../events/index.js';
import { claimDueDeliveries, commitAsynchronously, markFailing, releaseClaims, writeAttemptResults, type AttemptResult, type ClaimedDelivery } from './deliveries.repository.js';
import { dispatchEvents } from './dispatch.js';
import { signedHeaders } from './signing.js';
import { createSecretCache, type SecretCache } from './webhook-secrets.js';
import { toApiWebhook } from './webhooks.mapper.js';
import { findWebhook } from './webhooks.repository.js';

type Deps = Pick<AppContext, 'db' | 'config' | 'keys' | 'log' | 'urls'>;

export type DeliveryTuning = {
  /** Deliveries in flight at once on this instance. */
  concurrency: number;
  /** Events dispatched per transaction. */
  dispatchBatch: number;
  /** Wait between polls when there is nothing to do. */
  idleMs: number;
  /** Answers written per transaction, and the longest an answer waits to be written. */
  writeBatch: number;
  writeDelayMs: number;
};

export const DEFAULT_TUNING: DeliveryTuning = { concurrency: 64, dispatchBatch: 500, idleMs: 250, writeBatch: 200, writeDelayMs: 20 };

/** How much of an answer is read and kept in the delivery log. */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** A webhook failing for longer than this is disabled. */
export const DISABLE_AFTER_MS = 5 * 86_400_000;

/** How long a claim holds: an attempt's timeout with room for writing its answer. */
export const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 10_000;

/** Waits `ms`, or less when `signal` aborts (its listener removed either way). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    signal.addEventListener('abort', wake, { once: true });
  });

/** Text as PostgreSQL stores it (no U+0000), at most RESPONSE_EXCERPT_BYTES of it. */
function excerpt(bytes: Buffer): string {
  return bytes.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', '\uFFFD');
}

/** The keys that sign a delivery: the webhook's secret, and the previous one during its grace period. */
function signingKeys(deps: Deps, delivery: ClaimedDelivery, now: Date, secrets: SecretCache): Buffer[] {
  const open = (sealed: Buffer) => secrets.keyBytes(deps.keys.webhookSecrets, delivery.organizationId, delivery.webhookId, sealed);
  const keys = [open(delivery.secret)];
  if (delivery.previousSecret && delivery.previousSecretExpiresAt && delivery.previousSecretExpiresAt > now) keys.push(open(delivery.previousSecret));
  return keys;
}

/**
 * One attempt: the signed POST (on a kept-alive connection of `pool` when given, the secrets opened
 * through the loop's cache), and what came of it.
 */
async function attemptDelivery(deps: Deps, delivery: ClaimedDelivery, secrets: SecretCache, pool?: ConnectionPool): Promise<AttemptResult> {
  const startedAt = new Date();
  const body = eventJson({ ...delivery, id: delivery.eventId, type: delivery.eventType, createdAt: delivery.eventCreatedAt });
  let statusCode: number | null = null;
  let error: string | null = null;
  let response: string | null = null;
  try {
    const headers = { 'content-type': 'application/json', ...signedHeaders(signingKeys(deps, delivery, startedAt, secrets), delivery.eventId, Math.floor(startedAt.getTime() / 1000), body) };
    const policy = { allowPrivate: deps.config.outbound.allowPrivate, timeoutMs: deps.config.webhooks.timeoutMs, maxBytes: RESPONSE_EXCERPT_BYTES };
    const answer = await postGuarded(delivery.url, body, headers, policy, pool);
    statusCode = answer.status;
    response = excerpt(answer.body);
    if (statusCode >= 300 && statusCode < 400) error = `the receiver answered ${statusCode}: redirects are not followed`;
    else if (statusCode < 200 || statusCode >= 300) error = `the receiver answered ${statusCode}`;
  } catch (caught) {
    error = caught instanceof OutboundError ? caught.message : `the delivery failed: ${(caught as Error).message}`;
  }
  const succeeded = error === null;
  const schedule = deps.config.webhooks.retryScheduleMs;
  return {
    organizationId: delivery.organizationId,
    deliveryId: delivery.id,
    webhookId: delivery.webhookId,
    attempt: delivery.attempt,
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    statusCode,
    error,
    response,
    succeeded,
    retryInMs: succeeded ? null : (schedule[delivery.scheduleStep - 1] ?? null),
  };
}

const uniqueWebhooks = (results: readonly AttemptResult[]) => [...new Map(results.map((r) => [`${r.organizationId}/${r.webhookId}`, { organizationId: r.organizationId, webhookId: r.webhookId }])).values()];

/**
 * Writes a batch of answers: the log, the deliveries' states and the webhooks that recovered (one
 * statement, on its own when every attempt succeeded), and, when some failed, in the same transaction,
 * the webhooks' failing state — ones failing for days are disabled (an event).
 */
export async function writeResults(deps: Deps, results: readonly AttemptResult[]): Promise<void> {
  if (results.every((result) => result.succeeded)) return writeAttemptResults(deps.db, results);
  await inTransaction(deps.db, async (trx) => {
    await commitAsynchronously(trx);
    await writeAttemptResults(trx, results);
    const disabled = await markFailing(trx, uniqueWebhooks(results.filter((r) => !r.succeeded)), DISABLE_AFTER_MS);
    const events = [];
    for (const { organizationId, id } of disabled) {
      const webhook = (await findWebhook(trx, organizationId, id))!;
      events.push({ type: 'webhook.disabled' as const, organizationId, actor: SYSTEM_ACTOR, data: { object: toApiWebhook(webhook, deps.urls) } });
    }
    await recordEvents(trx, events);
  });
}

/** The sender's loop on this instance, as a job-queue loop worker; its attempts counted in `/metrics`. */
export function webhookDeliveryWorker(deps: Deps & Pick<AppContext, 'metrics'>, tuning: DeliveryTuning = DEFAULT_TUNING): LoopWorker {
  const attempts = deps.metrics.counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts this instance made, by outcome: succeeded (a 2xx) or failed (anything else, retried on the schedule)',
    labelNames: ['outcome'],
  });
  const counted = (result: AttemptResult) => attempts.inc({ outcome: result.succeeded ? 'succeeded' : 'failed' });
  return { name: 'webhook-delivery', start: () => startDelivery(deps, tuning, counted) };
}

/** Starts the sender's loop; `onAnswer` sees each attempt's result as it comes. */
export function startDelivery(
  deps: Deps,
  tuning: DeliveryTuning = DEFAULT_TUNING,
  onAnswer: (result: AttemptResult) => void = () => {},
): { stop(timeoutMs: number): Promise<void> } {
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  // Receivers' connections kept alive between deliveries (each host name still checked every time), as
  // many per receiver as deliveries in flight: an attempt never waits for a connection, where its
  // deadline would run out before it was sent.
  const pool = createConnectionPool({ connectionsPerOrigin: tuning.concurrency });
  const secrets = createSecretCache();
  const answers: AttemptResult[] = [];
  let writeTimer: NodeJS.Timeout | undefined;
  // The one write under way, which takes the answers that came meanwhile when it is done: batches grow
  // with the database's latency (a transaction per batch, not per timer tick).
  let writer: Promise<void> | undefined;
  // Claimed deliveries waiting for a sending slot: claims are made ahead, up to one more slot's worth
  // each, so a finished attempt is followed at once by the next rather than after a claim's round trips.
  // A waiting delivery's lease (twice the attempt timeout, plus 10 s) outlasts its wait: at worst every
  // slot is held for one timeout before it is sent.
  const ready: ClaimedDelivery[] = [];
  const room = () => 2 * tuning.concurrency - inFlight.size - ready.length;
  // Claims are made for a quarter of the slots at least: one claim per finished attempt would cost a
  // round trip per delivery.
  const refill = Math.max(1, Math.floor(tuning.concurrency / 4));
  /** Resolves when there is room enough to claim again (or on stop). */
  let slotsFreed: () => void = () => {};

  const drain = async () => {
    while (answers.length > 0) {
      const batch = answers.splice(0, tuning.writeBatch);
      // A failed write leaves its deliveries to be sent again when their lease ends.
      await writeResults(deps, batch).catch((error) => deps.log.warn({ err: error, answers: batch.length }, 'webhook delivery: could not write answers'));
    }
  };
  const writeAnswers = (): Promise<void> => {
    clearTimeout(writeTimer);
    writeTimer = undefined;
    writer ??= drain().finally(() => {
      writer = undefined;
      // Answers that came between the last batch and now.
      if (answers.length > 0) writeTimer ??= setTimeout(() => void writeAnswers(), tuning.writeDelayMs);
    });
    return writer;
  };
  const answered = (result: AttemptResult) => {
    onAnswer(result);
    answers.push(result);
    if (writer) return; // the write under way takes it next
    if (answers.length >= tuning.writeBatch) void writeAnswers();
    else writeTimer ??= setTimeout(() => void writeAnswers(), tuning.writeDelayMs);
  };
  const start = (delivery: ClaimedDelivery) => {
    const attempt = attemptDelivery(deps, delivery, secrets, pool)
      .then(answered)
      .finally(() => {
        inFlight.delete(attempt);
        const next = stopping.signal.aborted ? undefined : ready.shift();
        if (next) start(next);
        if (room() >= refill) slotsFreed();
      });
    inFlight.add(attempt);
  };
  const send = (delivery: ClaimedDelivery) => {
    if (inFlight.size < tuning.concurrency) start(delivery);
    else ready.push(delivery);
  };

  const lease = leaseMs(deps.config.webhooks.timeoutMs);
  const loop = (async () => {
    let failures = 0;
    // Events are dispatched while there are some, then looked for once per idle period.
    let dispatchDue = 0;
    while (!stopping.signal.aborted) {
      let busy = false;
      try {
        if (Date.now() >= dispatchDue) {
          // New deliveries fill the free slots straight from the dispatch (claimed in its transaction).
          const { taken, claimed } = await dispatchEvents(deps.db, tuning.dispatchBatch, { slots: room(), leaseMs: lease });
          claimed.forEach(send);
          busy = taken > 0;
          if (!busy) dispatchDue = Date.now() + tuning.idleMs;
        }
        const free = room();
        if (free >= refill) {
          const claimed = await claimDueDeliveries(deps.db, free, lease);
          claimed.forEach(send);
          busy ||= claimed.length > 0;
        }
        failures = 0;
      } catch (error) {
        failures++;
        // During a database outage (logged once by db/availability.ts) each failed poll is only a debug line.
        deps.log[isDatabaseUnavailable(error) ? 'debug' : 'warn']({ err: error }, 'webhook delivery: polling failed');
        await sleep(Math.min(30_000, 250 * 2 ** failures), stopping.signal);
        continue;
      }
      if (room() < refill) await Promise.race([new Promise<void>((resolve) => (slotsFreed = resolve)), sleep(tuning.idleMs, stopping.signal)]);
      else if (!busy) await sleep(tuning.idleMs, stopping.signal);
    }
  })();

  return {
    async stop(timeoutMs) {
      stopping.abort();
      slotsFreed();
      await loop;
      // Claimed deliveries not started go back to the queue, due now (or, if that fails, when their lease ends).
      const unsent = ready.splice(0);
      await releaseClaims(deps.db, unsent).catch((error) => deps.log.warn({ err: error, deliveries: unsent.length }, 'webhook delivery: could not release claims'));
      // Attempts under way get the time left to finish and be written; the rest go when their lease ends.
      await Promise.race([Promise.all(inFlight), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      do await writeAnswers();
      while (answers.length > 0);
      pool.destroy();
    },
  };
}
