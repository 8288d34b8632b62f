import type { TaskStore } from '@toolshed/mcp-core';
import type { StateStore } from '@toolshed/state';

/**
 * The host's tasks, in its state store: a task one replica runs is read,
 * answered and cancelled through any other, and the tasks of a replica that
 * died end `failed` there. The store opens when the host starts, after its
 * server is made, so each use finds the store of the moment.
 */
export function hostTaskStore(store: () => StateStore): TaskStore {
  return {
    create: (task) => store().tasks.create(task),
    get: (taskId) => store().tasks.get(taskId),
    update: (taskId, change, at) => store().tasks.update(taskId, change, at),
    signal: (signal) => store().tasks.signal(signal),
    onSignal: (listener) => store().tasks.onSignal(listener),
    onChange: (listener) => store().tasks.onChange(listener),
  };
}
