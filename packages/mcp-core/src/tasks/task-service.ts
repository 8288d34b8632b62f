import { invalidParams, missingClientCapability } from '../errors/common-protocol-errors.ts';
import { LocalError } from '../errors/local-error.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import type { JsonRpcNotification, JsonRpcParams } from '../messages/jsonrpc-message.ts';
import { RunningTask } from './running-task.ts';
import { isTerminal, type TaskRecord, type TaskStore } from './task-store.ts';
import { declaresTasks, detailedTask, tasksExtension } from './task-wire.ts';

/** How a server keeps its tasks. */
export interface TaskOptions {
  /** Where tasks live; replicas behind one load balancer share one. Default: this process's memory. */
  store?: TaskStore;
  /** How long a task is kept from its creation, in milliseconds. Default one hour. */
  ttlMs?: number;
}

const defaultTtlMs = 60 * 60_000;

/** The -32021 every tasks request, and every task-only call, gets from a client that did not declare the extension. */
export function tasksUndeclared(why: string): Error {
  return missingClientCapability({ extensions: { [tasksExtension]: {} } }, why);
}

/**
 * The tasks of one server: it starts them, runs them in this process, and
 * answers `tasks/get`, `tasks/update` and `tasks/cancel` for any task in its
 * store — the ones a replica elsewhere runs included. A task belongs to the
 * caller who created it: to anyone else it does not exist.
 */
export class TaskService {
  readonly #store: TaskStore;
  readonly #ttlMs: number;
  readonly #report: (error: unknown, where: string) => void;
  readonly #running = new Map<string, RunningTask>();
  #unsubscribe: (() => void) | undefined;

  constructor(
    store: TaskStore,
    options: { ttlMs?: number | undefined },
    report: (error: unknown, where: string) => void,
  ) {
    const ttlMs = options.ttlMs ?? defaultTtlMs;
    if (!Number.isSafeInteger(ttlMs) || ttlMs < 1_000) {
      throw new LocalError('config_invalid', `tasks.ttlMs must be a whole number of milliseconds ≥ 1000; got ${ttlMs}`);
    }
    this.#store = store;
    this.#ttlMs = ttlMs;
    this.#report = report;
  }

  /** Reports a failure that is the server's fault. */
  report(error: unknown, where: string): void {
    this.#report(error, where);
  }

  get store(): TaskStore {
    return this.#store;
  }

  /** Tasks running in this process now. */
  get running(): number {
    return this.#running.size;
  }

