// Periodic work: a queue worker's `schedule` (a cron expression, UTC) sends one job to its queue in
// each minute the expression names, from whichever instance checks first.
//
// Not pg-boss's own scheduler: every 30 s it worked out each expression's previous time with
// cron-parser's `prev()`, which steps back through luxon dates minute by minute, on the event loop:
// about 60 ms for the server's seven schedules on an idle 2-core machine and 150 ms on a loaded one,
// every 30 s (no work may hold the loop past ~50 ms: docs/decisions.md, "Parsing off the event loop").
// Here each expression is parsed once, at start, into the minutes, hours, days and months it names; a
// check is a few set lookups. A minute's job has an id derived from the queue and the minute, so the
// instances checking the same minute insert it once (pg-boss inserts with ON CONFLICT DO NOTHING).
import { createHash } from 'node:crypto';
import cronParser from 'cron-parser';

/** Each minute is checked at least twice, however late a timer fires within reason. */
const CHECK_EVERY_MS = 20_000;

/** Whether a cron expression names a minute (UTC). */
export type Schedule = (minute: Date) => boolean;

/** `expression` (five fields: minute, hour, day of month, month, day of week), read once. */
export function parseSchedule(expression: string): Schedule {
  if (expression.trim().split(/\s+/).length !== 5) throw new Error(`schedule "${expression}": five fields (minute hour day month weekday) expected`);
  const { minute, hour, dayOfMonth, month, dayOfWeek } = cronParser.parseExpression(expression, { tz: 'UTC' }).fields;
  if (dayOfMonth.includes('L')) throw new Error(`schedule "${expression}": the last day of the month ("L") is not supported`);
  const minutes = new Set<number>(minute);
  const hours = new Set<number>(hour);
  const days = new Set<number>(dayOfMonth as readonly number[]);
  const months = new Set<number>(month);
  // cron-parser names Sunday 0 and 7.
  const weekdays = new Set<number>(dayOfWeek.map((day) => day % 7));
  // As cron has it: when both the day of the month and the weekday are restricted, either one will do.
  const daysRestricted = days.size < 31;
  const weekdaysRestricted = weekdays.size < 7;
  return (at) => {
    if (!minutes.has(at.getUTCMinutes()) || !hours.has(at.getUTCHours()) || !months.has(at.getUTCMonth() + 1)) return false;
    const day = days.has(at.getUTCDate());
    const weekday = weekdays.has(at.getUTCDay());
    return daysRestricted && weekdaysRestricted ? day || weekday : day && weekday;
  };
}

/** The id of `queue`'s job for `minute`: the same on every instance (a UUID's form, from a hash). */
export function scheduledJobId(queue: string, minute: Date): string {
  const hex = createHash('sha256').update(`${queue}\n${minute.toISOString().slice(0, 16)}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export type ScheduledQueue = { name: string; schedule: Schedule };

/**
 * Checks the schedules now and every CHECK_EVERY_MS: each queue whose schedule names the current
 * minute gets that minute's job through `send` (a failure is `onError`'s: the next check tries the
 * same minute again). Returns what stops the checks.
 */
export function startSchedules(
  queues: ScheduledQueue[],
  send: (queue: string, id: string) => Promise<unknown>,
  onError: (error: unknown, queue: string) => void,
  { now = () => new Date(), everyMs = CHECK_EVERY_MS }: { now?: () => Date; everyMs?: number } = {},
): { stop(): Promise<void> } {
  const sending = new Set<Promise<void>>();
  const check = () => {
    const minute = now();
    minute.setUTCSeconds(0, 0);
    for (const queue of queues) {
      if (!queue.schedule(minute)) continue;
      const sent: Promise<void> = send(queue.name, scheduledJobId(queue.name, minute)).then(
        () => undefined,
        (error: unknown) => onError(error, queue.name),
      );
      sending.add(sent);
      void sent.finally(() => sending.delete(sent));
    }
  };
  const timer = setInterval(check, everyMs);
  timer.unref();
  check();
  return {
    // The sends under way finish first: the queue's connections are closed after.
    async stop() {
      clearInterval(timer);
      await Promise.all(sending);
    },
  };
}
