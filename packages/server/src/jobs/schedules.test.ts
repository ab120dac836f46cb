import { describe, expect, it } from 'vitest';
import { parseSchedule, scheduledJobId, startSchedules } from './schedules.js';

const at = (iso: string) => new Date(`${iso}Z`);

describe('parseSchedule', () => {
  it('names the minutes, hours, days and months of the expression, in UTC', () => {
    const hourly = parseSchedule('37 * * * *');
    expect(hourly(at('2026-11-29T10:37'))).toBe(true);
    expect(hourly(at('2026-11-29T10:36'))).toBe(false);
    const everyTen = parseSchedule('*/10 * * * *');
    expect([0, 10, 50].map((m) => everyTen(at(`2026-11-29T03:${String(m).padStart(2, '0')}`)))).toEqual([true, true, true]);
    expect(everyTen(at('2026-11-29T03:05'))).toBe(false);
    const nightly = parseSchedule('15 3 * 1,6 *');
    expect(nightly(at('2026-06-02T03:15'))).toBe(true);
    expect(nightly(at('2026-06-02T04:15'))).toBe(false);
    expect(nightly(at('2026-07-02T03:15'))).toBe(false);
  });

  it('takes either the day of the month or the weekday when both are restricted, both when one is', () => {
    // 2026-11-29 is a Sunday; 2026-12-01 a Tuesday.
    const firstOrSunday = parseSchedule('0 0 1 * 0');
    expect(firstOrSunday(at('2026-11-29T00:00'))).toBe(true);
    expect(firstOrSunday(at('2026-12-01T00:00'))).toBe(true);
    expect(firstOrSunday(at('2026-12-02T00:00'))).toBe(false);
    const sundays = parseSchedule('0 0 * * 7');
    expect(sundays(at('2026-11-29T00:00'))).toBe(true);
    expect(sundays(at('2026-11-30T00:00'))).toBe(false);
  });

  it('refuses what it would not honour', () => {
    expect(() => parseSchedule('0 * * * * *')).toThrow(/five fields/);
    expect(() => parseSchedule('0 0 L * *')).toThrow(/last day/);
    expect(() => parseSchedule('61 * * * *')).toThrow();
  });
});

it("a minute's job id is the same for every instance, and differs by queue and minute", () => {
  const id = scheduledJobId('purge', at('2026-11-29T10:37'));
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(scheduledJobId('purge', at('2026-11-29T10:37'))).toBe(id);
  expect(scheduledJobId('purge', at('2026-11-29T10:38'))).not.toBe(id);
  expect(scheduledJobId('prune', at('2026-11-29T10:37'))).not.toBe(id);
});

it('checks at start and then on its timer, sending the due queues the current minute’s job; a failed send is reported', async () => {
  let now = at('2026-11-29T10:37:42');
  const sent: Array<[string, string]> = [];
  const failed: string[] = [];
  const schedules = startSchedules(
    [
      { name: 'hourly', schedule: parseSchedule('37 * * * *') },
      { name: 'next-minute', schedule: parseSchedule('38 * * * *') },
      { name: 'broken', schedule: parseSchedule('* * * * *') },
    ],
    async (queue, id) => {
      if (queue === 'broken') throw new Error('down');
      sent.push([queue, id]);
    },
    (_error, queue) => failed.push(queue),
    { now: () => new Date(now), everyMs: 10 },
  );
  await new Promise((resolve) => setTimeout(resolve, 5));
  // The start's check (and any timer check a slow machine ran since: the same minute's job again).
  expect(new Set(sent.map((pair) => pair.join(' ')))).toEqual(new Set([`hourly ${scheduledJobId('hourly', at('2026-11-29T10:37'))}`]));
  now = at('2026-11-29T10:38:01');
  await new Promise((resolve) => setTimeout(resolve, 30));
  await schedules.stop();
  expect(sent).toContainEqual(['next-minute', scheduledJobId('next-minute', at('2026-11-29T10:38'))]);
  expect(new Set(sent.map(([queue]) => queue))).toEqual(new Set(['hourly', 'next-minute']));
  expect(failed.length).toBeGreaterThan(0);
  expect(new Set(failed)).toEqual(new Set(['broken']));
});
