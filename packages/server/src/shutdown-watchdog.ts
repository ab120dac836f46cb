// The hard deadline of a shutdown, kept by a thread of its own. run-server.ts's own timer exits the process
// at SHUTDOWN_TIMEOUT_MS, but a timer of the event loop only fires once the loop is free: a loop held by
// one long task ran a shutdown 23 s past its 10 s deadline. The watchdog thread has its own loop: at the
// deadline (plus a moment for the main thread's timer to win when it can) it logs a fatal line and ends
// the process with SIGKILL, whatever the main thread is doing.
import { Worker } from 'node:worker_threads';

/** Left to the main thread's own timer (exit code 1, its own log line) before the watchdog acts. */
const GRACE_MS = 500;

const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
setTimeout(() => {
  writeSync(1, JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, msg: 'shutdown deadline passed while the event loop was blocked: killing the process' }) + '\\n');
  process.kill(process.pid, 'SIGKILL');
}, workerData.ms);
`;

/** Ends the process at `deadlineMs` from now (plus a short grace) even if its event loop is blocked. */
export function armShutdownWatchdog(deadlineMs: number): void {
  // unref: a shutdown that finishes in time exits without waiting for it.
  new Worker(WATCHDOG, { eval: true, workerData: { ms: deadlineMs + GRACE_MS } }).unref();
}