  /**
   * Creates a task for work already under way, once the store has it. The
   * work's signal is `controller`'s from then on; `keys` are the question
   * keys it has used so far.
   */
  async begin(
    principal: string,
    controller: AbortController,
    keys: Set<string>,
    statusMessage: string | undefined,
  ): Promise<{ task: RunningTask; record: TaskRecord }> {
    const { randomBytes } = process.getBuiltinModule('node:crypto');
    const now = Date.now();
    const record: TaskRecord = {
      taskId: `task-${randomBytes(18).toString('base64url')}`,
      principal,
      status: 'working',
      statusMessage,
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.#ttlMs,
    };
    this.#listen();
    await this.#store.create(record);
    const task = new RunningTask(record, this.#store, controller, keys, this.#report);
    this.#running.set(record.taskId, task);
    return { task, record };
  }

  /** Records how a task's work ended, and lets it go. */
  async end(task: RunningTask, outcome: Parameters<RunningTask['settle']>[0]): Promise<void> {
    try {
      await task.settle(outcome);
    } finally {
      this.#running.delete(task.taskId);
    }
  }

  /** Stops every task running here: the server is closing. Each ends `failed`, saying why. */
  async stopAll(reason: string): Promise<void> {
    const running = [...this.#running.values()];
    for (const task of running) task.stop(reason);
    await Promise.all(running.map((task) => this.end(task, { kind: 'stopped' })));
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  /** Answers `tasks/get`, `tasks/update` or `tasks/cancel`. */
  async answer(
    method: 'tasks/get' | 'tasks/update' | 'tasks/cancel',
    params: JsonRpcParams,
    capabilities: Record<string, unknown>,
    principal: string,
  ): Promise<Record<string, unknown>> {
    if (!declaresTasks(capabilities)) throw tasksUndeclared(`${method} needs the tasks extension declared`);
    const { taskId } = params;
    if (typeof taskId !== 'string' || taskId === '') {
      throw invalidParams(`Invalid params: ${method} needs params.taskId, the id tools/call returned`);
    }
    const task = await this.#find(taskId, principal);
    if (method === 'tasks/get') return detailedTask(task, Date.now());
    if (method === 'tasks/update') {
      const { inputResponses } = params;
      if (!isPlainObject(inputResponses)) {
        throw invalidParams('Invalid params: tasks/update needs inputResponses, an object of responses by input key');
      }
      if (task.status === 'input_required')
        await this.#store.signal({ taskId, kind: 'input', responses: inputResponses });
      return {};
    }
    // Cancelling a finished task is acknowledged all the same: cancellation is a wish, not a command.
    if (!isTerminal(task.status)) await this.#store.signal({ taskId, kind: 'cancel' });
    return {};
  }

  /**
   * The task ids of a `subscriptions/listen` filter this server agrees to
   * report: the caller's own tasks that exist. A filter that asks for tasks
   * from a client that did not declare the extension is -32021.
   */
  async agreeTaskIds(requested: unknown, capabilities: Record<string, unknown>, principal: string): Promise<string[]> {
    if (requested === undefined) return [];
    if (!declaresTasks(capabilities))
      throw tasksUndeclared('notifications for tasks need the tasks extension declared');
    if (!Array.isArray(requested) || !requested.every((taskId) => typeof taskId === 'string')) {
      throw invalidParams('Invalid params: notifications.taskIds must be an array of task ids');
    }
    if (requested.length > 1_000) throw invalidParams('Invalid params: at most 1000 taskIds per stream');
    const agreed: string[] = [];
    for (const taskId of new Set(requested as string[])) {
      const task = taskId.length > 200 ? undefined : await this.#store.get(taskId);
      if (task !== undefined && task.principal === principal) agreed.push(taskId);
    }
    return agreed;
  }

  /** Sends `notifications/tasks`, the task as `tasks/get` would show it, each time one of these tasks changes. */
  watch(taskIds: readonly string[], principal: string, send: (notification: JsonRpcNotification) => void): () => void {
    const watched = new Set(taskIds);
    if (watched.size === 0) return () => {};
    let stopped = false;
    const unsubscribe = this.#store.onChange((taskId) => {
      if (!watched.has(taskId)) return;
      void this.#store.get(taskId).then(
        (task) => {
          if (stopped || task === undefined || task.principal !== principal) return;
          send({ jsonrpc: '2.0', method: 'notifications/tasks', params: detailedTask(task, Date.now()) });
        },
        (error: unknown) => this.#report(error, `notifications for task ${taskId}`),
      );
    });
    return () => {
      stopped = true;
      unsubscribe();
    };
  }

  async #find(taskId: string, principal: string): Promise<TaskRecord> {
    const task = taskId.length > 200 ? undefined : await this.#store.get(taskId);
    // Another caller's task reads exactly as one that does not exist: ids are not to be probed.
    if (task === undefined || task.principal !== principal) {
      throw invalidParams('Invalid params: task not found; it may have expired, or belong to another caller');
    }
    return task;
  }

  #listen(): void {
    this.#unsubscribe ??= this.#store.onSignal((signal) => {
      const task = this.#running.get(signal.taskId);
      if (task === undefined) return;
      if (signal.kind === 'cancel') task.cancel();
      else task.answer(signal.responses);
    });
  }
}
