// The parse pool's worker (parse-pool.ts): runs one task (tasks.ts) at a time. It tells the pool when
// the task starts, so the task's deadline counts its running time, not its wait for a worker or the
// loading of its module. It keeps the process's priority: lowered (nice 10), a worker on a machine busy
// with other work gets a tenth of a normal thread's share, and ordinary bodies would miss their wall-clock deadlines.
import type { MessagePort } from 'node:worker_threads';
import { TASKS, type TaskName } from './tasks.js';

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
