// What the hostile-input tests watch while a hostile request runs against a child server: a `/healthz`
// probe every 50 ms (each probe's latency: the event loop must keep answering), and the server
// process's resident memory (read from /proc, threads included).
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

export type ProbeReport = { probes: number; failures: number; worstMs: number; p99Ms: number };

export type Watch = { stop(): Promise<ProbeReport & { peakRssMb: number }> };

/** The server process's resident set, in MB (its worker threads share it). */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((entry) => entry.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

/**
 * Raises the priority of every thread of process `pid` to `priority` where allowed (root; elsewhere
 * the threads run as the machine runs them): on Linux a priority is a thread's own, and the threads that answer for the event
 * loop are not only its main thread: V8's helper threads (made at start-up) do much of its garbage
 * collection, which the main thread otherwise waits for or does alone; libuv's pool and the parse
 * workers come later. Called again before each case, for the threads made since.
 */
export function prioritize(pid: number, priority: number): void {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return; // not Linux, or the process is gone
  }
  for (const tid of tids) {
    try {
      setPriority(Number(tid), priority);
    } catch {
      // not allowed, or the thread ended meanwhile: the others are tried all the same
    }
  }
}

/** Starts probing `baseUrl`/healthz every `everyMs` and sampling `pid`'s memory; `stop` reports both. */
export function watch(baseUrl: string, pid: number, everyMs = 50): Watch {
  const latencies: number[] = [];
  let failures = 0;
  let peakRssMb = rssMb(pid);
  const pending = new Set<Promise<void>>();
  const probe = () => {
    const started = performance.now();
    const done = fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(10_000) })
      .then(async (response) => {
        await response.arrayBuffer();
        if (response.status !== 200) failures++;
        latencies.push(performance.now() - started);
      })
      .catch(() => {
        failures++;
      })
      .finally(() => pending.delete(done));
    pending.add(done);
  };
  // One probe at once, so a request answered faster than `everyMs` is watched too.
  probe();
  const probes = setInterval(probe, everyMs);
  const memory = setInterval(() => {
    try {
      peakRssMb = Math.max(peakRssMb, rssMb(pid));
    } catch {
      // the process is gone: the test says so
    }
  }, 100);
  return {
    async stop() {
      clearInterval(probes);
      clearInterval(memory);
      await Promise.all(pending);
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        probes: latencies.length + failures,
        failures,
        worstMs: Math.round(sorted.at(-1) ?? 0),
        p99Ms: Math.round(sorted[Math.floor(sorted.length * 0.99)] ?? 0),
        peakRssMb: Math.round(peakRssMb),
      };
    },
  };
}
