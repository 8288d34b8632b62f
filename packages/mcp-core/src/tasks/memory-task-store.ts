import { isTerminal, type TaskRecord, type TaskSignal, type TaskStore } from './task-store.ts';

/**
 * The tasks of one process, in its memory: for a server that runs alone.
 * Finished tasks are forgotten when their time to live has passed, and at
 * most `limit` are kept (finished ones go first), so no client can grow it
 * without bound.
 */
export function createMemoryTaskStore(limit = 10_000): TaskStore {
  const tasks = new Map<string, TaskRecord>();
  const signalListeners = new Set<(signal: TaskSignal) => void>();
  const changeListeners = new Set<(taskId: string) => void>();
  const changed = (taskId: string) => {
    for (const listener of changeListeners) listener(taskId);
  };
  const forgetExpired = (now: number) => {
    for (const [taskId, task] of tasks) {
      if (isTerminal(task.status) && task.createdAt + task.ttlMs < now) tasks.delete(taskId);
    }
    if (tasks.size < limit) return;
    // Insertion order is creation order: the oldest finished tasks go first.
    for (const [taskId, task] of tasks) {
      if (tasks.size < limit) break;
      if (isTerminal(task.status)) tasks.delete(taskId);
    }
  };
  let creations = 0;
  return {
    async create(task) {
      creations += 1;
      if (creations % 64 === 0 || tasks.size >= limit) forgetExpired(task.createdAt);
      if (tasks.size >= limit) throw new Error(`this server already runs ${limit} tasks`);
      tasks.set(task.taskId, task);
    },
    async get(taskId) {
      const task = tasks.get(taskId);
      if (task === undefined) return undefined;
      if (isTerminal(task.status) && task.createdAt + task.ttlMs < Date.now()) {
        tasks.delete(taskId);
        return undefined;
      }
      return task;
    },
    async update(taskId, change, at) {
      const task = tasks.get(taskId);
      if (task === undefined || isTerminal(task.status)) return;
      tasks.set(taskId, {
        taskId,
        principal: task.principal,
        createdAt: task.createdAt,
        ttlMs: task.ttlMs,
        lastUpdatedAt: at,
        status: change.status,
        statusMessage: change.statusMessage,
        inputRequests: change.inputRequests,
        result: change.result,
        error: change.error,
      });
      changed(taskId);
    },
    async signal(signal) {
      for (const listener of signalListeners) listener(signal);
    },
    onSignal(listener) {
      signalListeners.add(listener);
      return () => signalListeners.delete(listener);
    },
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
  };
}
