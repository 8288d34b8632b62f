import type { InputRequest } from '../modern/input-round.ts';
import type { TaskChange, TaskError, TaskRecord, TaskStore } from './task-store.ts';

/** Progress as a status message: the tool's words, with the count when it has a total. */
export function progressMessage(done: number, total?: number, message?: string): string {
  const known = total !== undefined && Number.isFinite(total);
  if (message === undefined) return `progress ${known ? `${done}/${total}` : done}`;
  return known ? `${message} (${done}/${total})` : message;
}

/** Why a task's work was stopped: the client cancelled it, or the server is closing. */
export class TaskStopped extends Error {}

/** What a task's work came to. */
export type TaskOutcome =
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'error'; error: TaskError }
  | { kind: 'stopped' };

/** The least time between two status messages written for progress: a chatty tool must not flood the store. */
const progressWriteIntervalMs = 250;

/**
 * The process-side half of one task: the work runs here, its questions wait
 * here for `tasks/update`, and `tasks/cancel` aborts it here. Every change is
 * written to the store, which is what `tasks/get` reads, here or on any replica.
 * Writes go out one at a time, in order, so the store never sees an older
 * state after a newer one.
 */
export class RunningTask {
  readonly taskId: string;
  readonly #store: TaskStore;
  readonly #controller: AbortController;
  readonly #report: (error: unknown, where: string) => void;
  /** Every question key used in the task's life: a key is never given to two questions. */
  readonly #keys: Set<string>;
  readonly #pending = new Map<string, { request: InputRequest; answer: (response: Record<string, unknown>) => void }>();
  #statusMessage: string | undefined;
  #cancelRequested = false;
  #settled = false;
  #writes: Promise<void> = Promise.resolve();
  #lastProgressWrite = 0;
  #progressTimer: NodeJS.Timeout | undefined;

  constructor(
    record: TaskRecord,
    store: TaskStore,
    controller: AbortController,
    keys: Set<string>,
    report: (error: unknown, where: string) => void,
  ) {
    this.taskId = record.taskId;
    this.#statusMessage = record.statusMessage;
    this.#store = store;
    this.#controller = controller;
    this.#keys = keys;
    this.#report = report;
  }

  get settled(): boolean {
    return this.#settled;
  }

  /** A question for the client: the task shows it in `inputRequests` until `tasks/update` answers it. */
  ask(method: InputRequest['method'], params: Record<string, unknown>, key: string): Promise<Record<string, unknown>> {
    let name = key;
    for (let copy = 2; this.#keys.has(name); copy += 1) name = `${key}-${copy}`;
    this.#keys.add(name);
    return new Promise((resolve, reject) => {
      if (this.#controller.signal.aborted) {
        reject(this.#controller.signal.reason);
        return;
      }
      this.#pending.set(name, { request: { method, params }, answer: resolve });
      this.#controller.signal.addEventListener('abort', () => reject(this.#controller.signal.reason), { once: true });
      this.#write(this.#current());
    });
  }

  /** Progress becomes the status message: tasks carry no progress notifications. */
  progress(done: number, total?: number, message?: string): void {
    if (this.#settled || !Number.isFinite(done)) return;
    this.#statusMessage = progressMessage(done, total, message);
    const wait = this.#lastProgressWrite + progressWriteIntervalMs - Date.now();
    if (wait <= 0) {
      this.#lastProgressWrite = Date.now();
      this.#write(this.#current());
      return;
    }
    this.#progressTimer ??= setTimeout(() => {
      this.#progressTimer = undefined;
      this.#lastProgressWrite = Date.now();
      if (!this.#settled) this.#write(this.#current());
    }, wait).unref();
  }

  /** Answers from `tasks/update`: those for questions not outstanding are ignored, as the extension says. */
  answer(responses: Readonly<Record<string, unknown>>): void {
    let answered = false;
    for (const [key, response] of Object.entries(responses)) {
      const pending = this.#pending.get(key);
      if (pending === undefined || typeof response !== 'object' || response === null || Array.isArray(response))
        continue;
      this.#pending.delete(key);
      pending.answer(response as Record<string, unknown>);
      answered = true;
    }
    if (answered && !this.#settled) this.#write(this.#current());
  }

  /** Cooperative: the work is told through its signal, and the task ends `cancelled` when the work stops. */
  cancel(): void {
    if (this.#settled || this.#cancelRequested) return;
    this.#cancelRequested = true;
    this.#statusMessage = "cancelling at the client's request";
    this.#controller.abort(new TaskStopped('Cancelled by the client'));
  }

  /** Stops the work because the server is closing: the task ends `failed`, saying so. */
  stop(reason: string): void {
    if (this.#settled) return;
    this.#controller.abort(new TaskStopped(reason));
  }

  /** Records how the work ended. Resolves once the store has it. */
  settle(outcome: TaskOutcome): Promise<void> {
    if (this.#settled) return this.#writes;
    this.#settled = true;
    clearTimeout(this.#progressTimer);
    this.#pending.clear();
    let change: TaskChange;
    if (this.#cancelRequested && outcome.kind !== 'result') {
      change = { status: 'cancelled', statusMessage: 'Cancelled by the client' };
    } else if (outcome.kind === 'result') {
      change = { status: 'completed', result: outcome.result };
    } else if (outcome.kind === 'error') {
      change = { status: 'failed', statusMessage: outcome.error.message, error: outcome.error };
    } else {
      const reason = this.#controller.signal.reason;
      const message = reason instanceof Error ? reason.message : 'The task was stopped';
      change = {
        status: 'failed',
        statusMessage: message,
        error: { code: -32603, message: `${message}; call the tool again` },
      };
    }
    this.#write(change);
    return this.#writes;
  }

  #current(): TaskChange {
    if (this.#pending.size === 0) return { status: 'working', statusMessage: this.#statusMessage };
    const inputRequests: Record<string, InputRequest> = {};
    for (const [key, { request }] of this.#pending) inputRequests[key] = request;
    return { status: 'input_required', statusMessage: 'waiting for input from the client', inputRequests };
  }

  #write(change: TaskChange): void {
    const at = Date.now();
    this.#writes = this.#writes
      .then(() => this.#store.update(this.taskId, change, at))
      .catch((error: unknown) => this.#report(error, `task ${this.taskId} ${change.status}`));
  }
}
