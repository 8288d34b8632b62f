import type { TaskRecord } from './task-store.ts';

/** The extension's identifier, as clients and servers declare it under `capabilities.extensions`. */
export const tasksExtension = 'io.modelcontextprotocol/tasks';

/** Whether a request's client capabilities declare the tasks extension. */
export function declaresTasks(capabilities: Record<string, unknown>): boolean {
  const extensions = capabilities.extensions;
  return typeof extensions === 'object' && extensions !== null && tasksExtension in extensions;
}

/**
 * How often to poll a task of this age: a twentieth of its age, between 50 ms
 * and 5 s. A short task is seen soon after it ends; a long one is not polled
 * for nothing.
 */
export function pollIntervalFor(task: TaskRecord, now: number): number {
  return Math.min(5_000, Math.max(50, Math.round((now - task.createdAt) / 20)));
}

/** The task's fields every shape of it carries. */
function taskFields(task: TaskRecord, now: number): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: pollIntervalFor(task, now),
  };
  if (task.statusMessage !== undefined) fields.statusMessage = task.statusMessage;
  return fields;
}

/** What `tools/call` answers when it became a task. */
export function createTaskResult(task: TaskRecord, now: number): Record<string, unknown> {
  return { resultType: 'task', ...taskFields(task, now) };
}

/** The detailed task of `tasks/get` and `notifications/tasks`: the fields of its status inlined. */
export function detailedTask(task: TaskRecord, now: number): Record<string, unknown> {
  const detailed = taskFields(task, now);
  if (task.status === 'input_required') detailed.inputRequests = task.inputRequests ?? {};
  else if (task.status === 'completed') detailed.result = task.result ?? { content: [] };
  else if (task.status === 'failed') detailed.error = task.error ?? { code: -32603, message: 'Internal error' };
  return detailed;
}
