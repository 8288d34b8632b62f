import type { TestClient } from './connect-test-client.ts';

const terminal = new Set(['completed', 'failed', 'cancelled']);

/**
 * Polls `tasks/get` as a client should — at the `pollIntervalMs` the server
 * suggests — until the task reaches a terminal status, or `until` when
 * given (`input_required`, say). Rejects when `signal` aborts first.
 */
export async function awaitTask(
  client: Pick<TestClient, 'request'>,
  taskId: string,
  options: { until?: string; signal?: AbortSignal } = {},
): Promise<Record<string, unknown>> {
  for (;;) {
    options.signal?.throwIfAborted();
    const task = await client.request('tasks/get', { taskId });
    if (terminal.has(String(task.status)) || task.status === options.until) return task;
    const wait = typeof task.pollIntervalMs === 'number' ? task.pollIntervalMs : 100;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
