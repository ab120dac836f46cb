// The parse pool's worker (parse-pool.ts): runs one task (tasks.ts) at a time, at a lower priority than
// the event loop. It tells the pool when the task starts, so the task's deadline counts its running
// time, not its wait for a worker or the loading of its module.
import { constants, setPriority } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { TASKS, type TaskName } from './tasks.js';

// Below the main thread: when the cores are busy parsing, the event loop still gets them first (on
// Linux a thread's priority is its own, so only this worker is lowered). Best effort elsewhere.
try {
  setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
} catch {
  // not allowed here: the worker keeps the process's priority
}

type Request = { task: TaskName; input: unknown; started: MessagePort };

const loaded = new Map<TaskName, Promise<(input: never) => unknown>>();

export default async function run({ task, input, started }: Request): Promise<unknown> {
  let load = loaded.get(task);
  if (!load) loaded.set(task, (load = TASKS[task]() as Promise<(input: never) => unknown>));
  const perform = await load;
  started.postMessage('started');
  started.close();
  return perform(input as never);
}
