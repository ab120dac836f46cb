import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DatabaseAvailability } from './availability.js';

/** An availability whose warnings (the outage lines) are collected in `said`. */
function watched() {
  const said: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      said.push((JSON.parse(chunk.toString()) as { msg: string }).msg.split(':')[0]!);
      done();
    },
  });
  return { availability: new DatabaseAvailability(pino({ level: 'warn' }, sink), 'localhost:5432/cw'), said };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const startingUp = Object.assign(new Error('the database system is starting up'), { code: '57P03' });

afterEach(() => {
  vi.useRealTimers();
});

describe('DatabaseAvailability', () => {
  it('logs an outage once when it starts and once when it ends, however many failures come between', async () => {
    vi.useFakeTimers({ now: 1_000 });
    const { availability, said } = watched();
    for (let i = 0; i < 5; i++) expect(availability.failed(refused, 'pool', Date.now())).toBe(true);
    expect(availability.available).toBe(false);
    vi.advanceTimersByTime(10);
    availability.succeeded(Date.now());
    availability.succeeded(Date.now());
    await vi.runAllTimersAsync();
    expect(said).toEqual(['database unavailable', 'database available again']);
    expect(availability.available).toBe(true);
  });

  it('a connection from before the outage ended that fails after it starts no second outage; a newer one does', async () => {
    vi.useFakeTimers({ now: 1_000 });
    const { availability, said } = watched();
    availability.failed(refused, 'pool', Date.now());
    // An attempt that began while the server was starting up…
    const attemptedAt = Date.now();
    vi.advanceTimersByTime(5);
    availability.succeeded(Date.now());
    vi.advanceTimersByTime(5);
    // …is refused after another connection was made: old evidence.
    expect(availability.failed(startingUp, 'job queue', attemptedAt)).toBe(true);
    expect(availability.available).toBe(true);
    // A connection made after the recovery that breaks is a new outage.
    const madeAt = Date.now();
    vi.advanceTimersByTime(5);
    expect(availability.failed(refused, 'pool', madeAt)).toBe(true);
    expect(availability.available).toBe(false);
    await vi.runAllTimersAsync();
    expect(said).toEqual(['database unavailable', 'database available again', 'database unavailable']);
  });

  it('a connection whose attempt began before the outage did, made after it started, does not end it', async () => {
    vi.useFakeTimers({ now: 1_000 });
    const { availability, said } = watched();
    // Begun a moment before the server was killed: its backend completes its start-up after the first failure.
    const attemptedAt = Date.now();
    vi.advanceTimersByTime(5);
    availability.failed(refused, 'pool', Date.now());
    vi.advanceTimersByTime(5);
    availability.succeeded(attemptedAt);
    expect(availability.available).toBe(false);
    // An attempt begun once the outage was known ends it.
    availability.succeeded(Date.now());
    expect(availability.available).toBe(true);
    await vi.runAllTimersAsync();
    expect(said).toEqual(['database unavailable', 'database available again']);
  });

  it('leaves an error that does not say the database is away to the caller', () => {
    const { availability, said } = watched();
    expect(availability.failed(Object.assign(new Error('syntax error'), { code: '42601' }), 'pool', Date.now())).toBe(false);
    expect(availability.available).toBe(true);
    expect(said).toEqual([]);
  });
});
